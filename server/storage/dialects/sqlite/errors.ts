import type { ErrorClassifier } from '../../dialect.js';

/** Result codes of a file that cannot serve now (better-sqlite3 puts the extended code in `code`). */
const UNAVAILABLE = /^SQLITE_(BUSY|CANTOPEN|IOERR|FULL|LOCKED)(_|$)/;
/** Another connection holds the lock: SQLITE_BUSY and its extended codes (BUSY_SNAPSHOT, BUSY_RECOVERY), and SQLITE_LOCKED. */
const LOCK_BUSY = /^SQLITE_(BUSY|LOCKED)(_|$)/;

export const sqliteErrors: ErrorClassifier = {
  isUnavailable(error: unknown): boolean {
    const code = (error as { code?: unknown } | null)?.code;
    return (typeof code === 'string' && UNAVAILABLE.test(code)) || (error instanceof Error && error.name === 'KnexTimeoutError');
  },

  isUniqueViolation(error: unknown): boolean {
    const code = (error as { code?: unknown } | null)?.code;
    return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
  },

  isLockBusy(error: unknown): boolean {
    const code = (error as { code?: unknown } | null)?.code;
    return typeof code === 'string' && LOCK_BUSY.test(code);
  },
};
