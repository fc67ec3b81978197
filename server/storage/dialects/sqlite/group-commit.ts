import { setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from 'knex';
import type { WriteJob } from '../../dialect.js';
import { Pacer } from '../../pace.js';

/** Most jobs one transaction takes; the rest wait for the next. */
const MAX_JOBS = 256;
/** How long a write waits for the file's write lock while another process holds it. */
const LOCK_WAIT_MS = 10_000;
/** The longest pause between two tries for that lock. */
const LOCK_RETRY_MAX_MS = 20;
/**
 * The first statement of every write transaction: it takes the file's write lock at once, so a
 * transaction never reads a snapshot that another commit then invalidates.
 */
const TAKE_WRITE_LOCK = 'UPDATE topocat_write_lock SET n = n + 1 WHERE id = 1';

interface Pending {
  readonly job: WriteJob<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

type Outcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };

/**
 * Group commit on the one writer connection of a SQLite file. Write jobs that arrive while the
 * event loop is busy are run together in one transaction, each in a savepoint of its own (a job
 * that throws leaves nothing behind, and the others go on), and committed at once: one WAL
 * write and one fsync (`synchronous=FULL`) for all of them. Each job's promise settles only
 * after that commit has returned, so an acknowledged write is durable; if the commit fails,
 * every job of the group fails with it.
 *
 * A job may run several kinds of statements on several tables (its transaction is the group's,
 * its savepoint its own), so a composite write is one job. Between jobs, and inside long jobs
 * that pace themselves, the event loop gets its turns (see Pacer); the jobs that arrive meanwhile
 * form the next group.
 *
 * The write lock of another process (cluster workers share a file) is waited for here, in
 * short sleeps, instead of inside SQLite's busy handler, which would stall the event loop.
 */
export class GroupCommit {
  private queue: Pending[] = [];
  private draining: Promise<void> | undefined;

  constructor(private readonly writer: Knex) {}

  run<T>(job: WriteJob<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ job, resolve: resolve as (value: unknown) => void, reject });
      // Started on the next turn, after the I/O of this one: requests read together commit together.
      this.draining ??= new Promise<void>((started) => setImmediate(started)).then(() => this.drain());
    });
  }

  /** Resolves once every job handed over so far has settled. */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) await this.commit(this.queue.splice(0, MAX_JOBS));
    } finally {
      this.draining = undefined;
    }
  }

  private async commit(group: readonly Pending[]): Promise<void> {
    if (group.length === 1) {
      // Alone, a job needs no savepoint: the transaction is all or nothing already.
      const only = group[0]!;
      try {
        only.resolve(await this.transaction((trx) => only.job(trx)));
      } catch (error) {
        only.reject(error);
      }
      return;
    }
    const outcomes: Outcome[] = [];
    try {
      await this.transaction(async (trx) => {
        outcomes.length = 0;
        const pacer = new Pacer();
        for (const { job } of group) {
          try {
            outcomes.push({ ok: true, value: await trx.transaction((savepoint) => job(savepoint)) });
          } catch (error) {
            outcomes.push({ ok: false, error });
          }
          await pacer.breathe();
        }
      });
    } catch (error) {
      // Not committed: nothing of any job is stored. A job that failed on its own keeps its reason.
      group.forEach((pending, i) => {
        const outcome = outcomes[i];
        pending.reject(outcome && !outcome.ok ? outcome.error : error);
      });
      return;
    }
    group.forEach((pending, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) pending.resolve(outcome.value);
      else pending.reject(outcome.error);
    });
  }

  /** `work` in a transaction that holds the file's write lock, waiting for it as long as LOCK_WAIT_MS. */
  private async transaction<T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    const deadline = performance.now() + LOCK_WAIT_MS;
    for (let pause = 1; ; pause = Math.min(pause * 2, LOCK_RETRY_MAX_MS)) {
      let locked = false;
      try {
        return await this.writer.transaction(async (trx) => {
          await trx.raw(TAKE_WRITE_LOCK);
          locked = true;
          return work(trx);
        });
      } catch (error) {
        const busy = (error as { code?: unknown } | null)?.code === 'SQLITE_BUSY';
        if (locked || !busy || performance.now() >= deadline) throw error;
      }
      await sleep(pause);
    }
  }
}
