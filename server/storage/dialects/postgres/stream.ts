import type { Knex } from 'knex';
import QueryStream from 'pg-query-stream';
import type { Row } from '../../contract/rows.js';
import { postgresErrors } from './errors.js';
import type { ReadPool } from './read-pool.js';

/** Rows per round trip of the portal behind a streamed list. */
const STREAM_BATCH = 200;
/**
 * Tries of a stream whose connection failed before its first row: a standby that terminates its
 * sessions ends the pooled ones at once, and the next taken may be one of them, its end not yet
 * noticed.
 */
const ATTEMPTS = 3;

interface StreamConnection {
  query(stream: QueryStream): QueryStream;
  on(event: 'error' | 'end', listener: (error?: Error) => void): unknown;
  off(event: 'error' | 'end', listener: (error?: Error) => void): unknown;
}

/**
 * Rows of `query` through a portal (pg-query-stream) that fetches STREAM_BATCH rows at a time,
 * the next batch only once the consumer has taken the last, on a connection of the client the
 * query was built with, taken on first read (a list never read holds none) and given back once.
 * Not knex's `stream()`, which gives its connection back twice (when the query ends and when its
 * stream closes): between the two another read could take the connection, and the second
 * release handed it to a third while the second used it (pg: "Calling client.query() when the
 * client is already executing a query"), seen with reads routed to a standby. A read that fails
 * before its first row because its standby failed or its connection was ended reads again (up
 * to ATTEMPTS in all) where the routing then sends it.
 */
export async function* streamRows(query: Knex.QueryBuilder): AsyncIterable<Row> {
  const { sql, bindings } = query.toSQL().toNative();
  const pool = (query as unknown as { client: ReadPool<StreamConnection> }).client;
  let connection: StreamConnection | undefined = await pool.acquireConnection();
  try {
    for (let attempt = 0; ; attempt++) {
      const rows = connection.query(new QueryStream(sql, bindings as unknown[], { batchSize: STREAM_BATCH, highWaterMark: STREAM_BATCH }));
      // A connection that ends under the stream (pg's `error` and `end` events) fails it at once.
      // Not through destroy(): the stream's destroy waits for its portal's close to be answered,
      // which a dead connection never does, and the iteration waited for rows forever, holding
      // the connection (seen when a standby terminated sessions for conflicts with recovery).
      // The error event ends the iteration; the connection is dropped below.
      const lost = (error?: Error): void => void rows.emit('error', error ?? new Error('the connection ended'));
      connection.on('error', lost);
      connection.on('end', lost);
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
        // Nothing sent yet: a standby's failure, or a connection its server ended (a pooled
        // connection of a server that restarted, a session a standby terminated), reads again.
        const standbyFailed = pool.standbyFailed?.(connection, error) ?? false;
        if (yielded || attempt >= ATTEMPTS - 1 || !(standbyFailed || postgresErrors.isUnavailable(error))) throw error;
      } finally {
        connection.off('error', lost);
        connection.off('end', lost);
        try {
          rows.destroy();
        } catch (error) {
          // Closing the portal on a connection the server ended (a standby's conflict with
          // recovery terminates such sessions) throws EPIPE: what was read stands, and the
          // connection is dropped.
          (connection as { __knex__disposed?: unknown }).__knex__disposed = error;
        }
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
