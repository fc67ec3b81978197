import knexFactory, { type Knex } from 'knex';
import type { Connections, PoolOptions, Pools } from '../../contract/driver.js';
import type { Insertion } from '../../contract/events.js';
import { textRuns } from '../../document-text.js';
import { knexLog } from '../../knex-log.js';
import { insertIfOn, replaceIfOn, storeVersionsOn, type Replacement } from './version-writes.js';
import { PostgresKeyReader } from './key-reader.js';
import { streamRows } from './stream.js';
import { MergedWrites, onConnection, unconfirmedCommit } from './merged-writes.js';
import { PostgresReadLease } from './read-lease.js';
import { PostgresStandbys } from './standbys.js';
import { ACQUIRE_TIMEOUT_MS, postgresSettings, standbyName, type PostgresSettings } from './settings.js';
import { StandbyReads } from './standby-reads.js';
import { NotWritable, type WritableHost } from './primary.js';
import type { Logger } from '../../../log.js';

const INT8_OID = 20;

/** The counts of knex's pool (tarn) that /metrics reports. */
interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

/** The parts of a `pg` client the pool hooks use. */
interface PgClient {
  setTypeParser(oid: number, format: 'text', parse: (text: string) => unknown): void;
  query(sql: string): Promise<unknown>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * bigint columns (`ts`, µs since the epoch, about 2^51 today) as numbers. A value beyond 2^53
 * stays text, so no digit is ever silently lost.
 */
function parseInt8(text: string): number | string {
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : text;
}

/**
 * No JIT compilation: topocat's statements are short, and the planner's cost estimates of a
 * set-returning function (the manifests' trigger) or a list at an instant passed jit_above_cost,
 * so PostgreSQL compiled code for them on every run: a POST of 1,499 nodes took 69 s with JIT and
 * 0.24 s without (scratch, 2026-11-26). A SET, not the `options` startup parameter, which
 * PgBouncer refuses by default.
 */
const SESSION_SETUP = 'SET jit = off';
/**
 * A connection to the primary also asks, in the same round trip, whether its host takes writes:
 * behind a proxy, or just after a failover, a new connection may reach a standby, and is then
 * given up at once (503) instead of failing each write with 25006.
 */
const PRIMARY_SETUP = `${SESSION_SETUP}; SELECT pg_is_in_recovery() AS recovery, current_setting('transaction_read_only') AS read_only`;

/** The primary's connections: each made by `primary`, and given up when it moves (its epoch). */
const epochs = new WeakMap<object, number>();

/**
 * A knex of `pg` connections, as every pool of this dialect is made: to the primary through its
 * provider (`primary`), or to one standby (`connection`).
 */
function pgKnex(settings: PostgresSettings, poolMax: number, logger: Logger | undefined, primary?: WritableHost): Knex {
  const { schema, connection } = settings;
  return knexFactory({
    client: 'pg',
    connection: primary ? primary.connection : connection,
    ...(schema !== undefined ? { searchPath: [schema] } : {}),
    acquireConnectionTimeout: ACQUIRE_TIMEOUT_MS,
    pool: {
      // Idle connections close after the pool's idle timeout; after an outage none is kept stale.
      min: 0,
      max: poolMax,
      afterCreate(client: PgClient, done: (error: Error | null, client: PgClient) => void) {
        // Per connection rather than pg's global type table: pg-query-stream's cursors use it too.
        client.setTypeParser(INT8_OID, 'text', parseInt8);
        if (!primary) {
          client.query(SESSION_SETUP).then(
            () => done(null, client),
            (error: Error) => done(error, client),
          );
          return;
        }
        const epoch = primary.epoch;
        // A connection that fails later (the server shut down, the host lost) says so to the provider.
        client.on('error', (error) => primary.failed(error));
        client.query(PRIMARY_SETUP).then(
          (results) => {
            const row = (results as { rows: { recovery?: boolean; read_only?: string }[] }[])[1]?.rows[0];
            if (row?.recovery || row?.read_only === 'on') {
              const error = new NotWritable('the database', row.recovery ? 'in recovery (a standby)' : 'read-only');
              primary.failed(error);
              done(error, client);
              return;
            }
            epochs.set(client, epoch);
            done(null, client);
          },
          (error: Error) => {
            primary.failed(error);
            done(error, client);
          },
        );
      },
      // A pooled connection made before the primary moved is given up rather than used.
      ...(primary ? { validate: (client: object) => primary.usable(epochs.get(client) ?? -1) } : {}),
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
    private readonly primary: WritableHost,
  ) {}

  open({ poolMax, logger, standbys }: PoolOptions): Pools {
    this.primary.useLogger(logger);
    const primary = this.primary;
    const knex = pgKnex(this.settings, poolMax, logger, primary);
    // Every statement of knex's that fails tells the provider (a failure, or a read-only answer).
    knex.on('query-error', (error: unknown) => primary.failed(error));
    /** `work`, whose failure (a write's, a read's of the primary) tells the provider. */
    const watched = async <T>(work: () => Promise<T>): Promise<T> => {
      try {
        return await work();
      } catch (error) {
        primary.failed(error);
        throw error;
      }
    };
    /**
     * Writes whose commit could not be confirmed (rest-contract §16): named in the log with their
     * ids, so that their fate can be learnt (a retry with the same id and If-None-Match: *).
     */
    const unconfirmed = (ids: readonly string[] | undefined, error: unknown): void =>
      logger?.warn(
        { ...(ids ? { ids } : {}), err: error instanceof Error ? error.message : String(error) },
        'database: the connection was lost after a write was sent: its commit could not be confirmed, and it may be stored (a retry with the same id and If-None-Match: * learns its fate)',
      );
    const routing = standbys && standbys.urls.length > 0 ? this.standbyReads(knex, standbys.urls, standbys.waitMs, poolMax, logger) : undefined;
    const reader = routing?.routing.reader ?? knex;
    // New resources, and compare-and-set writes of live ones, from requests that arrive together: one statement each.
    const key = (v: { readonly kind: string; readonly id: string }): string => `${v.kind}/${v.id}`;
    const appends = new MergedWrites(knex, storeVersionsOn, (items, error) => unconfirmed(items.map(key), error));
    const lockPrefix = this.lockPrefix;
    const replacements = new MergedWrites(knex, (connection, items: readonly Replacement[]) => replaceIfOn(connection, lockPrefix, items), (items, error) => unconfirmed(items.map(key), error));
    /** A transaction of `job`: a failure once `job` is done (at its COMMIT) leaves the commit unknown, logged with what it wrote. */
    const transaction = async <T>(job: (trx: Knex.Transaction) => Promise<T>, written?: () => readonly string[]): Promise<T> => {
      let committing = false;
      try {
        return await knex.transaction(async (trx) => {
          const result = await job(trx);
          committing = true;
          return result;
        });
      } catch (error) {
        if (committing && unconfirmedCommit(error)) unconfirmed(written?.(), error);
        throw error;
      }
    };
    /** insertIf's statement, whose loss once sent leaves its commit unknown. */
    const insertIf = async (versions: readonly Insertion[]): Promise<Awaited<ReturnType<typeof insertIfOn>>> => {
      let sent = false;
      try {
        return await onConnection(knex, (connection) => {
          sent = true;
          return insertIfOn(connection, lockPrefix, versions);
        });
      } catch (error) {
        if (sent && unconfirmedCommit(error)) unconfirmed(versions.map(key), error);
        throw error;
      }
    };
    const lease = new PostgresReadLease(this.settings, primary);
    return {
      reader,
      writer: knex,
      keys: new PostgresKeyReader(reader),
      write: (job, written) => watched(() => transaction(job, written)),
      append: (versions) => watched(() => appends.submit(versions, versions.map(key))),
      compareAndSet: {
        replaceIf: async (version, expected) => (await watched(() => replacements.submit([{ ...version, expected }], [key(version)])))[0],
        insertIf: (versions) => watched(() => insertIf(versions)),
      },
      lease,
      stream: (query) => streamRows(query),
      streamTexts: (query, run) => textRuns(streamRows(query), run),
      ...(routing ? { standbys: routing.routing } : {}),
      gauges: () => {
        const pool = (knex.client as { pool?: TarnPool }).pool;
        return {
          ...(pool ? { pool: { used: pool.numUsed(), idle: pool.numFree(), waiting: pool.numPendingAcquires() } } : {}),
          ...(routing ? { standbys: routing.routing.states() } : {}),
          primary: primary.state(),
        };
      },
      writable: () => watched(() => primary.check()),
      async close() {
        await appends.idle();
        await replacements.idle();
        await lease.close();
        await Promise.all((routing?.pools ?? []).map((pool) => pool.destroy()));
        if (routing) await reader.destroy();
        await knex.destroy();
        primary.close();
      },
    };
  }

  /**
   * DATABASE_READ_URLS: a pool per standby (as large as the primary's: it takes the reads the
   * primary would), and the routing of reads among them (standbys.ts). A standby URL without
   * `?schema=` reads the primary's schema: it is a copy of the primary.
   */
  private standbyReads(primary: Knex, urls: readonly string[], waitMs: number, poolMax: number, logger: Logger | undefined): { routing: PostgresStandbys; pools: Knex[] } {
    const pools = urls.map((url) => {
      const settings = postgresSettings(url, 'DATABASE_READ_URLS');
      return { name: standbyName(settings), knex: pgKnex({ ...settings, schema: settings.schema ?? this.settings.schema }, poolMax, logger) };
    });
    const reads = new StandbyReads(primary, pools, waitMs, logger);
    return { routing: new PostgresStandbys(primary, reads), pools: pools.map((pool) => pool.knex) };
  }
}
