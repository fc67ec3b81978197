import type { Knex } from 'knex';

// The Dialect's adapter: how an engine serialises writers, looks after its schema and planner,
// tells other processes of commits, and copies itself. Part of storage's contract: it imports
// nothing else of storage.

/** What an engine does for the server beside its SQL: one of the Dialect's four groups. */
export interface Adapter {
  /** Writers of the same resources, and sections only one process may run. */
  readonly locking: Locking;
  /** The schema's prerequisites, the planner's statistics, the indexes present. */
  readonly maintenance: Maintenance;
  /** Word of committed changes between processes (see storage/change-feed.ts). */
  readonly announcements: Announcements;
  /** Online backups of the whole database (`npm run backup`, docs/running.md). */
  readonly backup: Backup;
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
