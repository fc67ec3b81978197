import type { Knex } from 'knex';
import type { Row, StatementResult, WriteStatements } from '../../dialect.js';

/** Through knex's raw queries: on PostgreSQL the round trip, not the builder, is what a statement costs. */
export const postgresStatements: WriteStatements = {
  async run(trx: Knex.Transaction, sql: string, bindings: readonly unknown[]): Promise<StatementResult> {
    const result = (await trx.raw(sql, bindings as Knex.RawBinding[])) as { rows: Row[]; rowCount: number | null };
    return { rows: result.rows, changes: result.rowCount ?? 0 };
  },
};
