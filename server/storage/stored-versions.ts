import type { Uses } from './contract/database.js';
import { classifiedItems } from './errors.js';

/** What storedVersions uses of the database. */
export type StoredVersionsDatabase = Uses<'reader' | 'stream', { sql: 'columns'; driver: 'errors' }>;

const HISTORY = 'resource_history';

/** One stored version as the history holds it: a document's text, or a deletion (a tombstone). */
export interface StoredVersion {
  readonly id: string;
  /** Microseconds. */
  readonly ts: number;
  /** The stored document's JSON text (as documentText reads it); null for a deletion at `ts`. */
  readonly doc: string | null;
}

/**
 * Every version of every resource of one kind, deletions included, in (id, ts) order: the whole
 * history as the export writes it (docs/moving-from-unis.md, "Export back to UNIS"). Streamed
 * (Pools.stream: a cursor on PostgreSQL, a reader thread stepping in batches on SQLite) along
 * the primary key (kind, id, ts), so a history of any size is read in constant memory and
 * without a sort. The stream is no snapshot across kinds: writes that land meanwhile may or may
 * not be in it.
 */
export function storedVersions(db: StoredVersionsDatabase, kind: string): AsyncIterable<StoredVersion> {
  const knex = db.reader;
  const builder = knex(HISTORY).select('id', 'ts', 'deleted', db.dialect.sql.columns.documentText(knex, 'doc')).where({ kind }).orderBy([{ column: 'id' }, { column: 'ts' }]);
  const rows = db.stream(builder);
  return classifiedItems(db.dialect.driver.errors, {
    async *[Symbol.asyncIterator]() {
      for await (const row of rows) {
        const deleted = isTrue(row.deleted) || row.doc === null || row.doc === undefined;
        yield { id: String(row.id), ts: Number(row.ts), doc: deleted ? null : String(row.doc) };
      }
    },
  });
}

/** A boolean column as each engine returns it (SQLite: 0/1). */
function isTrue(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 't';
}
