import type { Knex } from 'knex';
import knexFactory from 'knex';
import { readAgainAround, type ReadPool } from './read-pool.js';

/**
 * The routed reader's knex client (standbys.ts): the pg client of knex, each connection taken
 * from the primary's pool or a standby's by a ConnectionSource (PostgresStandbys), each statement
 * outside a transaction run through readAgainAround. It overrides only the client's public
 * methods that the runner calls (acquireConnection, releaseConnection, query), never an
 * underscored one; test/postgres/routed-client.test.ts fails if knex stops calling them.
 */

/** A knex client (knex types it loosely): what the routed client uses of its targets. */
export interface PoolClient {
  acquireConnection(): Promise<object>;
  releaseConnection(connection: object): Promise<void>;
  readonly version?: string;
}

/** Where the routed client's connections come from (PostgresStandbys). */
export interface ConnectionSource {
  take(): Promise<object>;
  give(connection: object): Promise<void>;
  standbyFailed(connection: object, error: unknown): boolean;
}

/**
 * The primary's knex client, but for where its connections come from: no pool of its own (no
 * `connection`), each connection taken from the primary's pool or a standby's by `source`.
 */
export function routedKnex(primary: Knex, source: ConnectionSource): Knex {
  const primaryClient = primary.client as PoolClient;
  const Base = (primaryClient as unknown as { constructor: unknown }).constructor as new (config: Knex.Config) => PoolClient & {
    transacting?: boolean;
    query(connection: object, obj: string | object): Promise<unknown>;
  };
  class RoutedPgClient extends Base implements ReadPool<object> {
    override async acquireConnection(): Promise<object> {
      return source.take();
    }

    override async releaseConnection(connection: object): Promise<void> {
      await source.give(connection);
    }

    standbyFailed(connection: object, error: unknown): boolean {
      return source.standbyFailed(connection, error);
    }

    override async query(connection: object, obj: string | object): Promise<unknown> {
      // Inside a transaction the statement cannot move alone: the transaction fails as a whole.
      if (this.transacting) return super.query(connection, obj);
      // knex's query() writes the positioned SQL into the object it is given (`?` → `$1`,
      // `\\?` → `?`): each run gets the statement as the builder compiled it.
      return readAgainAround(this, (on) => super.query(on, typeof obj === 'string' ? obj : { ...obj }), connection);
    }
  }
  // The server's version, as the primary's first connection said it (the query compiler may ask).
  Object.defineProperty(RoutedPgClient.prototype, 'version', { get: () => primaryClient.version, set: () => undefined });
  return knexFactory({ client: RoutedPgClient as unknown as typeof Knex.Client });
}
