import type { ErrorClassifier } from '../../contract/driver.js';

/** Result codes of a file that cannot serve now (better-sqlite3 puts the extended code in `code`). */
const UNAVAILABLE = /^SQLITE_(BUSY|CANTOPEN|IOERR|FULL|LOCKED)(_|$)/;
/** Another connection holds the lock: SQLITE_BUSY and its extended codes (BUSY_SNAPSHOT, BUSY_RECOVERY), and SQLITE_LOCKED. */
const LOCK_BUSY = /^SQLITE_(BUSY|LOCKED)(_|$)/;
/**
 * SQLite's limits on a statement (sqlite.org/limits.html), which it reports as a plain
 * SQLITE_ERROR with these messages, or as SQLITE_TOOBIG.
 */
const TOO_LARGE = /Expression tree is too large|too many terms in|too many SQL variables|too many arguments on function|too many columns|parser stack overflow|string or blob too big/;

export const sqliteErrors: ErrorClassifier = {
  // A busy or unwritable file is said by nothing else: each request it fails is logged.
  reportsOutages: false,

  isUnavailable(error: unknown): boolean {
    const code = (error as { code?: unknown } | null)?.code;
    return (typeof code === 'string' && UNAVAILABLE.test(code)) || (error instanceof Error && error.name === 'KnexTimeoutError');
  },

  isUniqueViolation(error: unknown): boolean {
    const code = (error as { code?: unknown } | null)?.code;
    return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
  },

  isQueryTooLarge(error: unknown): boolean {
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
    return code === 'SQLITE_TOOBIG' || (code === 'SQLITE_ERROR' && typeof message === 'string' && TOO_LARGE.test(message));
  },

  isLockBusy(error: unknown): boolean {
    const code = (error as { code?: unknown } | null)?.code;
    return typeof code === 'string' && LOCK_BUSY.test(code);
  },
};
