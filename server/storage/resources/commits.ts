import type { Uses } from '../contract/database.js';
import type { ReadLease } from '../contract/read-lease.js';
import type { WriteJob } from '../contract/driver.js';
import type { CurrentCache } from '../current-cache.js';
import { classified } from '../errors.js';

/** What the writer uses of the database. */
export type CommitsDatabase = Uses<'write' | 'lease', { driver: 'errors'; adapter: 'announcements' }>;

/**
 * The resource store's writer: every write of it runs through `committed`, which classifies the
 * database's errors, holds the read lease's write side where there is one, and tells whoever
 * listens once the write has committed.
 */
export class Commits {
  private readonly listeners: (() => void)[] = [];
  /** The listeners will be told on the next turn (see committed). */
  private telling = false;

  /** @param cache told of each write as it begins and ends (CurrentCache.writing). */
  constructor(
    private readonly db: CommitsDatabase,
    private readonly cache?: CurrentCache,
  ) {}

  /** Call `listener` after each committed write (the change feed reads the event log then). */
  onCommitted(listener: () => void): void {
    this.listeners.push(listener);
  }

  /**
   * One write job (SQLite: committed with the jobs that arrive beside it; see Pools.write), and
   * the listeners of onCommitted told once it has committed. The measurement store writes
   * through it too, so the change feed hears of its appends.
   */
  write<T>(job: WriteJob<T>): Promise<T> {
    return this.committed(() => this.db.write(job));
  }

  /**
   * `work`, a write, with the database's errors classified, and once it has committed: the
   * listeners of onCommitted, and the other processes on the same database (an announcement),
   * told on the next turn of the event loop, after the writer's answer is on its way. The
   * change feed reads the new events at once (a prepared statement on SQLite) and sends every
   * subscriber its frame: told in the same turn, it did so before the write's 2xx was written
   * (1,000 subscribers: all 200,000 frames of the bench's latency row arrived before their
   * writes' answers). The writes of one turn share one read, and one announcement.
   */
  async committed<T>(work: () => Promise<T>): Promise<T> {
    const over = this.cache?.writing();
    const result = await classified(this.db.dialect.driver.errors, this.db.lease ? () => this.leased(this.db.lease!, work) : work).finally(() => over?.());
    if (!this.telling) {
      this.telling = true;
      setImmediate(() => {
        this.telling = false;
        for (const listener of this.listeners) listener();
        this.db.dialect.adapter.announcements.announce();
      });
    }
    return result;
  }

  /** `work` once this process may write (ReadLease.writing), the lease told when it is over. */
  private async leased<T>(lease: ReadLease, work: () => Promise<T>): Promise<T> {
    const asked = lease.writing();
    const done = asked instanceof Promise ? await asked : asked;
    try {
      return await work();
    } finally {
      await done();
    }
  }
}
