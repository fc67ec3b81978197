import type { Uses } from './contract/database.js';

/** What currentDocuments uses of the database. */
export type CurrentDocumentsDatabase = Uses<'reader', { sql: 'columns' }>;

/** One live resource as stored: its kind (the collection), id and document (JSON text). */
export interface StoredDocument {
  readonly kind: string;
  readonly id: string;
  readonly doc: string;
}

/**
 * Every live resource of every kind, in (kind, id) order, read in batches of `batchSize` by key
 * (each batch one short query that starts after the last key of the one before). Memory stays
 * bounded by one batch however large the database, and no read transaction stays open between
 * batches: SQLite can checkpoint its WAL and PostgreSQL can vacuum while a scan of millions of
 * rows goes on. Writes made meanwhile are seen or not depending on where the scan is.
 */
export async function* currentDocuments(db: CurrentDocumentsDatabase, batchSize: number, signal?: AbortSignal): AsyncGenerator<StoredDocument[]> {
  let after: { kind: string; id: string } | undefined;
  for (;;) {
    if (signal?.aborted) return;
    const query = db.reader('resource_current').select('kind', 'id', db.dialect.sql.columns.documentText(db.reader, 'doc')).orderBy([{ column: 'kind' }, { column: 'id' }]).limit(batchSize);
    // A row-value comparison, which both engines answer from the primary key (kind, id).
    if (after) query.whereRaw('(kind, id) > (?, ?)', [after.kind, after.id]);
    const rows = (await query) as StoredDocument[];
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < batchSize) return;
    const last = rows.at(-1)!;
    after = { kind: last.kind, id: last.id };
  }
}
