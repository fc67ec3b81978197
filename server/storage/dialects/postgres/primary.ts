import type { Knex } from 'knex';
import pg from 'pg';
import type { Logger } from '../../../log.js';
import type { PrimaryState } from '../../contract/gauges.js';
import { postgresErrors } from './errors.js';
import type { Host, HostList } from './hosts.js';
import { writesAllowed } from './hosts.js';

/**
 * How often the hosts are asked again while none takes writes: the first write after a new
 * primary takes writes is served at most this much later (the issue asks ≤ 1 s), and a request
 * that comes meanwhile is answered 503 at once from the last answer rather than waiting for one.
 */
const PROBE_MS = 200;
/** A probe of one host: connecting and one statement. Beyond it the host counts as unreachable. */
const PROBE_TIMEOUT_MS = 2_000;

/** SQLSTATE 25006, read_only_sql_transaction: what a standby (or a node being promoted) answers a write. */
export const READ_ONLY = '25006';
/** SQLSTATE 08001, sqlclient_unable_to_establish_sqlconnection: libpq's own when no host of the list will do. */
const NO_HOST = '08001';

/** The error of a host that does not take writes: classified unavailable (503) by its code, as PostgreSQL's own 25006. */
export class NotWritable extends Error {
  readonly code = READ_ONLY;
  constructor(host: string, why: string) {
    super(`${host} does not take writes (${why})`);
    this.name = 'NotWritable';
  }
}

/** The error while no host of DATABASE_URL takes writes (libpq's own SQLSTATE for it). */
export class NoWritableHost extends Error {
  readonly code = NO_HOST;
  constructor(readonly why: string) {
    super(`no host of DATABASE_URL takes writes: ${why}`);
    this.name = 'NoWritableHost';
  }
}

/** What one probe found of a host. */
type Probe = { readonly host: Host; readonly writable: true } | { readonly host: Host; readonly writable: false; readonly why: string };

/** The client settings every connection of the dialect shares (timeouts, keepalive, application_name). */
export interface ClientOptions {
  readonly connectionTimeoutMillis: number;
  readonly keepAlive: boolean;
  readonly keepAliveInitialDelayMillis: number;
  readonly application_name: string;
}

/** A knex connection configuration with its expiration check (knex's public seam for rotating settings). */
type ProvidedConnection = Knex.PgConnectionConfig & { expirationChecker(): boolean };

/**
 * Where every connection to the primary comes from (rest-contract §16; Kysely's
 * ConnectionProvider is the model): the host of DATABASE_URL that takes writes, found at start
 * and again whenever a connection fails or says it is read-only, and handed to every pool (as
 * knex's `connection` function, whose `expirationChecker` makes knex ask again), the LISTEN
 * connection, the read lease, the lock holder and the CLI commands. Handlers and stores never
 * learn that a failover happened: they see a write fail as unavailable (503) while no host takes
 * writes, and succeed once one does.
 *
 * One log line per change of state: lost (no host takes writes, with why), back (after how many
 * seconds, on which host), and a new primary (a failover seen). With one host and no
 * `target_session_attrs` the URL is used as it is, with no probe (a proxy or a virtual IP that
 * follows the primary), but its read-only answers and failures are tracked alike.
 */
export class WritableHost {
  private current: Host | undefined;
  /** Moves when the host that takes writes changes: connections of an older epoch are given up. */
  private epochValue = 0;
  /** A connection failed or said read-only: the hosts are asked again before the next connection. */
  private suspect = false;
  private finding: Promise<Host> | undefined;
  private lastProbe = -Infinity;
  private lastWhy = '';
  /** Since when no host takes writes (performance.now()), or undefined while one does. */
  private lostSince: number | undefined;
  private lostSeconds = 0;
  private failoverCount = 0;
  private timer: NodeJS.Timeout | undefined;
  private logger: Logger | undefined;
  private readonly probeHosts: boolean;
  /** The host last seen taking writes (kept while lost: a return elsewhere is a failover). */
  private lastPrimary: string | undefined;

  constructor(
    private readonly list: HostList,
    private readonly options: ClientOptions,
  ) {
    if (!writesAllowed(list.sessionAttrs)) throw new Error(`DATABASE_URL: target_session_attrs=${list.sessionAttrs!} never takes writes; name standbys in DATABASE_READ_URLS`);
    this.probeHosts = list.hosts.length > 1 || list.sessionAttrs !== undefined;
    if (!this.probeHosts) this.current = list.hosts[0];
  }

  /** Where the lines of changes of state go (the server's logger, once the pools open). */
  useLogger(logger: Logger | undefined): void {
    this.logger ??= logger;
  }

  get epoch(): number {
    return this.epochValue;
  }

  /** knex's `connection`: the settings of the host that takes writes, asked again once they expire. */
  readonly connection = async (): Promise<Knex.PgConnectionConfig | ProvidedConnection> => {
    const host = await this.host();
    // One host as it is: settings that never expire (knex then never asks again).
    if (!this.probeHosts) return { ...this.options, connectionString: host.url };
    const epoch = this.epochValue;
    // Expired once the primary moved, and while none takes writes: a new connection then fails
    // at once (NoWritableHost, 503) rather than after a connect timeout to a host that is gone.
    return { ...this.options, connectionString: host.url, expirationChecker: () => this.epochValue !== epoch || this.lostSince !== undefined };
  };

  /** A pg.Client's settings for a connection of its own (LISTEN, the read lease, the lock holder). */
  async clientConfig(): Promise<pg.ClientConfig> {
    return { ...this.options, connectionString: (await this.host()).url };
  }

  /** The single-host URL of the host that takes writes (pg_dump, and what names it). */
  async url(): Promise<string> {
    return (await this.host()).url;
  }

  /**
   * An error met on a connection to the primary: a failure or a read-only answer makes the
   * hosts be asked again (at most once per PROBE_MS); any other error says nothing of them.
   */
  failed(error: unknown): void {
    if (!isReadOnly(error) && !postgresErrors.isUnavailable(error)) return;
    if (error instanceof NoWritableHost) return;
    this.suspect = true;
    if (performance.now() - this.lastProbe >= PROBE_MS) void this.find().catch(() => undefined);
    else this.watch();
  }

  /** Whether a connection made at `epoch` may still be used (pool validation). */
  usable(epoch: number): boolean {
    return epoch === this.epochValue;
  }

  /** What /metrics and /health say: the host that takes writes, failovers seen, seconds without one. */
  state(): PrimaryState {
    const now = performance.now();
    const lostNow = this.lostSince === undefined ? 0 : (now - this.lostSince) / 1000;
    return {
      host: this.lostSince === undefined ? this.current?.name : undefined,
      writable: this.lostSince === undefined,
      failovers: this.failoverCount,
      secondsWithoutPrimary: this.lostSeconds + lostNow,
      ...(this.lostSince !== undefined ? { why: this.lastWhy, downSeconds: lostNow } : {}),
    };
  }

  /**
   * Readiness: resolves when a host takes writes, asked now (a probe of every host, or of the
   * one); throws NoWritableHost (unavailable) with why when none does.
   */
  async check(): Promise<void> {
    if (!this.probeHosts) {
      // One host as it is: ask it directly (a proxy may have sent this connection to a standby).
      const probe = await this.probe(this.list.hosts[0]!);
      if (probe.writable) this.found(probe.host);
      else {
        this.lost(probe.why);
        throw new NoWritableHost(probe.why);
      }
      return;
    }
    this.suspect = true;
    await this.find();
  }

  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The host that takes writes, found again first when a connection said it may have changed. */
  private async host(): Promise<Host> {
    if (!this.probeHosts) return this.current!;
    if (this.current !== undefined && !this.suspect && this.lostSince === undefined) return this.current;
    // While none takes writes, a request is answered from the last probe, not held for a new one.
    if (this.lostSince !== undefined && performance.now() - this.lastProbe < PROBE_MS) throw new NoWritableHost(this.lastWhy);
    return this.find();
  }

  /** Ask every host, once for every caller that comes meanwhile. */
  private find(): Promise<Host> {
    if (!this.probeHosts) {
      // One host: its state is learnt from the connections (failed) and check().
      return this.check().then(() => this.current!);
    }
    this.finding ??= (async () => {
      try {
        this.suspect = false;
        const probes = await firstWritable(this.list.hosts.map((host) => this.probe(host)));
        this.lastProbe = performance.now();
        const writable = probes.find((p) => p.writable);
        if (writable === undefined) {
          const why = probes.map((p) => `${p.host.name}: ${p.writable ? 'takes writes' : p.why}`).join('; ');
          this.lost(why);
          throw new NoWritableHost(why);
        }
        this.found(writable.host);
        return writable.host;
      } finally {
        this.finding = undefined;
      }
    })();
    return this.finding;
  }

  private found(host: Host): void {
    const previous = this.lastPrimary;
    const changed = previous !== undefined && previous !== host.name;
    if (this.current?.name !== host.name) this.epochValue++;
    this.current = host;
    this.lastPrimary = host.name;
    if (changed) this.failoverCount++;
    if (this.lostSince !== undefined) {
      const seconds = (performance.now() - this.lostSince) / 1000;
      this.lostSeconds += seconds;
      this.lostSince = undefined;
      clearTimeout(this.timer);
      this.timer = undefined;
      this.logger?.info(
        { primary: host.name, ...(changed ? { was: previous } : {}), seconds: Number(seconds.toFixed(3)) },
        changed ? 'database: a new primary takes writes (failover); writes are served again' : 'database: the primary takes writes again; writes are served again',
      );
    } else if (changed) {
      this.logger?.info({ primary: host.name, was: previous }, 'database: a new primary takes writes (switchover)');
    }
  }

  private lost(why: string): void {
    this.lastWhy = why;
    if (this.lostSince === undefined) {
      this.lostSince = performance.now();
      this.logger?.warn({ why, hosts: this.list.hosts.map((h) => h.name) }, 'database: no host takes writes; writes are answered 503 (Retry-After) until one does');
    }
    this.watch();
  }

  /** While none takes writes (or one is suspect), the hosts are asked every PROBE_MS, requests or not. */
  private watch(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.lostSince === undefined && !this.suspect) return;
      void this.find().catch(() => undefined);
    }, PROBE_MS);
    this.timer.unref();
  }

  /** Connect to `host` and ask whether it takes writes. */
  private async probe(host: Host): Promise<Probe> {
    const client = new pg.Client({ ...this.options, connectionString: host.url, connectionTimeoutMillis: PROBE_TIMEOUT_MS, query_timeout: PROBE_TIMEOUT_MS });
    client.on('error', () => undefined);
    try {
      await client.connect();
      const { rows } = await client.query<{ recovery: boolean; read_only: string }>("SELECT pg_is_in_recovery() AS recovery, current_setting('transaction_read_only') AS read_only");
      const row = rows[0]!;
      if (row.recovery) return { host, writable: false, why: 'in recovery (a standby)' };
      if (row.read_only === 'on') return { host, writable: false, why: 'read-only (default_transaction_read_only)' };
      return { host, writable: true };
    } catch (error) {
      return { host, writable: false, why: worded(error) };
    } finally {
      void client.end().catch(() => undefined);
    }
  }
}

/**
 * The probes of every host, settled once one finds a host that takes writes (the others are not
 * waited for: a host being shut down or lost may hold a connection until PROBE_TIMEOUT_MS, and
 * waiting for it held every switchover's first write 1.2–1.3 s after the new primary took
 * writes), else once all have failed. Several hosts that take writes at once (a split brain the
 * HA tool is resolving) are not told apart: the first to answer is used until it refuses.
 */
function firstWritable(probes: readonly Promise<Probe>[]): Promise<Probe[]> {
  return new Promise((resolve) => {
    const settled: Probe[] = [];
    for (const probe of probes) {
      void probe.then((result) => {
        settled.push(result);
        if (result.writable || settled.length === probes.length) resolve(settled);
      });
    }
  });
}

/**
 * A probe's failure in words for the log and /health (what is wrong, never a driver's code or
 * stack): refused, unreachable, timed out, or PostgreSQL's own sentence ("the database system is
 * shutting down", "… is in recovery mode", "… is starting up").
 */
function worded(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code === 'ECONNREFUSED') return 'refuses connections (not running?)';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'its name does not resolve';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'EHOSTDOWN' || code === 'ENETDOWN') return 'cannot be reached';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'dropped the connection';
  if (typeof message === 'string' && /timeout/i.test(message)) return `does not answer within ${PROBE_TIMEOUT_MS / 1000} s`;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && typeof message === 'string') return message;
  return 'does not answer';
}

/** PostgreSQL's "read-only transaction" answer (a standby, a node being promoted), or a host found not writable. */
function isReadOnly(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === READ_ONLY;
}
