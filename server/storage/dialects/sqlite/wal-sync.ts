import { open, realpath } from 'node:fs/promises';

/**
 * Durability of commits, off the event loop. The writer commits with `synchronous = NORMAL`
 * (the commit writes the WAL without waiting for the disk); before a write is acknowledged, the
 * WAL is flushed with fdatasync on the thread pool, and one flush covers every commit made
 * before it started. So the event loop never waits for the disk, and while one group's flush is
 * under way the next group can already run and commit. SQLite keeps WAL mode consistent across
 * a power loss at NORMAL; what NORMAL alone gives up, durability of the last commits, is what
 * this flush restores before any of them is acknowledged.
 *
 * The file is opened by name for each flush, so a WAL that SQLite replaced is never missed; the
 * name is SQLite's, beside the database file with symbolic links resolved.
 */
export class WalSync {
  private flushing: Promise<void> | undefined;
  /** A flush that starts once the current one ends, shared by everyone who asks meanwhile. */
  private queued: Promise<void> | undefined;

  private walPath: string | undefined;

  constructor(private readonly databasePath: string) {}

  /** Resolves once everything committed before the call is on disk. */
  durable(): Promise<void> {
    if (this.queued) return this.queued;
    if (!this.flushing) return this.start();
    // The flush under way may have begun before the caller's commit: wait for the next.
    const next = this.flushing.then(
      () => this.start(),
      () => this.start(),
    );
    this.queued = next;
    return next;
  }

  /** Resolves (never rejects) once no flush is under way. */
  async settled(): Promise<void> {
    while (this.flushing) await this.flushing.catch(() => undefined);
  }

  private start(): Promise<void> {
    this.queued = undefined;
    const flush = this.flush().finally(() => {
      if (this.flushing === flush) this.flushing = undefined;
    });
    this.flushing = flush;
    return flush;
  }

  private async flush(): Promise<void> {
    try {
      this.walPath ??= `${await realpath(this.databasePath)}-wal`;
      const file = await open(this.walPath, 'r');
      try {
        await file.datasync();
      } finally {
        await file.close();
      }
    } catch (error) {
      // Reported as SQLite reports a failed sync, so the stores answer "unavailable".
      throw Object.assign(new Error(`flushing the WAL of ${this.databasePath} failed`, { cause: error }), { code: 'SQLITE_IOERR_FSYNC' });
    }
  }
}
