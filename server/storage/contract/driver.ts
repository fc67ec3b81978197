import type { Knex } from 'knex';
import type { Logger } from '../../log.js';
import type { InsertedEvent, Insertion, VersionRow } from './events.js';
import type { Row, TextRun } from './rows.js';

// The Dialect's driver: connections and their pools, key reads, write statements, what a driver's
// errors mean, and an engine's limits. Part of storage's contract: it imports nothing else of
// storage but the contract.

/** How an engine is reached and what its driver says: one of the Dialect's four groups. */
export interface Driver {
  /** The pools: key reads, write transactions, streams (Connections.open makes a Pools). */
  readonly connections: Connections;
  /** Statements of write jobs run without the query builder, prepared once. */
  readonly statements: WriteStatements;
  /** What a driver's error means to the stores. */
  readonly errors: ErrorClassifier;
  /** What one statement may hold at most. */
  readonly limits: StatementLimits;
}

/**
 * Single-row reads by key, the hot path of every GET: each distinct SQL text is prepared once per
 * connection and run without the query builder. Building, compiling and running a query through
 * knex costs several times the lookup itself (measured: about 19,000 knex `first()` calls per
 * second against 160,000 prepared lookups on the same SQLite file), so the reads a request
 * always makes bypass it. SQL is written with `?` placeholders; each dialect adapts them.
 */
export interface KeyReader {
  /** The first row `sql` yields for `bindings`, or undefined. */
  one(sql: string, bindings: readonly unknown[]): Promise<Row | undefined>;
  /** Every row `sql` yields for `bindings`: for short results only (it runs on the event loop on SQLite). */
  all(sql: string, bindings: readonly unknown[]): Promise<Row[]>;
  /**
   * The same read as `one`, answered on the calling thread: SQLite's key reader, whose driver is
   * synchronous, has it; engines that need a round trip do not.
   */
  oneNow?(sql: string, bindings: readonly unknown[]): Row | undefined;
  /**
   * A mark that moves whenever anyone commits to the database, read without a round trip
   * (SQLite: the WAL-index header, else `PRAGMA data_version`; see SqliteKeyReader.commits);
   * absent where the engine has nothing as cheap. What a cache of another process's writes asks
   * before it answers (see CurrentCache). Compared with `===` only.
   */
  commits?(): number | string;
  /** Release the prepared statements and any connections of its own. */
  close(): Promise<void>;
}

/** The engine's limits on one statement that a client's query can reach. */
export interface StatementLimits {
  /**
   * Bound parameters: SQLite's SQLITE_MAX_VARIABLE_NUMBER (32,766), PostgreSQL's protocol count
   * (a 16-bit field: 65,535; past it the server reports a protocol violation, which read as an
   * outage, 503).
   */
  readonly bindings: number;
}

/** What a statement run by WriteStatements yields. */
export interface StatementResult {
  /** Rows it returned (a SELECT, or RETURNING). */
  readonly rows: readonly Row[];
  /** Rows it inserted, updated or deleted. */
  readonly changes: number;
}

/**
 * The statements of a write job on its hot path, as the key reader runs reads: SQL with `?`
 * placeholders, prepared once per connection (SQLite) and run without building a query, inside
 * the job's transaction. Building and running a statement through knex costs several times what
 * SQLite spends on a one-row insert (see docs/benchmarks/2026-11-24-full-runs.md, createObject).
 */
export interface WriteStatements {
  run(trx: Knex.Transaction, sql: string, bindings: readonly unknown[]): Promise<StatementResult>;
}

export interface PoolOptions {
  /** DATABASE_POOL_MAX. */
  readonly poolMax: number;
  /** DATABASE_READ_URLS and READ_WAIT_MS: streaming standbys that serve reads (PostgreSQL; see Standbys). */
  readonly standbys?: { readonly urls: readonly string[]; readonly waitMs: number };
  /** Where the pools' own warnings go. */
  readonly logger?: Logger;
}

/** A unit of writing: it stores everything it writes or, when it throws, nothing. */
export type WriteJob<T> = (trx: Knex.Transaction) => Promise<T>;

/** The open connections of one process to one database. */
export interface Pools {
  /** Knex for reads (lists, queries, the catalog's reads). */
  readonly reader: Knex;
  /** Knex for schema changes and maintenance; writes of data go through write(). */
  readonly writer: Knex;
  /** Prepared lookups by key (see KeyReader). */
  readonly keys: KeyReader;
  /**
   * Run `job` in a write transaction and resolve once what it wrote is durable. SQLite commits
   * the jobs that arrive together in one transaction (one fsync), each in a savepoint of its own.
   */
  write<T>(job: WriteJob<T>): Promise<T>;
  /**
   * Store versions of resources whose ids were made for them (nothing to lock or read first):
   * the history rows, current rows and events, durable when it resolves; the event ids in order.
   * Appends that arrive together are written together (PostgreSQL: one statement, a transaction
   * of its own; SQLite: the group commit).
   */
  append(versions: readonly VersionRow[]): Promise<number[]>;
  /**
   * Where a write of one live resource can be a compare-and-set outside any transaction
   * (PostgreSQL: one round trip instead of a transaction's five): store `version` in place of the
   * resource's current version if that is still the one with ts `expected` and nobody holds the
   * resource's lock; its event id, or undefined when it did not (the caller then writes it the
   * locked way). Such writes that arrive together are written together. Absent where a locked
   * write costs no round trips (SQLite: its one writer is in the process).
   */
  replaceIf?(version: VersionRow, expected: number): Promise<number | undefined>;
  /**
   * Where an insert of client-chosen ids can be one round trip without an explicit transaction
   * (PostgreSQL; the locked way takes five): lock the resources, then store every version if
   * each is newer than everything its resource stored and no `createOnly` one finds its resource
   * live. Per version its event id and whether a live resource had the id (a re-POST); undefined
   * when nothing was stored (the caller then writes the locked way, which finds out why). Absent
   * where a locked write costs no round trips (SQLite: its one writer is in the process).
   */
  insertIf?(versions: readonly Insertion[]): Promise<readonly InsertedEvent[] | undefined>;
  /**
   * Where processes of other servers may write the same database (PostgreSQL), the lease that
   * lets one of them keep a read cache (see ReadLease); absent where a process started alone is
   * its database's only writer (SQLite).
   */
  readonly lease?: ReadLease;
  /**
   * Rows of `query`, streamed with back-pressure so a huge result uses constant memory, in
   * slices that never hold the event loop for long. `limit`, when the query has one, bounds the
   * result: a small bounded result may be read whole.
   */
  stream(query: Knex.QueryBuilder, limit?: number): AsyncIterable<Row>;
  /**
   * The rows (`id`, `doc`) of `query` as runs of JSON texts (see TextRun), streamed alike.
   * SQLite renders them on the reader's thread: a list costs the event loop one string per
   * batch instead of an object per row.
   */
  streamTexts(query: Knex.QueryBuilder, run: TextRun): AsyncIterable<string>;
  /** Where streaming standbys serve reads (PostgreSQL with DATABASE_READ_URLS; see Standbys). */
  readonly standbys?: Standbys;
  /** What /metrics reports of the storage at this moment (server/metrics/metrics.ts). */
  gauges(): StorageGauges;
  /**
   * Readiness (rest-contract §16): resolves when the database takes writes now, throws (an
   * unavailable error, with why) when it does not, e.g. while no host of a PostgreSQL
   * DATABASE_URL is the primary. Absent where reaching the database is all there is to ask (SQLite).
   */
  writable?(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Reads past one machine (rest-contract §15): `reader`, `keys`, `stream` and `streamTexts` of a
 * read begun in `reading` go to a standby that has replayed every write acknowledged before it
 * began (else, after READ_WAIT_MS, to the primary); everything else (writes, and reads outside
 * `reading`) goes to the primary. Each read asks anew, so a read never answers older than a
 * write acknowledged before it began, whichever process wrote.
 */
export interface Standbys {
  /**
   * Run `work` as the reads of one request. `token`: the consistency token the client sent
   * back (the position of the last write it saw acknowledged): a standby that has replayed that
   * far serves, with no question to the primary. Undefined or malformed: the primary is asked.
   */
  reading<T>(token: string | undefined, work: () => T): T;
  /** Run `work` with every read on the primary (snapshots, the event log's horizon). */
  onPrimary<T>(work: () => T): T;
  /** True inside `reading` with a token: what its reads find may be older than others' writes, so no cache keeps it. */
  fromToken(): boolean;
  /** The consistency token of a write acknowledged before this call: the primary's position now. */
  token(): Promise<string>;
  /**
   * From now on, the reads of the current `reading` go where the WAL up to `token` has been
   * replayed (or to the primary): what they find is never older than what was committed before
   * `token` was given. Outside `reading` (reads on the primary) nothing changes.
   */
  atLeast(token: string): void;
  /**
   * Run `read` (its reads on a standby, or the primary) with a bound below which every event of
   * the log is final: the primary's horizon, asked once for the reads that arrive together, read
   * where the WAL up to it has been replayed. A standby's own snapshot cannot give it: it does
   * not know the transactions that have not written WAL yet.
   */
  belowHorizon<T>(read: (horizon: number) => Promise<T>): Promise<T>;
  /** Each standby as /metrics and /health report it. */
  states(): readonly StandbyState[];
}

/** `work` with its reads on the primary where there are standbys (Standbys.onPrimary); as it is without. */
export function onPrimary<T>(standbys: Standbys | undefined, work: () => T): T {
  return standbys ? standbys.onPrimary(work) : work();
}

/** What /metrics and /health say of one standby. */
export interface StandbyState {
  /** host:port/database. */
  readonly name: string;
  /** False while it fails (stopped, restarting, unreachable, not replaying); reads go around it. */
  readonly up: boolean;
  /** WAL bytes the primary had that it had not replayed, and seconds since its last replayed commit (0 when caught up), at the last look. */
  readonly lagBytes: number;
  readonly lagSeconds: number;
  /** Reads it served; reads that waited for it to replay; reads that waited READ_WAIT_MS, or met its failure, and went to the primary. */
  readonly reads: number;
  readonly waits: number;
  readonly fallbacks: number;
}
/** The storage's figures for /metrics; each engine gives those it has. */
export interface StorageGauges {
  /** Write jobs waiting for their group (SQLite's group commit). */
  readonly writesWaiting?: number;
  /** Groups committed so far, and the write jobs in them (SQLite: their ratio is the mean group size). */
  readonly groupsCommitted?: number;
  readonly jobsCommitted?: number;
  /** The connection pool (PostgreSQL): connections in use, idle, and requests waiting for one. */
  readonly pool?: { readonly used: number; readonly idle: number; readonly waiting: number };
  /** Bytes of the write-ahead log file (SQLite's `-wal`). */
  readonly walBytes?: number;
  /** Each standby that serves reads (DATABASE_READ_URLS). */
  readonly standbys?: readonly StandbyState[];
  /** The host that takes writes (PostgreSQL), failovers seen, and time without one. */
  readonly primary?: PrimaryState;
}

/** What /metrics and /health say of the primary (rest-contract §16). */
export interface PrimaryState {
  /** host:port of the host that takes writes; undefined while none does. */
  readonly host: string | undefined;
  readonly writable: boolean;
  /** Times the host that takes writes changed (a switchover, a promotion) since the process started. */
  readonly failovers: number;
  /** Seconds, since the process started, during which no host took writes. */
  readonly secondsWithoutPrimary: number;
  /** While none takes writes: why (each host's answer), and for how long so far. */
  readonly why?: string;
  readonly downSeconds?: number;
}

/**
 * Who may keep what it read in memory where several server processes share one database: at most
 * one process holds the lease, and while it does no other process writes (each write elsewhere
 * first makes it give the lease up), so a write acknowledged by any process is read back by every
 * process at once. The holder's own writes replace what it keeps (ResourceStore, CurrentCache).
 */
export interface ReadLease {
  /**
   * A number that stays the same while this process holds the lease without a break (each new
   * hold is a new number); throws while it does not. Each call counts as a read: the lease is
   * sought while reads come. What CurrentCache asks before every answer from memory.
   */
  held(): number;
  /**
   * Before a write: resolves (or returns at once) when this process may write, with the function
   * to call once the write has committed or failed, before it is acknowledged: where the right to
   * write was lost meanwhile, what it returns resolves once it is had again.
   */
  writing(): (() => void | Promise<void>) | Promise<() => void | Promise<void>>;
  close(): Promise<void>;
}

export interface Connections {
  /**
   * True where a server process started alone (no `--workers`) is the only writer of its
   * database (SQLite: a file belongs to one server or one cluster), so that it may keep what it
   * read in memory (CurrentCache); false where other servers may share the database (PostgreSQL).
   */
  readonly aloneMeansSoleWriter: boolean;
  open(options: PoolOptions): Pools;
}

export interface ErrorClassifier {
  /** True when `error` means the database is unreachable or overloaded rather than a bad query. */
  isUnavailable(error: unknown): boolean;
  /** True when `error` is the violation of a primary key or unique constraint. */
  isUniqueViolation(error: unknown): boolean;
  /**
   * True when `error` means another connection holds a lock the statement needed and it did
   * not wait (SQLite's writer has no busy timeout): worth trying again shortly, as start-up does
   * (storage/start-lock.ts).
   */
  isLockBusy(error: unknown): boolean;
  /**
   * True when `error` is the engine refusing a statement for its size (too many terms, too deep
   * an expression): a query the client made too large, answered 400, never a 500.
   */
  isQueryTooLarge(error: unknown): boolean;
  /**
   * True where the dialect logs an outage itself, once per change of state (PostgreSQL's
   * provider of the primary: lost, read-only, back after N s; rest-contract §16): a request it
   * fails is then not logged again. False where nothing else would say it (SQLite's busy file).
   */
  readonly reportsOutages: boolean;
}
