import type { Knex } from 'knex';
import type { Logger } from '../../log.js';
import type { CompareAndSetWrites } from './compare-and-set.js';
import type { VersionRow } from './events.js';
import type { StorageGauges } from './gauges.js';
import type { ReadLease } from './read-lease.js';
import type { Row, TextRun } from './rows.js';
import type { StandbyOptions, Standbys } from './standbys.js';

// The Dialect's driver: connections and their pools, key reads, write statements, what a driver's
// errors mean, and an engine's limits. Pools holds what every engine has; each capability that
// only some engines have is one optional member of it, described in a contract file of its own
// (compare-and-set.ts, read-lease.ts, standbys.ts; what /metrics reads of it, gauges.ts). Part of
// storage's contract: it imports nothing else of storage but the contract.

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
  readonly standbys?: StandbyOptions;
  /** Where the pools' own warnings go. */
  readonly logger?: Logger;
}

/** A unit of writing: it stores everything it writes or, when it throws, nothing. */
export type WriteJob<T> = (trx: Knex.Transaction) => Promise<T>;

/**
 * The open connections of one process to one database: what every engine has, then one optional
 * member per capability that some engines have (absent: the stores do without it).
 */
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
   * `written`: what the job wrote, asked only where its commit could not be confirmed (a session
   * lost at COMMIT), to name it in the log (rest-contract §16).
   */
  write<T>(job: WriteJob<T>, written?: () => readonly string[]): Promise<T>;
  /**
   * Store versions of resources whose ids were made for them (nothing to lock or read first):
   * the history rows, current rows and events, durable when it resolves; the event ids in order.
   * Appends that arrive together are written together (PostgreSQL: one statement, a transaction
   * of its own; SQLite: the group commit).
   */
  append(versions: readonly VersionRow[]): Promise<number[]>;
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
  /** Compare-and-set writes, where the engine has them (see CompareAndSetWrites). */
  readonly compareAndSet?: CompareAndSetWrites;
  /**
   * Where processes of other servers may write the same database (PostgreSQL), the lease that
   * lets one of them keep a read cache (see ReadLease); absent where a process started alone is
   * its database's only writer (SQLite).
   */
  readonly lease?: ReadLease;
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

export interface Connections {
  /**
   * True where a server process started alone (no `--workers`) is the only writer of its
   * database (SQLite: a file belongs to one server or one cluster), so that it may keep what it
   * read in memory (CurrentCache); false where other servers may share the database (PostgreSQL).
   * A capability flag: absent is false (no cache of another process's writes).
   */
  readonly aloneMeansSoleWriter?: boolean;
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
   * A capability flag: absent is false (each request an outage fails is logged).
   */
  readonly reportsOutages?: boolean;
}
