import type { Knex } from 'knex';
import type { Uses } from '../contract/database.js';
import { classified } from '../errors.js';

/** What the result streams use of the database. */
export type ResultStreamsDatabase = Uses<'reader' | 'write', { driver: 'errors' }>;

/** STREAMING results (docs/catalog-operations.md "STREAMING delivery"): one row per result… */
export const RESULT_STREAMS = 'catalog_result_streams';
/** …and its document in pieces of at most CHUNK_CHARS characters, in order. */
export const RESULT_CHUNKS = 'catalog_result_chunks';

/**
 * Characters per stored piece: a GET holds one piece at a time and reads each with one query, so
 * a 10 MB document is about 160 reads. Not tuned: no measurement chose 64 Ki over another size.
 */
export const CHUNK_CHARS = 64 * 1024;

/** Migration step 0015: the stored STREAMING results. Portable DDL (the knex schema builder). */
export const resultStreamsMigration: Knex.Migration = {
  async up(knex) {
    await knex.schema.createTable(RESULT_STREAMS, (t) => {
      t.string('id', 64).primary();
      t.string('owner_dn', 1024).notNullable();
      t.string('operation', 64).notNullable();
      t.integer('chunks').notNullable();
      t.bigInteger('created_ms').notNullable();
      t.bigInteger('expires_ms').notNullable();
      t.index(['expires_ms'], 'catalog_result_streams_expires');
    });
    await knex.schema.createTable(RESULT_CHUNKS, (t) => {
      t.string('stream_id', 64).notNullable().references('id').inTable(RESULT_STREAMS).onDelete('CASCADE');
      t.integer('seq').notNullable();
      t.text('text').notNullable();
      t.primary(['stream_id', 'seq']);
    });
  },
  async down(knex) {
    await knex.schema.dropTable(RESULT_CHUNKS);
    await knex.schema.dropTable(RESULT_STREAMS);
  },
};

/** What is known of a stored result before its document is read. */
export interface ResultStreamRecord {
  readonly id: string;
  readonly ownerDn: string;
  readonly operation: string;
  readonly chunks: number;
  readonly expiresMs: number;
}

interface StreamRow {
  id: string;
  owner_dn: string;
  operation: string;
  chunks: number | string;
  expires_ms: number | string;
}

/** A stored result's document was swept while it was being read. */
export class ResultStreamGone extends Error {}

/** The stored STREAMING results: written whole in one transaction, read back piece by piece. */
export class ResultStreamStore {
  constructor(private readonly db: ResultStreamsDatabase) {}

  /**
   * Store `pieces` (already at most CHUNK_CHARS each) under `id`, and delete every result that
   * expired by `now`, in the same transaction: expired results never outlive the next one.
   */
  async save(record: Omit<ResultStreamRecord, 'chunks'>, pieces: readonly string[], now: number): Promise<void> {
    await this.guard(() =>
      this.db.write(async (trx) => {
        const expired = trx(RESULT_STREAMS).select('id').where('expires_ms', '<=', now);
        await trx(RESULT_CHUNKS).whereIn('stream_id', expired).delete();
        await trx(RESULT_STREAMS).where('expires_ms', '<=', now).delete();
        await trx(RESULT_STREAMS).insert({ id: record.id, owner_dn: record.ownerDn, operation: record.operation, chunks: pieces.length, created_ms: now, expires_ms: record.expiresMs });
        // One row per statement, so no statement carries more than one piece.
        for (const [seq, text] of pieces.entries()) await trx(RESULT_CHUNKS).insert({ stream_id: record.id, seq, text });
      }),
    );
  }

  async record(id: string): Promise<ResultStreamRecord | undefined> {
    const row = (await this.guard(() => this.db.reader(RESULT_STREAMS).select('id', 'owner_dn', 'operation', 'chunks', 'expires_ms').where('id', id).first())) as StreamRow | undefined;
    if (!row) return undefined;
    return { id: row.id, ownerDn: row.owner_dn, operation: row.operation, chunks: Number(row.chunks), expiresMs: Number(row.expires_ms) };
  }

  /** The document's pieces in order, one read each: never more than one piece in memory. */
  async *pieces(record: ResultStreamRecord): AsyncGenerator<string> {
    for (let seq = 0; seq < record.chunks; seq++) {
      const row = (await this.guard(() => this.db.reader(RESULT_CHUNKS).select('text').where({ stream_id: record.id, seq }).first())) as { text: string } | undefined;
      if (!row) throw new ResultStreamGone(`result ${record.id} was deleted while it was read`);
      yield row.text;
    }
  }

  /** Delete one result (an expired one met by a GET). */
  async delete(id: string): Promise<void> {
    await this.guard(() =>
      this.db.write(async (trx) => {
        await trx(RESULT_CHUNKS).where('stream_id', id).delete();
        await trx(RESULT_STREAMS).where('id', id).delete();
      }),
    );
  }

  private guard<T>(work: () => Promise<T>): Promise<T> {
    return classified(this.db.dialect.driver.errors, work);
  }
}
