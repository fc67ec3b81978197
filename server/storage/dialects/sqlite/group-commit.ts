import { setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from 'knex';
import type { WriteJob } from '../../contract/driver.js';
import { Pacer } from '../../pace.js';
import { inSavepoint } from '../../savepoint.js';
import { WRITE_LOCK_TABLE } from './locking.js';
import type { WalSync } from './wal-sync.js';
import { sqliteStatements } from './write-statements.js';

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
const TAKE_WRITE_LOCK = `UPDATE ${WRITE_LOCK_TABLE} SET n = n + 1 WHERE id = 1`;

/** The savepoint around each job of a group (knex names its own savepoints trx1, trx2, …). */
const SAVEPOINT = 'topocat_job';

interface Pending {
  readonly job: WriteJob<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

type Outcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };

function settle(pending: Pending, outcome: Outcome): void {
  if (outcome.ok) pending.resolve(outcome.value);
  else pending.reject(outcome.error);
}

/**
 * Group commit on the one writer connection of a SQLite file. Write jobs that arrive while the
 * event loop is busy are run together in one transaction, each in a savepoint of its own (a job
 * that throws leaves nothing behind, and the others go on), and committed at once: one WAL
 * write and one flush of it to disk for all of them (see WalSync). Each job's promise settles
 * only once that flush is done, so an acknowledged write is durable; if the commit or the flush
 * fails, every job of the group that would have stored something fails with it.
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
  /** Groups committed, and the jobs in them, for /metrics. */
  groups = 0;
  jobs = 0;

  /** Jobs waiting for their group. */
  get waiting(): number {
    return this.queue.length;
  }
  private draining: Promise<void> | undefined;
  /** Groups committed whose flush has not ended yet. */
  private readonly settling = new Set<Promise<void>>();

  constructor(
    private readonly writer: Knex,
    private readonly durability: WalSync,
  ) {}

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
    await Promise.all(this.settling);
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        // While the last group's WAL is flushed, the writes that arrive wait and form one larger
        // group: each COMMIT writes the pages it changed, and the pages that neighbouring
        // inserts share are written once per group instead of once per small group. No write
        // waits longer for its acknowledgement: it would wait for that flush anyway.
        await this.durability.settled();
        const group = this.queue.splice(0, MAX_JOBS);
        this.groups++;
        this.jobs += group.length;
        await this.commit(group);
      }
    } finally {
      this.draining = undefined;
    }
  }

  /**
   * Run and commit one group, then settle its jobs once the commit is durable; the next group
   * may run meanwhile.
   */
  private async commit(group: readonly Pending[]): Promise<void> {
    let outcomes: Outcome[];
    try {
      outcomes = group.length === 1 ? await this.alone(group[0]!) : await this.together(group);
    } catch (error) {
      // Not committed: nothing of any job is stored.
      for (const pending of group) pending.reject(error);
      return;
    }
    const settled = this.durability.durable().then(
      () => group.forEach((pending, i) => settle(pending, outcomes[i]!)),
      // Committed, but not known to be on disk: no job may say it is stored.
      (error: unknown) => group.forEach((pending, i) => settle(pending, outcomes[i]!.ok ? { ok: false, error } : outcomes[i]!)),
    );
    this.settling.add(settled);
    void settled.finally(() => this.settling.delete(settled));
  }

  /** One job: it needs no savepoint, the transaction is all or nothing already. */
  private async alone(pending: Pending): Promise<Outcome[]> {
    try {
      return [{ ok: true, value: await this.transaction((trx) => pending.job(trx)) }];
    } catch (error) {
      // The transaction was rolled back; only a failed COMMIT would concern the others, and there are none.
      return [{ ok: false, error }];
    }
  }

  /** Several jobs in one transaction, each in a savepoint. Throws when the transaction fails. */
  private async together(group: readonly Pending[]): Promise<Outcome[]> {
    const outcomes: Outcome[] = [];
    await this.transaction(async (trx) => {
      outcomes.length = 0;
      const pacer = new Pacer();
      for (const { job } of group) {
        // Plain savepoints, prepared once and run on the connection: knex's nested transactions,
        // and even its raw queries, cost more than a job of one data point.
        try {
          outcomes.push({ ok: true, value: await inSavepoint(sqliteStatements, trx, SAVEPOINT, () => job(trx)) });
        } catch (error) {
          outcomes.push({ ok: false, error });
        }
        await pacer.breathe();
      }
    });
    return outcomes;
  }

  /** `work` in a transaction that holds the file's write lock, waiting for it as long as LOCK_WAIT_MS. */
  private async transaction<T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    const deadline = performance.now() + LOCK_WAIT_MS;
    for (let pause = 1; ; pause = Math.min(pause * 2, LOCK_RETRY_MAX_MS)) {
      let locked = false;
      try {
        return await this.writer.transaction(async (trx) => {
          await sqliteStatements.run(trx, TAKE_WRITE_LOCK, []);
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
