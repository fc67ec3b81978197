import { open, realpath, type FileHandle } from 'node:fs/promises';

/**
 * Durability of commits, off the event loop. The writer commits with `synchronous = NORMAL`
 * (the commit writes the WAL without waiting for the disk); before a write is acknowledged, the
 * WAL is flushed with fdatasync on the thread pool, and one flush covers every commit made
 * before it started. So the event loop never waits for the disk, and while one group's flush is
 * under way the next group can already run and commit. SQLite keeps WAL mode consistent across
 * a power loss at NORMAL; what NORMAL alone gives up, durability of the last commits, is what
 * this flush restores before any of them is acknowledged.
 *
 * The WAL is opened once, by SQLite's name for it (beside the database file, symbolic links
 * resolved), and kept open: SQLite removes a WAL only when the last connection to the database
 * closes, and the writer whose commits this flushes stays open as long as this object is used,
 * so the file never changes under the handle (a checkpoint rewrites or truncates it in place).
 * Opening and closing it around each flush cost two more thread-pool round trips per group: at
 * 200 single writes a second, each its own group, the open alone was 11 % of the event loop's
 * busy time. After a failed flush the handle is dropped and the next flush opens the file anew.
 */
export class WalSync {
  private flushing: Promise<void> | undefined;
  /** A flush that starts once the current one ends, shared by everyone who asks meanwhile. */
  private queued: Promise<void> | undefined;

  private walPath: string | undefined;
  private file: Promise<FileHandle> | undefined;

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

  /** Waits for the flush under way, then closes the file. */
  async close(): Promise<void> {
    await this.settled();
    await this.dropFile();
  }

  private async flush(): Promise<void> {
    try {
      this.file ??= this.openWal();
      await (await this.file).datasync();
    } catch (error) {
      void this.dropFile();
      // Reported as SQLite reports a failed sync, so the stores answer "unavailable".
      throw Object.assign(new Error(`flushing the WAL of ${this.databasePath} failed`, { cause: error }), { code: 'SQLITE_IOERR_FSYNC' });
    }
  }

  /** Forget the open WAL and close it (never rejects). */
  private async dropFile(): Promise<void> {
    const file = this.file;
    this.file = undefined;
    await file?.then((handle) => handle.close()).catch(() => undefined);
  }

  private async openWal(): Promise<FileHandle> {
    this.walPath ??= `${await realpath(this.databasePath)}-wal`;
    return open(this.walPath, 'r');
  }
}
