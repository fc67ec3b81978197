import type { CountTriggers, SchemaSql } from '../../dialect.js';
import { jsonPath } from './sql.js';

export const sqliteDdl: SchemaSql = {
  documentType: 'text',

  keyType(length: number): string {
    // SQLite compares text with the BINARY collation unless told otherwise.
    return `varchar(${length})`;
  },

  createExpressionIndex(name: string, table: string, column: string, segments: readonly string[], then: readonly string[]): string {
    return `CREATE INDEX IF NOT EXISTS ${name} ON ${table} (${['kind', `json_extract(${column}, ${jsonPath(segments)})`, ...then].join(', ')})`;
  },

  dropIndex(name: string): string {
    return `DROP INDEX IF EXISTS ${name}`;
  },

  rowCountTriggers(table: string, counters: string, column: string): CountTriggers {
    // One process writes at a time: one counter row has no one to wait for.
    const step = (event: 'INSERT' | 'DELETE', delta: string, name: string) =>
      `CREATE TRIGGER ${name} AFTER ${event} ON ${table} BEGIN UPDATE ${counters} SET ${column} = ${column} ${delta} WHERE shard = 0; END`;
    return {
      create: [step('INSERT', '+ 1', `${table}_counted`), step('DELETE', '- 1', `${table}_uncounted`)],
      drop: [`DROP TRIGGER IF EXISTS ${table}_counted`, `DROP TRIGGER IF EXISTS ${table}_uncounted`],
      shards: 1,
    };
  },
};
