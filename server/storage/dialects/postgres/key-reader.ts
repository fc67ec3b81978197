import type { Knex } from 'knex';
import type { Row } from '../../contract/rows.js';
import type { KeyReader } from '../../contract/driver.js';
import { preparedStatement, type PgQueryable } from './prepared.js';

/**
 * Key lookups as named prepared statements on the reader pool's connections: pg prepares each
 * name once per session and afterwards sends only the values. The pool (and so its timeouts,
 * which turn an outage into 503s) is knex's.
 */
export class PostgresKeyReader implements KeyReader {
  constructor(private readonly knex: Knex) {}

  async one(sql: string, bindings: readonly unknown[]): Promise<Row | undefined> {
    return (await this.all(sql, bindings))[0];
  }

  async all(sql: string, bindings: readonly unknown[]): Promise<Row[]> {
    const client = this.knex.client as { acquireConnection(): Promise<PgQueryable>; releaseConnection(c: PgQueryable): Promise<void> };
    const connection = await client.acquireConnection();
    try {
      return (await connection.query({ ...preparedStatement(sql), values: bindings })).rows as Row[];
    } finally {
      await client.releaseConnection(connection);
    }
  }

  async close(): Promise<void> {
    // The statements live in the pool's sessions, which close with the pool.
  }
}
