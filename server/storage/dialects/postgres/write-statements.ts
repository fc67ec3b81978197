import type { Knex } from 'knex';
import type { Row, StatementResult, WriteStatements } from '../../dialect.js';
import { preparedStatement, type PgQueryable } from './prepared.js';

/**
 * On the transaction's own connection (knex's transaction client hands it out), as a named
 * prepared statement: PostgreSQL parses and plans each text once per session, and the driver
 * then sends only the values. Through knex's raw queries each statement cost its builder,
 * binding rewrite and runner on the event loop besides the round trip.
 */
export const postgresStatements: WriteStatements = {
  async run(trx: Knex.Transaction, sql: string, bindings: readonly unknown[]): Promise<StatementResult> {
    const connection = await (trx.client as unknown as { acquireConnection(): Promise<PgQueryable> }).acquireConnection();
    const result = await connection.query({ ...preparedStatement(sql), values: bindings });
    return { rows: result.rows as Row[], changes: result.rowCount ?? 0 };
  },
};
