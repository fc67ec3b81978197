import type { Logger } from '../log.js';
import type { ErrorClassifier } from './contract/driver.js';

/** First pause after a busy lock; it doubles up to MAX_PAUSE_MS. */
const FIRST_PAUSE_MS = 20;
const MAX_PAUSE_MS = 500;

/**
 * A lock that is not the engine's own was busy: knex's migration lock (another process
 * migrates, or the lock row could not be written), whose error carries no driver code.
 */
export class LockBusy extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LockBusy';
  }
}

/** The start-up's writes found the database locked by another process for longer than allowed. */
export class StartLockTimeout extends Error {
  constructor(readonly waitedMs: number, cause: unknown) {
    super(`the database stayed locked by another process for ${waitedMs} ms (START_LOCK_TIMEOUT_MS); is another server still running on it?`, { cause });
    this.name = 'StartLockTimeout';
  }
}

/**
 * The bounded wait of one start for the database's write lock. On SQLite a server that was just
 * sent SIGTERM still holds the file's write lock while it finishes its requests and closes
 * (up to SHUTDOWN_TIMEOUT_MS), and the writer of a new one does not wait for locks (busy_timeout
 * 0, see dialects/sqlite/connections.ts): a start at once on the same file failed with "database
 * is locked". Each start-up step that writes (migrations, index changes, the service's facts)
 * runs through `run`, which tries it again while the dialect says the lock is busy, until
 * `budgetMs` from the first wait have passed; the steps are idempotent (a migration is one
 * transaction, index changes look at what exists first). It waits on timers, so the event loop
 * keeps answering (503, server/http/start-gate.ts) meanwhile.
 */
export class StartLock {
  /** Milliseconds waited in earlier steps: the budget is the whole start's. */
  private waitedBefore = 0;

  constructor(
    private readonly budgetMs: number,
    private readonly logger: Logger | undefined,
  ) {}

  async run<T>(errors: ErrorClassifier, step: string, work: () => Promise<T>): Promise<T> {
    let pause = FIRST_PAUSE_MS;
    let since: number | undefined;
    for (;;) {
      try {
        const result = await work();
        if (since !== undefined) {
          const waited = performance.now() - since;
          this.waitedBefore += waited;
          this.logger?.info({ step, waitedMs: Math.round(waited) }, 'the database lock is free: starting');
        }
        return result;
      } catch (error) {
        if (!lockBusy(errors, error)) throw error;
        const now = performance.now();
        if (since === undefined) {
          since = now;
          this.logger?.warn({ step, timeoutMs: this.budgetMs }, 'the database is locked by another process (a server still stopping?): waiting for it (START_LOCK_TIMEOUT_MS)');
        }
        const waited = this.waitedBefore + (now - since);
        if (waited >= this.budgetMs) throw new StartLockTimeout(Math.round(waited), error);
        await new Promise((resolve) => setTimeout(resolve, Math.min(pause, this.budgetMs - waited)));
        pause = Math.min(pause * 2, MAX_PAUSE_MS);
      }
    }
  }

}

/** The error, or one it wraps (StorageUnavailable), says the lock is busy. */
function lockBusy(errors: ErrorClassifier, error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) if (e instanceof LockBusy || errors.isLockBusy(e)) return true;
  return false;
}
