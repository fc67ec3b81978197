import type { Knex } from 'knex';
import type { Row } from '../../contract/rows.js';
import type { KeyReader } from '../../contract/driver.js';
import { preparedStatement, type PgQueryable } from './prepared.js';
import { readAgainAround, type ReadPool } from './read-pool.js';

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
    const statement = { ...preparedStatement(sql), values: bindings };
    // A standby's failure is not the read's: it reads again where the routing now sends it.
    return readAgainAround(this.knex.client as ReadPool<PgQueryable>, async (connection) => (await connection.query(statement)).rows as Row[]);
  }

  async close(): Promise<void> {
    // The statements live in the pool's sessions, which close with the pool.
  }
}
