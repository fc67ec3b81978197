import knexFactory, { type Knex } from 'knex';
import type { Connections, PoolOptions, Pools } from '../../contract/driver.js';
import type { VersionRow } from '../../contract/events.js';
import { textRuns } from '../../document-text.js';
import { knexLog } from '../../knex-log.js';
import { insertIfOn, replaceIfOn, storeVersionsOn, type Replacement } from './history.js';
import { PostgresKeyReader } from './key-reader.js';
import { streamRows } from './stream.js';
import { MergedWrites, onConnection } from './merged-writes.js';
import { PostgresReadLease } from './read-lease.js';
import { PostgresStandbys } from './read-routing.js';
import { ACQUIRE_TIMEOUT_MS, postgresSettings, standbyName, type PostgresSettings } from './settings.js';
import { StandbyReads } from './standbys.js';
import type { Logger } from '../../../log.js';

const INT8_OID = 20;

/** The counts of knex's pool (tarn) that /metrics reports. */
interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

/** The parts of a `pg` client the pool hook uses. */
interface PgClient {
  setTypeParser(oid: number, format: 'text', parse: (text: string) => unknown): void;
  query(sql: string): Promise<unknown>;
}

/**
 * bigint columns (`ts`, µs since the epoch, about 2^51 today) as numbers. A value beyond 2^53
 * stays text, so no digit is ever silently lost.
 */
function parseInt8(text: string): number | string {
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : text;
}

/** A knex of `pg` connections to one server, as every pool of this dialect is made. */
function pgKnex(settings: PostgresSettings, poolMax: number, logger: Logger | undefined): Knex {
  const { schema, connection } = settings;
  return knexFactory({
    client: 'pg',
    connection,
    ...(schema !== undefined ? { searchPath: [schema] } : {}),
    acquireConnectionTimeout: ACQUIRE_TIMEOUT_MS,
    pool: {
      // Idle connections close after the pool's idle timeout; after an outage none is kept stale.
      min: 0,
      max: poolMax,
      afterCreate(client: PgClient, done: (error: Error | null, client: PgClient) => void) {
        // Per connection rather than pg's global type table: pg-query-stream's cursors use it too.
        client.setTypeParser(INT8_OID, 'text', parseInt8);
        // No JIT compilation: topocat's statements are short, and the planner's cost estimates
        // of a set-returning function (the manifests' trigger) or a list at an instant passed
        // jit_above_cost, so PostgreSQL compiled code for them on every run: a POST of 1,499
        // nodes took 69 s with JIT and 0.24 s without (scratch, 2026-11-26). A SET, not the
        // `options` startup parameter, which PgBouncer refuses by default.
        client.query('SET jit = off').then(
          () => done(null, client),
          (error: Error) => done(error, client),
        );
      },
    },
    ...knexLog(logger),
  });
}

/**
 * One pool of `pg` connections for everything: PostgreSQL handles concurrent writers itself, so
 * each write is a transaction of its own on a pooled connection.
 */
export class PostgresConnections implements Connections {
  /** Any number of servers may share one database. */
  readonly aloneMeansSoleWriter = false;

  /** @param lockPrefix the start of the advisory lock keys (PostgresLocking.keyPrefix), which compare-and-set writes take without waiting. */
  constructor(
    private readonly settings: PostgresSettings,
    private readonly lockPrefix: string,
  ) {}

  open({ poolMax, logger, standbys }: PoolOptions): Pools {
    const knex = pgKnex(this.settings, poolMax, logger);
    const routing = standbys && standbys.urls.length > 0 ? this.standbyReads(knex, standbys.urls, standbys.waitMs, poolMax, logger) : undefined;
    const reader = routing?.routing.reader ?? knex;
    // New resources, and compare-and-set writes of live ones, from requests that arrive together: one statement each.
    const appends = new MergedWrites(knex, storeVersionsOn);
    const lockPrefix = this.lockPrefix;
    const replacements = new MergedWrites(knex, (connection, items: readonly Replacement[]) => replaceIfOn(connection, lockPrefix, items));
    const key = (v: VersionRow): string => `${v.kind}/${v.id}`;
    const lease = new PostgresReadLease(this.settings);
    return {
      reader,
      writer: knex,
      keys: new PostgresKeyReader(reader),
      write: (job) => knex.transaction(job),
      append: (versions) => appends.submit(versions, versions.map(key)),
      replaceIf: async (version, expected) => (await replacements.submit([{ ...version, expected }], [key(version)]))[0],
      insertIf: (versions) => onConnection(knex, (connection) => insertIfOn(connection, lockPrefix, versions)),
      lease,
      stream: (query) => streamRows(query),
      streamTexts: (query, run) => textRuns(streamRows(query), run),
      ...(routing ? { standbys: routing.routing } : {}),
      gauges: () => {
        const pool = (knex.client as { pool?: TarnPool }).pool;
        return {
          ...(pool ? { pool: { used: pool.numUsed(), idle: pool.numFree(), waiting: pool.numPendingAcquires() } } : {}),
          ...(routing ? { standbys: routing.routing.states() } : {}),
        };
      },
      async close() {
        await appends.idle();
        await replacements.idle();
        await lease.close();
        await Promise.all((routing?.pools ?? []).map((pool) => pool.destroy()));
        if (routing) await reader.destroy();
        await knex.destroy();
      },
    };
  }

  /**
   * DATABASE_READ_URLS: a pool per standby (as large as the primary's: it takes the reads the
   * primary would), and the routing of reads among them (read-routing.ts). A standby URL without
   * `?schema=` reads the primary's schema: it is a copy of the primary.
   */
  private standbyReads(primary: Knex, urls: readonly string[], waitMs: number, poolMax: number, logger: Logger | undefined): { routing: PostgresStandbys; pools: Knex[] } {
    const pools = urls.map((url) => {
      const settings = postgresSettings(url);
      return { name: standbyName(settings), knex: pgKnex({ ...settings, schema: settings.schema ?? this.settings.schema }, poolMax, logger) };
    });
    const reads = new StandbyReads(primary, pools, waitMs, logger);
    return { routing: new PostgresStandbys(primary, reads), pools: pools.map((pool) => pool.knex) };
  }
}
