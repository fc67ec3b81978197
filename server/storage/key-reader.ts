import type { Row } from './dialect.js';

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
