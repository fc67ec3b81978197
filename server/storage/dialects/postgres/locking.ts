import knexFactory, { type Knex } from 'knex';
import type { Locking } from '../../contract/adapter.js';
import { ACQUIRE_TIMEOUT_MS, type PostgresSettings } from './settings.js';
import type { WritableHost } from './primary.js';

/**
 * Writers of one resource serialise on a transaction-scoped advisory lock rather than
 * `SELECT … FOR UPDATE`: an insert of a client-chosen id, or of an id whose resource was
 * deleted, has no row to lock yet, and one mechanism serves both. Migrations and index changes
 * run under a database-wide advisory lock.
 */
export class PostgresLocking implements Locking {
  constructor(
    private readonly settings: PostgresSettings,
    private readonly primary: WritableHost,
  ) {}

  async lockResources(trx: Knex.Transaction, scope: string, keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    // One round trip for a whole batch, locks taken in hash order (the same in every process).
    await trx.raw(
      'SELECT count(pg_advisory_xact_lock(h)) FROM (SELECT DISTINCT hashtextextended(? || k, 0) AS h FROM unnest(?::text[]) AS k ORDER BY h) AS locks',
      [`${this.keyPrefix}${scope}/`, [...keys]],
    );
  }

  /**
   * The start of every advisory lock key of this database: a resource's key is the hash of this,
   * its scope, `/` and its id. The schema is part of it so that databases in separate schemas
   * never wait on each other.
   */
  get keyPrefix(): string {
    return `${this.settings.schema ?? ''}/`;
  }

  async exclusive<T>(name: string, work: () => Promise<T>): Promise<T> {
    // A connection of its own holds the lock, so `work` may use every connection of the pool
    // (even when DATABASE_POOL_MAX is 1); the lock ends with its transaction, or with the
    // connection if this process dies.
    const holder = knexFactory({
      client: 'pg',
      connection: this.primary.connection,
      acquireConnectionTimeout: ACQUIRE_TIMEOUT_MS,
      pool: { min: 0, max: 1 },
      // Its failures reach the caller (and the start-up log) as exceptions; knex would also
      // print them on stdout, among the JSON logs.
      log: { warn: () => undefined, error: () => undefined },
    });
    try {
      return await holder.transaction(async (trx) => {
        await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`topocat:${name}:${this.settings.schema ?? ''}`]);
        return work();
      });
    } finally {
      await holder.destroy();
    }
  }

  /** Advisory locks need no table. */
  readonly migration = { up: async (): Promise<void> => {}, down: async (): Promise<void> => {} };
}
