import type { Knex } from 'knex';
import { postgresErrors } from './errors.js';
import type { PgQueryable } from './prepared.js';
import { NoWritableHost, READ_ONLY } from './primary.js';

/** Statements of one kind in flight at once: while they run, the requests that arrive wait and are merged. */
const IN_FLIGHT = 2;
/** Items merged into one statement at most (one request's own items may be more). */
const MERGED_ITEMS = 1_000;

/**
 * One statement for the items of many requests, on a connection of the pool, outside any explicit
 * transaction (the statement is its own): an outcome per item, in order.
 */
export type MergedStatement<Item, Outcome> = (connection: PgQueryable, items: readonly Item[]) => Promise<Outcome[]>;

interface Waiting<Item, Outcome> {
  readonly items: readonly Item[];
  readonly keys: readonly string[];
  resolve(outcomes: Outcome[]): void;
  reject(error: unknown): void;
}

type Pool = { acquireConnection(): Promise<PgQueryable>; releaseConnection(connection: PgQueryable): Promise<void> };

/**
 * Writes from requests that arrive together, done by one statement: one round trip and one
 * COMMIT for all of them, the group commit of PostgreSQL's writes (SQLite's writer has its own,
 * dialects/sqlite/group-commit.ts). A request is answered once the statement returns (committed,
 * and flushed as `synchronous_commit` says). A statement that fails for a reason of its own is
 * tried again per request, so one request's fault never fails another's; one that fails because
 * the database went away fails them all (503), as a lone request would. Two requests that write
 * the same resource never share a statement (`keys`): the later one waits for the next.
 */
export class MergedWrites<Item, Outcome> {
  private readonly waiting: Waiting<Item, Outcome>[] = [];
  private running = 0;
  private readonly settled = new Set<Promise<void>>();

  /** @param unconfirmed told of items whose statement was sent but whose outcome is unknown (unconfirmedCommit). */
  constructor(
    private readonly knex: Knex,
    private readonly statement: MergedStatement<Item, Outcome>,
    private readonly unconfirmed?: (items: readonly Item[], error: unknown) => void,
  ) {}

  /** The outcomes of `items`, in order; `keys` name the resources they write. */
  submit(items: readonly Item[], keys: readonly string[]): Promise<Outcome[]> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ items, keys, resolve, reject });
      this.pump();
    });
  }

  /** Resolves once nothing is waiting or in flight. */
  async idle(): Promise<void> {
    while (this.settled.size > 0) await Promise.allSettled([...this.settled]);
  }

  private pump(): void {
    while (this.running < IN_FLIGHT && this.waiting.length > 0) {
      const batch = this.take();
      this.running++;
      const done = this.flush(batch).finally(() => {
        this.running--;
        this.settled.delete(done);
        this.pump();
      });
      this.settled.add(done);
    }
  }

  /** The waiting requests that go together: in order, up to the size, none writing a resource another one does. */
  private take(): Waiting<Item, Outcome>[] {
    const batch: Waiting<Item, Outcome>[] = [];
    const keys = new Set<string>();
    let count = 0;
    for (let i = 0; i < this.waiting.length; ) {
      const next = this.waiting[i]!;
      if (batch.length > 0 && (count + next.items.length > MERGED_ITEMS || next.keys.some((k) => keys.has(k)))) {
        i++;
        continue;
      }
      batch.push(next);
      for (const key of next.keys) keys.add(key);
      count += next.items.length;
      this.waiting.splice(i, 1);
    }
    return batch;
  }

  private async flush(batch: readonly Waiting<Item, Outcome>[]): Promise<void> {
    try {
      const outcomes = await this.run(batch.flatMap((w) => w.items));
      let at = 0;
      for (const w of batch) {
        w.resolve(outcomes.slice(at, at + w.items.length));
        at += w.items.length;
      }
    } catch (error) {
      // The database away (or the session lost, the outcome unknown): every request is told so.
      if (batch.length === 1 || postgresErrors.isUnavailable(error)) {
        for (const w of batch) w.reject(error);
        return;
      }
      // A fault of the statement: whose is not known, so each request again, alone.
      await Promise.all(batch.map((w) => this.run(w.items).then(w.resolve, w.reject)));
    }
  }

  private async run(items: readonly Item[]): Promise<Outcome[]> {
    let sent = false;
    try {
      return await onConnection(this.knex, (connection) => {
        sent = true;
        return this.statement(connection, items);
      });
    } catch (error) {
      if (sent && unconfirmedCommit(error)) this.unconfirmed?.(items, error);
      throw error;
    }
  }
}

/**
 * Whether `error`, met after a write was sent, leaves its commit unknown: the session was lost
 * (dropped, terminated, the server shut down or crashed) rather than the write refused. A commit
 * may have been written before, and kept by the node promoted next (a commit that waited for
 * its synchronous standby is written on both; rest-contract §16). A read-only answer (25006),
 * or a connection never made, stored nothing.
 */
export function unconfirmedCommit(error: unknown): boolean {
  if (!postgresErrors.isUnavailable(error)) return false;
  if (error instanceof NoWritableHost) return false;
  const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown };
  // NotWritable (primary.ts) carries READ_ONLY too.
  return code !== READ_ONLY && code !== '55000' && name !== 'KnexTimeoutError';
}

/** `work` on a connection of knex's pool, outside any transaction of knex's. */
export async function onConnection<T>(knex: Knex, work: (connection: PgQueryable) => Promise<T>): Promise<T> {
  const pool = knex.client as Pool;
  const connection = await pool.acquireConnection();
  try {
    return await work(connection);
  } finally {
    await pool.releaseConnection(connection);
  }
}
