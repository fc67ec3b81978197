import type { Knex } from 'knex';
import type { Row, WriteSql } from '../../dialect.js';

/** A write job's plain SQL on PostgreSQL: through the job's transaction (knex turns `?` into `$n`). */
export function transactionSql(trx: Knex.Transaction): WriteSql {
  return {
    async rows(sql, bindings) {
      return ((await trx.raw(sql, bindings as readonly Knex.RawBinding[])) as { rows: Row[] }).rows;
    },
    async run(sql, bindings) {
      await trx.raw(sql, bindings as readonly Knex.RawBinding[]);
    },
  };
}
