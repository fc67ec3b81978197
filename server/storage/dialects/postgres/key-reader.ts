import type { Knex } from 'knex';
import type { Row } from '../../dialect.js';
import type { KeyReader } from '../../key-reader.js';

/** The parts of a pooled `pg` client a key lookup uses. */
interface PgQueryable {
  query(config: { name: string; text: string; values: readonly unknown[] }): Promise<{ rows: Row[] }>;
}

/**
 * Key lookups as named prepared statements on the reader pool's connections: pg prepares each
 * name once per session and afterwards sends only the values. The pool (and so its timeouts,
 * which turn an outage into 503s) is knex's.
 */
export class PostgresKeyReader implements KeyReader {
  private readonly statements = new Map<string, { name: string; text: string }>();

  constructor(private readonly knex: Knex) {}

  async one(sql: string, bindings: readonly unknown[]): Promise<Row | undefined> {
    return (await this.all(sql, bindings))[0];
  }

  async all(sql: string, bindings: readonly unknown[]): Promise<Row[]> {
    let statement = this.statements.get(sql);
    if (!statement) {
      let n = 0;
      statement = { name: `topocat_key_${this.statements.size}`, text: sql.replace(/\?/g, () => `$${++n}`) };
      this.statements.set(sql, statement);
    }
    const client = this.knex.client as { acquireConnection(): Promise<PgQueryable>; releaseConnection(c: PgQueryable): Promise<void> };
    const connection = await client.acquireConnection();
    try {
      const result = await connection.query({ ...statement, values: bindings });
      return result.rows;
    } finally {
      await client.releaseConnection(connection);
    }
  }

  async close(): Promise<void> {
    // The statements live in the pool's sessions, which close with the pool.
  }
}
