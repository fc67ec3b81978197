import { AsyncLocalStorage } from 'node:async_hooks';
import type { Knex } from 'knex';
import type { Standbys, StandbyState } from '../../contract/standbys.js';
import { Coalesced } from '../../coalesced.js';
import { postgresErrors } from './errors.js';
import { postgresHistory } from './history.js';
import { routedKnex, type ConnectionSource, type PoolClient } from './routed-client.js';
import type { StandbyReads } from './standby-reads.js';
import { COVERING_POSITION, formatLsn, parseLsn } from './wal-position.js';

/**
 * How the reads of a request reach a standby (rest-contract §15): the request runs in a read
 * context (AsyncLocalStorage) that says it may be served by a standby, and the reader's knex,
 * whose client takes its connections from the primary's pool or a standby's, asks the context
 * at each connection it takes. So the stores' reads (lists, key reads, the catalog's read
 * transactions) are routed without a parameter through every store; a read outside a context
 * (every write, and what runs at start or on a timer) goes to the primary.
 */

/**
 * What a read context holds: the position its reads must find replayed (the client's consistency
 * token, raised by atLeast), or that its reads stay on the primary.
 */
type ReadContext = { token: bigint | undefined; readonly fromToken: boolean } | typeof PRIMARY;
const PRIMARY = Symbol('primary');

/** SQLSTATE 40001 on a standby: a read cancelled for a conflict with recovery (the primary vacuumed what it read). */
const RECOVERY_CONFLICT = '40001';

/** The read routing of one process: a Standbys for the stores, and the reader's knex that follows it. */
export class PostgresStandbys implements Standbys, ConnectionSource {
  private readonly context = new AsyncLocalStorage<ReadContext>();
  /** The standby each connection taken by the routed client came from (absent: the primary's). */
  private readonly origins = new WeakMap<object, { client: PoolClient; standby: string | undefined }>();
  private readonly horizons: Coalesced<{ horizon: number; lsn: bigint }>;
  /** The reader: a knex whose connections come from where the read context says. */
  readonly reader: Knex;

  constructor(
    private readonly primary: Knex,
    private readonly reads: StandbyReads,
  ) {
    this.reader = routedKnex(primary, this);
    // The horizon and the position in one statement: every transaction below the horizon had
    // ended when the statement's snapshot was taken, so its commit was in the WAL (and flushed,
    // where commits wait for their flush) before the position read after it.
    const sql = `SELECT h.k, (${COVERING_POSITION})::text AS lsn FROM (${postgresHistory.horizon}) h`;
    this.horizons = new Coalesced(async () => {
      const row = (await primary.raw(sql)).rows[0] as { k: number | string; lsn: string };
      return { horizon: Number(row.k), lsn: parseLsn(row.lsn)! };
    });
  }

  reading<T>(token: string | undefined, work: () => T): T {
    const position = parseLsn(token);
    return this.context.run({ token: position, fromToken: position !== undefined }, work);
  }

  onPrimary<T>(work: () => T): T {
    return this.context.run(PRIMARY, work);
  }

  fromToken(): boolean {
    const context = this.context.getStore();
    return context !== undefined && context !== PRIMARY && context.fromToken;
  }

  async token(): Promise<string> {
    return formatLsn(await this.reads.primaryPosition());
  }

  atLeast(token: string): void {
    const context = this.context.getStore();
    const position = parseLsn(token);
    if (context === undefined || context === PRIMARY || position === undefined) return;
    if (context.token === undefined || context.token < position) context.token = position;
  }

  async belowHorizon<T>(read: (horizon: number) => Promise<T>): Promise<T> {
    const { horizon, lsn } = await this.onPrimary(() => this.horizons.get());
    return this.context.run({ token: lsn, fromToken: false }, () => read(horizon));
  }

  states(): readonly StandbyState[] {
    return this.reads.states();
  }

  /** A connection for a read that begins now: the primary's, or a standby's where the read context allows. */
  async take(): Promise<object> {
    const context = this.context.getStore();
    if (context === undefined || context === PRIMARY) return this.takeFrom(this.primary.client as PoolClient, undefined);
    const route = await this.reads.route(context.token);
    if (route.standby === undefined) return this.takeFrom(this.primary.client as PoolClient, undefined);
    try {
      return await this.takeFrom(route.knex.client as PoolClient, route.standby);
    } catch (error) {
      // The standby cannot be reached: read around it.
      this.reads.failed(route.standby, error, true);
      return this.takeFrom(this.primary.client as PoolClient, undefined);
    }
  }

  /** Give a connection of take() back to its pool. */
  async give(connection: object): Promise<void> {
    const origin = this.origins.get(connection);
    this.origins.delete(connection);
    await (origin?.client ?? (this.primary.client as PoolClient)).releaseConnection(connection);
  }

  /** True when `error`, met on `connection` of take(), was its standby's failure: it is then read around, and the read can run again. */
  standbyFailed(connection: object, error: unknown): boolean {
    const standby = this.origins.get(connection)?.standby;
    if (standby === undefined) return false;
    const down = postgresErrors.isUnavailable(error);
    if (!down && (error as { code?: unknown } | null)?.code !== RECOVERY_CONFLICT) return false;
    this.reads.failed(standby, error, down);
    return true;
  }

  private async takeFrom(client: PoolClient, standby: string | undefined): Promise<object> {
    const connection = await client.acquireConnection();
    this.origins.set(connection, { client, standby });
    return connection;
  }
}
