import type { Knex } from 'knex';
import QueryStream from 'pg-query-stream';
import type { Row } from '../../contract/rows.js';

/** Rows per round trip of the portal behind a streamed list. */
const STREAM_BATCH = 200;

/** The knex client a query was built with, as far as a stream borrows a connection of it (the routed reader's too: read-routing.ts). */
interface Pool {
  acquireConnection(): Promise<StreamConnection>;
  releaseConnection(connection: StreamConnection): Promise<unknown>;
  standbyFailed?(connection: StreamConnection, error: unknown): boolean;
}

interface StreamConnection {
  query(stream: QueryStream): QueryStream;
}

/**
 * Rows of `query` through a portal (pg-query-stream) that fetches STREAM_BATCH rows at a time,
 * the next batch only once the consumer has taken the last, on a connection of the client the
 * query was built with, taken on first read (a list never read holds none) and given back once.
 * Not knex's `stream()`, which gives its connection back twice (when the query ends and when its
 * stream closes): between the two another read could take the connection, and the second
 * release handed it to a third while the second used it (pg: "Calling client.query() when the
 * client is already executing a query"), seen with reads routed to a standby. A read routed to
 * a standby that fails before its first row reads again where the routing then sends it.
 */
export async function* streamRows(query: Knex.QueryBuilder): AsyncIterable<Row> {
  const { sql, bindings } = query.toSQL().toNative();
  const pool = (query as unknown as { client: Pool }).client;
  let connection: StreamConnection | undefined = await pool.acquireConnection();
  try {
    for (;;) {
      const rows = connection.query(new QueryStream(sql, bindings as unknown[], { batchSize: STREAM_BATCH, highWaterMark: STREAM_BATCH }));
      let yielded = false;
      try {
        for await (const row of rows) {
          yielded = true;
          yield row as Row;
        }
        return;
      } catch (error) {
        // The connection is not given to another read: a portal that failed may leave it out of
        // step with its server (knex's pool drops a connection so marked when it is next taken).
        (connection as { __knex__disposed?: unknown }).__knex__disposed = error;
        if (yielded || !pool.standbyFailed?.(connection, error)) throw error;
      } finally {
        rows.destroy();
      }
      const failed: StreamConnection = connection;
      connection = undefined;
      await pool.releaseConnection(failed);
      connection = await pool.acquireConnection();
    }
  } finally {
    if (connection) await pool.releaseConnection(connection);
  }
}
