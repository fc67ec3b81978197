import type { CountTriggers, SchemaSql } from '../../contract/sql.js';
import { jsonPath } from './sql.js';

/**
 * Each session updates the counter row of its backend (pid % 16), so writers in other sessions
 * rarely wait on the same row, and a transaction touches one row only: no lock cycles among them.
 */
const COUNTER_SHARDS = 16;

export const postgresDdl: SchemaSql = {
  documentType: 'jsonb',

  keyType(length: number): string {
    return `varchar(${length}) COLLATE "C"`;
  },

  // A longer varchar is binary-coercible: PostgreSQL changes the catalog only, rewriting neither
  // the table nor its indexes.
  widenKey(table: string, column: string, length: number): string {
    return `ALTER TABLE ${table} ALTER COLUMN ${column} TYPE ${this.keyType(length)}`;
  },

  createExpressionIndex(name: string, table: string, column: string, segments: readonly string[], then: readonly string[]): string {
    return `CREATE INDEX IF NOT EXISTS ${name} ON ${table} (${['kind', `(${column} #>> ${jsonPath(segments)}) COLLATE "C"`, ...then].join(', ')})`;
  },

  dropIndex(name: string): string {
    return `DROP INDEX IF EXISTS ${name}`;
  },

  // Every table is a heap; the key is an index beside it.
  keyOnlyTable: '',

  rowCountTriggers(table: string, counters: string, column: string): CountTriggers {
    // Statement-level, over the transition table: one UPDATE per statement, not per row.
    const step = (event: 'INSERT' | 'DELETE', transition: 'NEW' | 'OLD', sign: '+' | '-', name: string) => [
      `CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
         UPDATE ${counters} SET ${column} = ${column} ${sign} (SELECT count(*) FROM changed) WHERE shard = pg_backend_pid() % ${COUNTER_SHARDS};
         RETURN NULL;
       END $$`,
      `CREATE TRIGGER ${name} AFTER ${event} ON ${table} REFERENCING ${transition} TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ${name}()`,
    ];
    return {
      create: [...step('INSERT', 'NEW', '+', `${table}_counted`), ...step('DELETE', 'OLD', '-', `${table}_uncounted`)],
      drop: [`${table}_counted`, `${table}_uncounted`].flatMap((name) => [`DROP TRIGGER IF EXISTS ${name} ON ${table}`, `DROP FUNCTION IF EXISTS ${name}()`]),
      shards: COUNTER_SHARDS,
    };
  },
};
