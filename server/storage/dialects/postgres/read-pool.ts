/**
 * Where a read's connection comes from, and its one retry: the key reader, streams and the routed
 * reader's statements all take their connections through a ReadPool and run through
 * readAgainAround, so a read that meets its standby's failure runs once more where the routing
 * then sends it (standbys.ts).
 */

/**
 * A knex client as the reads that take connections themselves use it (the key reader, streams):
 * `standbyFailed` is the routed reader's, absent on the primary's own client.
 */
export interface ReadPool<C> {
  acquireConnection(): Promise<C>;
  releaseConnection(connection: C): Promise<unknown>;
  /** True when `error`, met on `connection`, was its standby's failure: it is then read around, and the read can run again elsewhere. */
  standbyFailed?(connection: C, error: unknown): boolean;
}

/**
 * `run` on a connection of `pool`, given back after. A read that fails for its standby's sake
 * (ReadPool.standbyFailed) runs once more, on the connection the routing then gives. `taken`: a
 * connection the caller took already and gives back itself (knex's, in the routed client).
 */
export async function readAgainAround<C, T>(pool: ReadPool<C>, run: (connection: C) => Promise<T>, taken?: C): Promise<T> {
  const connection = taken ?? (await pool.acquireConnection());
  try {
    return await run(connection);
  } catch (error) {
    if (!pool.standbyFailed?.(connection, error)) throw error;
  } finally {
    if (taken === undefined) await pool.releaseConnection(connection);
  }
  const again = await pool.acquireConnection();
  try {
    return await run(again);
  } finally {
    await pool.releaseConnection(again);
  }
}
