import type { Knex } from 'knex';
import type { Row } from '../../contract/rows.js';
import type { StatementResult, WriteStatements } from '../../contract/driver.js';
import { numbered, type PgQueryable } from './prepared.js';

/**
 * On the transaction's own connection (knex's transaction client hands it out), straight to the
 * driver: through knex's raw queries each statement cost its builder, binding rewrite and runner
 * on the event loop besides the round trip. Unnamed, so PostgreSQL plans each with its values
 * (see preparedStatement for the statements that are kept prepared).
 */
export const postgresStatements: WriteStatements = {
  async run(trx: Knex.Transaction, sql: string, bindings: readonly unknown[]): Promise<StatementResult> {
    const connection = await (trx.client as unknown as { acquireConnection(): Promise<PgQueryable> }).acquireConnection();
    const result = await connection.query({ text: numbered(sql), values: bindings });
    return { rows: result.rows as Row[], changes: result.rowCount ?? 0 };
  },
};
