import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { PrimaryState, StorageGauges } from '../storage/contract/gauges.js';
import type { StandbyState } from '../storage/contract/standbys.js';
import { RequestDurations } from './request-durations.js';

/** The catalog's kept property trees (catalog/property-trees.ts). */
export interface KeptTreeGauges {
  /** Objects whose trees are kept, and about how many bytes they take. */
  readonly objects: number;
  readonly bytes: number;
  /** Objects whose trees results took from memory, and whose properties they read, since start. */
  readonly fromMemory: number;
  readonly fromDatabase: number;
}

/** What /metrics reads from the parts of a running server, at each scrape. */
export interface MetricSources {
  readonly storage: () => StorageGauges;
  readonly subscriptions: () => { subscribers: number; bufferedBytes: number };
  readonly catalogTrees: () => KeptTreeGauges;
}

/** One request as /metrics counts it. */
export interface RequestSample {
  /** The route's template (`/nodes/:id`), never the path itself, so labels stay few; the path when no route matched. */
  readonly route?: string | undefined;
  readonly path: string;
  readonly method: string;
  readonly status: number;
  readonly ms: number;
  /** The catalog's operation, for a SOAP request. */
  readonly operation?: string | undefined;
}

/** Request durations, in seconds: 0.5 ms to 10 s. */
const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

/**
 * The service's metrics (docs/operating.md, "Metrics") in a registry of prom-client: requests by
 * route, method and status (a histogram of durations, whose `_count` counts them); catalog
 * operations by name and status; the process's and the event loop's (prom-client's defaults);
 * subscribers and their unsent bytes; the storage's write queue, group commits, pool and WAL.
 * Gauges are read when scraped, so nothing is measured between scrapes.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new RequestDurations('topocat_http_request_duration_seconds', 'HTTP requests by route, method and status: durations from the request to the last byte written', BUCKETS);
  private readonly catalogCalls: Counter;
  private counted = { groups: 0, jobs: 0 };

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.registry.registerMetric(this.requests.asMetric());
    this.catalogCalls = new Counter({ name: 'topocat_catalog_operations_total', help: 'SOAP catalog operations by name and HTTP status (500: a fault)', labelNames: ['operation', 'status'], registers });
    new Gauge({ name: 'topocat_subscribers', help: 'Open WebSocket and event-stream subscriber connections', registers, collect() {
      this.set(sources.subscriptions().subscribers);
    } });
    new Gauge({ name: 'topocat_subscriber_buffered_bytes', help: 'Bytes waiting to be sent to subscribers', registers, collect() {
      this.set(sources.subscriptions().bufferedBytes);
    } });
    const storage = (): StorageGauges => sources.storage();
    new Gauge({ name: 'topocat_write_queue_jobs', help: 'Write jobs waiting for the next group commit (SQLite)', registers, collect() {
      const g = storage();
      if (g.writesWaiting !== undefined) this.set(g.writesWaiting);
    } });
    const counted = this.counted;
    const groups = new Counter({ name: 'topocat_group_commits_total', help: 'Group commits (SQLite); jobs_total / this is the mean group size', registers, collect() {
      const g = storage();
      if (g.groupsCommitted !== undefined && g.groupsCommitted > counted.groups) this.inc(g.groupsCommitted - counted.groups);
      if (g.groupsCommitted !== undefined) counted.groups = g.groupsCommitted;
    } });
    void groups;
    new Counter({ name: 'topocat_group_commit_jobs_total', help: 'Write jobs committed in groups (SQLite)', registers, collect() {
      const g = storage();
      if (g.jobsCommitted !== undefined && g.jobsCommitted > counted.jobs) this.inc(g.jobsCommitted - counted.jobs);
      if (g.jobsCommitted !== undefined) counted.jobs = g.jobsCommitted;
    } });
    new Gauge({ name: 'topocat_db_pool_connections', help: 'Database connections by state: used, idle, and requests waiting for one (PostgreSQL)', labelNames: ['state'], registers, collect() {
      const pool = storage().pool;
      if (!pool) return;
      this.set({ state: 'used' }, pool.used);
      this.set({ state: 'idle' }, pool.idle);
      this.set({ state: 'waiting' }, pool.waiting);
    } });
    new Gauge({ name: 'topocat_sqlite_wal_bytes', help: 'Size of the SQLite write-ahead log file', registers, collect() {
      const wal = storage().walBytes;
      if (wal !== undefined) this.set(wal);
    } });
    standbyMetrics(registers, () => storage().standbys ?? []);
    primaryMetrics(registers, () => storage().primary);
    catalogTreeMetrics(registers, sources.catalogTrees);
  }

  /** Count one finished request (called from the access line's hook, with the line's own fields). */
  request(sample: RequestSample): void {
    this.requests.record(sample.route ?? sample.path, sample.method, sample.status, sample.ms);
    if (sample.operation !== undefined) this.catalogCalls.inc({ operation: sample.operation, status: String(sample.status) });
  }

  /** The text of a scrape, and its content type. */
  async scrape(): Promise<{ text: string; contentType: string }> {
    return { text: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}

/** The catalog's kept property trees (CATALOG_CACHE_MB): how much is kept, and how often results found what they showed there. */
function catalogTreeMetrics(registers: Registry[], trees: () => KeptTreeGauges): void {
  new Gauge({ name: 'topocat_catalog_kept_tree_objects', help: 'Catalog objects whose property trees are kept in memory (CATALOG_CACHE_MB)', registers, collect() {
    this.set(trees().objects);
  } });
  new Gauge({ name: 'topocat_catalog_kept_tree_bytes', help: 'About how many bytes the kept property trees take', registers, collect() {
    this.set(trees().bytes);
  } });
  const seen = { memory: 0, database: 0 };
  new Counter({ name: 'topocat_catalog_property_trees_total', help: 'Objects whose properties catalog results showed, by where they were found: kept in memory, or read from the database', labelNames: ['from'], registers, collect() {
    const g = trees();
    this.inc({ from: 'memory' }, g.fromMemory - seen.memory);
    this.inc({ from: 'database' }, g.fromDatabase - seen.database);
    seen.memory = g.fromMemory;
    seen.database = g.fromDatabase;
  } });
}

/**
 * The primary (PostgreSQL, rest-contract §16): which host takes writes, whether one does, the
 * failovers seen and the seconds without one since the process started.
 */
function primaryMetrics(registers: Registry[], state: () => PrimaryState | undefined): void {
  new Gauge({ name: 'topocat_db_primary', help: 'The database host that takes writes (1; no series while none does)', labelNames: ['host'], registers, collect() {
    this.reset();
    const host = state()?.host;
    if (host !== undefined) this.set({ host }, 1);
  } });
  new Gauge({ name: 'topocat_db_writable', help: 'Whether a database host takes writes now (1) or none does (0: writes are answered 503)', registers, collect() {
    const s = state();
    if (s) this.set(s.writable ? 1 : 0);
  } });
  const seen = { failovers: 0, seconds: 0 };
  new Counter({ name: 'topocat_db_failovers_total', help: 'Times the host that takes writes changed (a switchover, a promotion)', registers, collect() {
    const s = state();
    if (!s) return;
    this.inc(Math.max(0, s.failovers - seen.failovers));
    seen.failovers = Math.max(seen.failovers, s.failovers);
  } });
  new Counter({ name: 'topocat_db_seconds_without_primary_total', help: 'Seconds during which no database host took writes', registers, collect() {
    const s = state();
    if (!s) return;
    this.inc(Math.max(0, s.secondsWithoutPrimary - seen.seconds));
    seen.seconds = Math.max(seen.seconds, s.secondsWithoutPrimary);
  } });
}

/**
 * Per standby (DATABASE_READ_URLS, rest-contract §15): whether it serves, its replay lag at the
 * last look, and its reads: served, waited for, and sent to the primary instead.
 */
function standbyMetrics(registers: Registry[], states: () => readonly StandbyState[]): void {
  const labelNames = ['standby'];
  const gauge = (name: string, help: string, value: (s: StandbyState) => number): void => {
    new Gauge({ name, help, labelNames, registers, collect() {
      for (const state of states()) this.set({ standby: state.name }, value(state));
    } });
  };
  gauge('topocat_standby_up', 'Whether the standby answers (1) or is read around (0)', (s) => (s.up ? 1 : 0));
  gauge('topocat_standby_replay_lag_bytes', 'WAL bytes the primary had that the standby had not replayed, at the last look', (s) => s.lagBytes);
  gauge('topocat_standby_replay_lag_seconds', 'Seconds since the last commit the standby replayed, while it has WAL left to replay (0 when caught up)', (s) => s.lagSeconds);
  const seen = new Map<string, { reads: number; waits: number; fallbacks: number }>();
  const counter = (name: string, help: string, field: 'reads' | 'waits' | 'fallbacks'): void => {
    new Counter({ name, help, labelNames, registers, collect() {
      for (const state of states()) {
        const last = seen.get(state.name) ?? { reads: 0, waits: 0, fallbacks: 0 };
        // Shown from the first scrape, at 0 until it counts.
        this.inc({ standby: state.name }, Math.max(0, state[field] - last[field]));
        seen.set(state.name, { ...last, [field]: Math.max(last[field], state[field]) });
      }
    } });
  };
  counter('topocat_standby_reads_total', 'Reads the standby served', 'reads');
  counter('topocat_standby_read_waits_total', 'Reads that waited for the standby to replay far enough, then were served by it', 'waits');
  counter('topocat_standby_fallbacks_total', 'Reads meant for the standby that the primary served: it lagged past READ_WAIT_MS, or failed', 'fallbacks');
}
