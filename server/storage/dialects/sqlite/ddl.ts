import type { CountTriggers, SchemaSql } from '../../contract/sql.js';
import { jsonPath } from './sql.js';

export const sqliteDdl: SchemaSql = {
  documentType: 'text',

  keyType(length: number): string {
    // SQLite compares text with the BINARY collation unless told otherwise.
    return `varchar(${length})`;
  },

  // SQLite keeps the declared length as a name only: any text fits.
  widenKey(): undefined {
    return undefined;
  },

  createExpressionIndex(name: string, table: string, column: string, segments: readonly string[], then: readonly string[]): string {
    // Partial: a document without the field has no entry, so a write of a kind that lacks most
    // x-index fields (a node has three of the six) updates only the indexes of its own fields.
    // A query's comparison on the field implies it is not null, so the planner still uses it.
    const field = `json_extract(${column}, ${jsonPath(segments)})`;
    return `CREATE INDEX IF NOT EXISTS ${name} ON ${table} (${['kind', field, ...then].join(', ')}) WHERE ${field} IS NOT NULL`;
  },

  dropIndex(name: string): string {
    return `DROP INDEX IF EXISTS ${name}`;
  },

  keyOnlyTable: ' WITHOUT ROWID',

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
