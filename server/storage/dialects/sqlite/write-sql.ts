import type BetterSqlite3 from 'better-sqlite3';
import type { Knex } from 'knex';
import type { Row, WriteSql } from '../../dialect.js';
import { statementsOf } from './knex-client.js';

/**
 * A write job's plain SQL on SQLite: statements prepared once on the writer's connection and run
 * directly, the way the key reads are. Through knex, each statement of a POST cost about 15–20 µs
 * of main-thread time besides SQLite's own work (building, the runner, its promises and events).
 * Values are bound as they are: booleans are written in the SQL (TRUE, FALSE), not bound.
 */
export function connectionSql(connection: BetterSqlite3.Database): WriteSql {
  const statements = statementsOf(connection);
  return {
    async rows(sql, bindings) {
      return statements.get(sql).all(bindings) as Row[];
    },
    async run(sql, bindings) {
      statements.get(sql).run(bindings);
    },
  };
}

/** The connection a knex transaction of the writer runs on (knex's transaction client hands it out). */
export async function transactionConnection(trx: Knex.Transaction): Promise<BetterSqlite3.Database> {
  const client = trx.client as { acquireConnection(): Promise<BetterSqlite3.Database> };
  return client.acquireConnection();
}
