import type { Knex } from 'knex';
import type { VersionRow } from '../../dialect.js';
import { postgresErrors } from './errors.js';
import { storeVersionsOn } from './history.js';
import type { PgQueryable } from './prepared.js';

/** Statements in flight at once: while they run, the appends that arrive wait and are merged. */
const IN_FLIGHT = 2;
/** Versions merged into one statement at most (one request's array may be larger on its own). */
const MERGED_VERSIONS = 1_000;

interface Waiting {
  readonly versions: readonly VersionRow[];
  resolve(ids: number[]): void;
  reject(error: unknown): void;
}

type Pool = { acquireConnection(): Promise<PgQueryable>; releaseConnection(connection: PgQueryable): Promise<void> };

/**
 * Appends of new resources (ids made for them: no lock to take, nothing to read) from requests
 * that arrive together, written by one statement on a pooled connection, outside any explicit
 * transaction: one round trip and one COMMIT for all of them, where each used to be seven
 * statements of its own transaction. Acknowledged once that statement returns (committed, and
 * flushed as `synchronous_commit` says). A merged statement that fails for a reason of its own is
 * tried again per request, so one request's fault never fails another's; one that fails because
 * the database went away fails them all (503), as a lone request would.
 */
export class MergedAppends {
  private readonly waiting: Waiting[] = [];
  private running = 0;
  private readonly settled = new Set<Promise<void>>();

  constructor(private readonly knex: Knex) {}

  append(versions: readonly VersionRow[]): Promise<number[]> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ versions, resolve, reject });
      this.pump();
    });
  }

  /** Resolves once nothing is waiting or in flight. */
  async idle(): Promise<void> {
    while (this.settled.size > 0) await Promise.allSettled([...this.settled]);
  }

  private pump(): void {
    while (this.running < IN_FLIGHT && this.waiting.length > 0) {
      let count = 0;
      let take = 0;
      while (take < this.waiting.length && (take === 0 || count + this.waiting[take]!.versions.length <= MERGED_VERSIONS)) count += this.waiting[take++]!.versions.length;
      const batch = this.waiting.splice(0, take);
      this.running++;
      const done = this.flush(batch).finally(() => {
        this.running--;
        this.settled.delete(done);
        this.pump();
      });
      this.settled.add(done);
    }
  }

  private async flush(batch: readonly Waiting[]): Promise<void> {
    try {
      const ids = await this.store(batch.flatMap((w) => w.versions));
      let at = 0;
      for (const w of batch) {
        w.resolve(ids.slice(at, at + w.versions.length));
        at += w.versions.length;
      }
    } catch (error) {
      // The database away (or the session lost, the outcome unknown): every request is told so.
      if (batch.length === 1 || postgresErrors.isUnavailable(error)) {
        for (const w of batch) w.reject(error);
        return;
      }
      // A fault of the statement: whose is not known, so each request again, alone.
      await Promise.all(batch.map((w) => this.store(w.versions).then(w.resolve, w.reject)));
    }
  }

  private async store(versions: readonly VersionRow[]): Promise<number[]> {
    const pool = this.knex.client as Pool;
    const connection = await pool.acquireConnection();
    try {
      return await storeVersionsOn(connection, versions);
    } finally {
      await pool.releaseConnection(connection);
    }
  }
}
