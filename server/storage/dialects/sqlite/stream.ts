import type { Knex } from 'knex';
import type { Row } from '../../contract/rows.js';
import type { WorkerConnection } from './read-client.js';
import type { TextRun } from '../../contract/rows.js';

/** knex's connection pool, as far as a stream borrows from it. */
interface Pool {
  acquireConnection(): Promise<WorkerConnection>;
  releaseConnection(connection: WorkerConnection): Promise<unknown>;
}

/** better-sqlite3 binds numbers, strings, bigints, buffers and null; knex's own queries convert the rest alike. */
function bindable(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.valueOf();
  return value;
}

/**
 * Rows of `query`, stepped on a pooled reader connection's thread that the stream holds until it
 * ends. The thread steps a batch at a time, the next only once this one is used up, so a
 * consumer that stops reading stops the stepping, and a huge result never sits in memory.
 */
export function streamRows(reader: Knex, query: Knex.QueryBuilder): AsyncIterable<Row> {
  return onReader(reader, query, (connection, sql, bindings) => connection.iterate(sql, bindings));
}

/** The same, rendered on the reader's thread into runs of JSON texts (see TextRun). */
export function streamTexts(reader: Knex, query: Knex.QueryBuilder, run: TextRun): AsyncIterable<string> {
  return onReader(reader, query, (connection, sql, bindings) => connection.iterateText(sql, bindings, run));
}

async function* onReader<T>(reader: Knex, query: Knex.QueryBuilder, iterate: (connection: WorkerConnection, sql: string, bindings: readonly unknown[]) => AsyncIterable<T>): AsyncIterable<T> {
  const { sql, bindings } = query.toSQL().toNative();
  const pool = reader.client as Pool;
  const connection = await pool.acquireConnection();
  try {
    yield* iterate(connection, sql, (bindings as unknown[]).map(bindable));
  } finally {
    await pool.releaseConnection(connection);
  }
}
