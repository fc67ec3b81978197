import type BetterSqlite3 from 'better-sqlite3';
import type { Knex } from 'knex';
import type { Row } from '../../contract/rows.js';
import type { StatementResult, WriteStatements } from '../../contract/driver.js';
import { statementsOf } from './knex-client.js';

/**
 * A write job's statements on the writer's own connection (the one its transaction holds, as
 * knex's transaction client hands it out), from the same cache of prepared statements as knex's
 * queries on it: no query object, no binding rewrite, no promise per layer.
 */
export const sqliteStatements: WriteStatements = {
  async run(trx: Knex.Transaction, sql: string, bindings: readonly unknown[]): Promise<StatementResult> {
    const connection = (await (trx.client as unknown as { acquireConnection(): Promise<BetterSqlite3.Database> }).acquireConnection());
    const statement = statementsOf(connection).get(sql);
    if (statement.reader) return { rows: statement.all(...bindings) as Row[], changes: 0 };
    return { rows: [], changes: statement.run(...bindings).changes };
  },
};
