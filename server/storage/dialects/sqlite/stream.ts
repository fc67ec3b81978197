import type BetterSqlite3 from 'better-sqlite3';
import type { Knex } from 'knex';
import type { Row } from '../../dialect.js';
import { Pacer } from '../../pace.js';

/** Rows stepped between two looks at the clock: a row costs a few microseconds. */
const ROWS_PER_LOOK = 64;

/** knex's connection pool, as far as a stream borrows from it. */
interface Pool {
  acquireConnection(): Promise<BetterSqlite3.Database>;
  releaseConnection(connection: BetterSqlite3.Database): Promise<unknown>;
}

/** better-sqlite3 binds numbers, strings, bigints, buffers and null; knex's own queries convert the rest alike. */
function bindable(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.valueOf();
  return value;
}

/**
 * Rows of `query`, stepped on a pooled reader connection that the stream holds until it ends
 * (better-sqlite3 runs no other statement on a connection while one iterates). Stepping is
 * synchronous, so the stream gives the event loop a turn whenever it has stepped for a slice of
 * time (see Pacer); between turns, back-pressure is the consumer's: a row is stepped only when
 * asked for.
 */
export async function* streamRows(reader: Knex, query: Knex.QueryBuilder): AsyncIterable<Row> {
  const { sql, bindings } = query.toSQL().toNative();
  const pool = reader.client as Pool;
  const connection = await pool.acquireConnection();
  try {
    const rows = connection.prepare(sql).iterate(...(bindings as unknown[]).map(bindable)) as IterableIterator<Row>;
    const pacer = new Pacer(ROWS_PER_LOOK);
    try {
      for (const row of rows) {
        yield row;
        if (pacer.due()) await pacer.turn();
      }
    } finally {
      // Ends the statement (and its read transaction) when the consumer stops early.
      rows.return?.();
    }
  } finally {
    await pool.releaseConnection(connection);
  }
}
