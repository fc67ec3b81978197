import type { Knex } from 'knex';
import type { TextRun } from './document-text.js';
import type { Comparison, ScalarType } from '../query/tree.js';
import type { Logger } from '../log.js';
import type { KeyReader } from './key-reader.js';
import type { Change, Floor, Position } from './events.js';

/** Where a JSON value comes from: the document column, or one element of an array being searched. */
export type JsonSource = { readonly kind: 'column'; readonly column: string } | { readonly kind: 'element'; readonly alias: string };

export type { Comparison, ScalarType } from '../query/tree.js';

/** A raw row as the stores read it: `doc` is JSON text, never parsed on the way through. */
export interface Row {
  readonly [column: string]: unknown;
}

/**
 * Everything that differs between SQLite and PostgreSQL, in small parts, Kysely's way: each part
 * is one concern with a few members, and each engine implements them in a folder of its own
 * (`dialects/sqlite/`, `dialects/postgres/`). The stores and the query compilers build SQL only
 * through these parts, so no engine-specific SQL lives elsewhere.
 *
 * Field paths reach the SQL builders only as segments that the query parser has restricted to
 * `[A-Za-z0-9_$@:-]`, which is why they can be written into SQL as literals; values are always
 * bound parameters.
 */
export interface Dialect {
  readonly name: 'sqlite' | 'postgres';
  /** SQL building: conditions and ordering on JSON documents. */
  readonly json: JsonSql;
  /** SQL building: how columns are written and read. */
  readonly columns: ColumnSql;
  /** SQL building: tables, indexes and triggers. */
  readonly ddl: SchemaSql;
  /** Connections: pools, prepared key reads, streams and write transactions. */
  readonly connections: Connections;
  /** Locking: writers of the same resources, and sections only one process may run. */
  readonly locking: Locking;
  /** Maintenance: the schema's prerequisites, the planner's statistics, the indexes present. */
  readonly maintenance: Maintenance;
  /** Error classification: what a driver error means to the stores. */
  readonly errors: ErrorClassifier;
  /** Word of committed changes between processes (see storage/change-feed.ts). */
  readonly announcements: Announcements;
  /** SQL building: the data points of the measurement store (storage/measurements/). */
  readonly points: PointSql;
  /** Statements of write jobs run without the query builder, prepared once. */
  readonly statements: WriteStatements;
  /** Versions and their events: how they are written, numbered, and read back in order. */
  readonly history: HistorySql;
  /** What one statement may hold at most. */
  readonly limits: StatementLimits;
  /** Online backups of the whole database (`npm run backup`, docs/running.md). */
  readonly backup: Backup;
  /** Reads of the past: the stored history as it stood at an instant, and what changed between two. */
  readonly time: TimeSql;
  /** The triggers that keep each collection's manifest as writes happen (storage/manifests.ts). */
  readonly manifests: ManifestSql;
}

/** The manifests' upkeep (storage/manifest-upkeep.ts): its triggers, and what builds the sets of stored documents. */
export interface ManifestSql {
  /**
   * The triggers on `resource_current` (and what they call) that add each written document's
   * values, for the upkeep's `generation` (storage/manifest-upkeep.ts; undefined: migration
   * 0014's, before any generation).
   */
  create(generation: string | undefined): readonly string[];
  readonly drop: readonly string[];
  /** Add the values of stored documents to the sets, as the triggers would have (the scan that builds them). */
  add(trx: Knex.Transaction, documents: readonly { readonly kind: string; readonly doc: string }[]): Promise<void>;
}

/** What a finished backup reports. */
export interface BackupResult {
  /** The file written. */
  readonly file: string;
  readonly bytes: number;
  /** How it is restored, for the CLI to print. */
  readonly restore: string;
}

/**
 * A copy of the database taken while servers keep reading and writing it: one consistent
 * snapshot (every write acknowledged before the copy began is in it), written to a new file
 * that appears under its name only once it is complete.
 */
export interface Backup {
  /**
   * False when there is plainly no database to copy (SQLite: no file at its path); where the
   * copy itself finds that out (PostgreSQL's pg_dump), true.
   */
  exists(): boolean;
  copy(destination: string): Promise<BackupResult>;
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

/**
 * The history read as of an instant (docs/time.md), answered by the database from the index on
 * `(kind, id, ts)` (one resource: one lookup) and the one on `(kind, ts, id)` (migration 0010).
 * Each engine has its own shape of the same query because each planner needs it told differently
 * how to join the newest version of each resource back to its document.
 */
export interface TimeSql {
  /**
   * A derived table of columns `id`, `ts`, `doc` (the stored document): each resource of `kind`
   * as it was at instant `at`, its newest version with `ts ≤ at`, none when that is a deletion.
   */
  stateAt(kind: string, at: number): SqlFragment;
  /**
   * A derived table of the resources of `kind` that changed in `(since, until]`, one row each:
   * `id`, `ts` (of its last change in the interval), `doc` (the document as of `until`, or as of
   * `since` when it was deleted), `bts`/`bdoc` (its version at `since`, null when it had none)
   * and `adoc` (at `until`, null when deleted). One that had no version at either instant is
   * left out.
   */
  changes(kind: string, since: number, until: number): SqlFragment;
}

/** A version to store: a new representation of a resource, or its deletion (`doc` null). */
export interface VersionRow extends Change {
  /** The stored document as JSON text; null for a deletion. */
  readonly doc: string | null;
  /** An id made for this very insert: nothing stored has it (no earlier event to order after). */
  readonly fresh?: boolean;
  /**
   * An imported version older than the resource's newest (a UNIS history read out of order): it
   * joins the history only; the current row and the event log (what subscribers hear) are left
   * as they are.
   */
  readonly past?: boolean;
}

/** A version for Pools.insertIf. */
export interface Insertion {
  readonly kind: string;
  readonly id: string;
  readonly ts: number;
  /** The stored document as JSON text. */
  readonly doc: string;
  /** Store nothing if a live resource has this id. */
  readonly createOnly: boolean;
}

/** What Pools.insertIf stored of one version: its event, and whether it replaced a live resource. */
export interface InsertedEvent {
  readonly event: number;
  readonly replaced: boolean;
}

/** A fragment of SQL and its bindings. */
export interface SqlFragment {
  readonly sql: string;
  readonly bindings: readonly unknown[];
}

/**
 * The history and the event log (storage/events.ts): every version appended with the event that
 * announces it, and the order in which readers of the log take events. Each event has an id
 * (`event`, unique) and a position (`Position`): the order of delivery. On SQLite one writer
 * numbers events as it commits them, so positions follow ids. On PostgreSQL many transactions
 * commit at once and none may wait for another's commit: an event's position is the id of its
 * transaction, then its own id, and a reader takes only the events of transactions older than
 * every transaction still running (docs/internals.md, "The event log on PostgreSQL").
 */
export interface HistorySql {
  /** Migration step 0008, after the columns `k` and `xid` are added: what this engine's event log needs for its order, and its undoing. */
  readonly migration: { up(knex: Knex): Promise<void>; down(knex: Knex): Promise<void> };
  /** Migration step 0016: what this engine's Pools.insertIf needs in the schema (PostgreSQL: a function), and its undoing. */
  readonly insertIfMigration: { up(knex: Knex): Promise<void>; down(knex: Knex): Promise<void> };
  /**
   * Append `versions` to the history, make the last version of each resource that is not `past`
   * its current row (or remove the row for a deletion), and add their events, as part of `trx`.
   * The caller holds the resources' locks. Returns the event ids of the versions that are not
   * `past`, in the order of `versions`.
   */
  storeVersions(trx: Knex.Transaction, versions: readonly VersionRow[]): Promise<number[]>;
  /** Add events of changes that are not versions (measurement appends), as part of `trx`: their ids, in order. */
  record(trx: Knex.Transaction, changes: readonly Change[]): Promise<number[]>;
  /** SQL of one row (`k`, `event`): a position after every event final now, before any other. */
  readonly horizon: string;
  /**
   * SQL of the session whose open transaction has held back the delivery of changes for over ten
   * seconds, if any (`pid`, `application`, `state`, `seconds`); absent where none can (SQLite).
   */
  readonly heldBy?: string;
  /** SQL of one row, and the Floor it means: the changes committed before now. */
  readonly now: { readonly sql: string; floor(row: Row): Floor };
  /** SQL of the row (`k`) of the event whose id is bound, none for an unknown id. */
  readonly positionOf: string;
  /** A condition on events aliased `alias`: after `position`, and final (no event can come before it any more). */
  after(alias: string, position: Position): SqlFragment;
  /** ORDER BY of events aliased `alias`, in positions' order. */
  order(alias: string): string;
}

/** Conditions and ordering on the JSON value at a path of a document (the REST query language). */
export interface JsonSql {
  /**
   * A boolean SQL condition: the JSON value at `segments` of `source` compared with `count`
   * bound parameters. A value of another JSON type never matches.
   */
  compare(source: JsonSource, segments: readonly string[], comparison: Comparison, type: ScalarType, count: number): string;
  /**
   * The string at `segments` equals one bound parameter (already folded) once ASCII letters
   * are folded to lower case, and no other letter: `not=` (rest-contract §5).
   */
  foldedEquals(source: JsonSource, segments: readonly string[]): string;
  /** The string at `segments` contains a match of one bound pattern, without regard to case (`reg=`). */
  matches(source: JsonSource, segments: readonly string[]): string;
  /** A text expression (the `id` column) contains a match of one bound pattern, without regard to case. */
  matchesText(expression: string): string;
  /** A text expression with its ASCII letters in lower case (see foldedEquals). */
  foldText(expression: string): string;
  /** The bound form of a checked pattern (query/regex.ts) that `matches` runs. */
  bindPattern(pattern: { readonly source: string; readonly posix: string }): string;
  /** The value at `segments` is JSON null or absent (`null=`). */
  absent(source: JsonSource, segments: readonly string[]): string;
  /** The string at `segments` as SQL text (NULL when it is none). */
  text(source: JsonSource, segments: readonly string[]): string;
  /** The text after the last `/` of a text expression (the id at the end of an address). */
  lastSegment(expression: string): string;
  /** Bind value for a scalar of `type` (booleans differ between dialects). */
  bindValue(value: string | number | boolean, type: ScalarType): unknown;
  /** A FROM item yielding each element of the array at `segments` of `source` under `alias`. */
  arrayElements(source: JsonSource, segments: readonly string[], alias: string): string;
  /**
   * ORDER BY expressions, most significant first, for the JSON value at `segments`; each takes
   * the same direction and NULLS placement. Missing values and JSON null order as SQL NULL,
   * numbers (booleans as 0 and 1) before strings, strings bytewise.
   */
  sortKeys(column: string, segments: readonly string[]): readonly string[];
}

/** The measurement store's one statement that differs: a batch of points inserted as a set. */
export interface PointSql {
  /**
   * INSERT of one series' points from the JSON text of an array of point objects (each with a
   * numeric `ts`), in one statement whatever the batch's size; bindings: mid, event id, the
   * JSON text. A (mid, ts) stored already is skipped (a client re-sending a batch).
   */
  readonly insertFromJson: string;
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
 * SQLite spends on a one-row insert (see docs/benchmarks.md).
 */
export interface WriteStatements {
  run(trx: Knex.Transaction, sql: string, bindings: readonly unknown[]): Promise<StatementResult>;
}

/** How values go into columns and come out of them. */
export interface ColumnSql {
  /** The value to store in a document column, from its JSON text. */
  documentValue(knex: Knex, json: string): Knex.Raw | string;
  /** Select expression that yields a document column as JSON text, named `alias` (default: as the column). */
  documentText(knex: Knex, column: string, alias?: string): Knex.Raw | string;
  /**
   * True where documentText answers a document's JSON text exactly as it was written (SQLite's
   * TEXT column); false where the engine keeps it in a form of its own (PostgreSQL's jsonb: keys
   * in its order, its spacing), so that what a write sent differs in bytes from what a read answers.
   */
  readonly keepsText: boolean;
  /**
   * An aggregate that yields the group's rows as JSON text: an array of arrays of `columns`,
   * ordered by `orderBy`, and `[]` for no rows. Reading many small rows this way costs one
   * string and one JSON.parse instead of an object per row built by the driver.
   */
  jsonRows(columns: readonly string[], orderBy: string): string;
  /**
   * An aggregate that yields the group's documents (the document column `column`) as the text of
   * one JSON array ordered by `orderBy`, `[]` for no rows: the texts are joined, never parsed.
   */
  documentArray(column: string, orderBy: string): string;
  /**
   * `expression` (a text column or expression) made to compare and sort by code point, as
   * SQLite's default BINARY collation does, whatever the database's locale says.
   */
  byteOrder(expression: string): string;
  /** The document column `column` without its top-level members `members`. */
  withoutMembers(column: string, members: readonly string[]): string;
}

/** Triggers that keep a row count, and how to create and drop them. */
export interface CountTriggers {
  readonly create: readonly string[];
  readonly drop: readonly string[];
  /** Rows of the counters table the triggers spread their updates over. */
  readonly shards: number;
}

/** DDL. */
export interface SchemaSql {
  /** Column type of JSON documents. */
  readonly documentType: string;
  /** Column type of a key column of up to `length` characters, compared and ordered bytewise. */
  keyType(length: number): string;
  /**
   * DDL for an expression index on a scalar JSON field of `table`'s `column`, keyed by `kind`
   * first and followed by the plain columns `then`.
   */
  createExpressionIndex(name: string, table: string, column: string, segments: readonly string[], then: readonly string[]): string;
  dropIndex(name: string): string;
  /**
   * What follows `CREATE TABLE name (…)` for a table whose primary key is its only index, so
   * that its rows are kept in the key's own b-tree where the engine can (SQLite: WITHOUT ROWID).
   */
  readonly keyOnlyTable: string;
  /**
   * Triggers that keep the column `column` of table `counters` (rows keyed by `shard`, summed
   * when read) equal to the number of rows of `table`, within every writing transaction.
   * Created before the column is filled in, their DDL locks keep writers out until it is.
   */
  rowCountTriggers(table: string, counters: string, column: string): CountTriggers;
}

export interface PoolOptions {
  /** DATABASE_POOL_MAX. */
  readonly poolMax: number;
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
  /** What /metrics reports of the storage at this moment (server/metrics/storage.ts). */
  gauges(): StorageGauges;
  close(): Promise<void>;
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

export interface Locking {
  /**
   * Serialise writers of the resources `keys` of `scope` across processes until `trx` ends.
   * Keys are locked in one fixed order, so two writers that share keys cannot deadlock.
   */
  lockResources(trx: Knex.Transaction, scope: string, keys: readonly string[]): Promise<void>;
  /**
   * Run `work` while no other process on the same database runs a section of the same `name`:
   * migrations and index changes, which would otherwise collide when several processes start.
   */
  exclusive<T>(name: string, work: () => Promise<T>): Promise<T>;
  /** Part of migration step 0001, after the resource tables: what these locks need stored, and its undoing. */
  readonly migration: { up(knex: Knex): Promise<void>; down(knex: Knex): Promise<void> };
}

export interface Maintenance {
  /** Whatever must exist before the migrations can run (PostgreSQL: the schema of the URL). */
  prepare(knex: Knex): Promise<void>;
  /** Names of the expression indexes this project created (prefix `xidx_`). */
  listExpressionIndexes(knex: Knex): Promise<string[]>;
  /**
   * Tell the planner that `lookupIndexes` of `table` are selective (an equality narrows a kind
   * to a few rows) where it has no statistics of its own yet; real statistics are left alone.
   */
  describeLookupIndexes(knex: Knex, table: string, lookupIndexes: readonly string[]): Promise<void>;
  /**
   * Keep the planner's statistics current, called now and then (STATISTICS_INTERVAL_MS): true
   * when it refreshed them.
   */
  refreshStatistics(writer: Knex): Promise<boolean>;
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
}

/**
 * How one process tells the others on the same database that it has committed changes. The
 * changes themselves are always read back from the stored event log, so an announcement lost on
 * the way loses nothing: the next one, or the feed's own polling, finds them.
 */
export interface Announcements {
  /** False where the engine has no channel of its own (SQLite): processes must relay word themselves. */
  readonly reachOtherProcesses: boolean;
  /**
   * Announce that this process committed events. Called after the commit, never inside a write
   * transaction: a NOTIFY inside one takes a database-wide lock at COMMIT that serialises every
   * writer. Announcements may be coalesced; none may be lost for long (the feed polls anyway).
   */
  announce(): void;
  /**
   * Hear the announcements of every process (this one's too) until the returned function is
   * called; a lost connection is reopened, and `heard` called once it is, to catch up. Engines
   * without their own channel (SQLite, where the cluster primary relays) hear nothing here.
   */
  listen(heard: () => void, failed: (error: unknown) => void): Promise<() => Promise<void>>;
  /**
   * Whether this process wants to hear of the others' commits (its change feed has listeners):
   * where the engine can, processes announce their commits only while some other process does.
   */
  interest(listening: boolean): void;
}
