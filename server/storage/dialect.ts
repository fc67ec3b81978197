import type { Knex } from 'knex';
import type { Comparison, ScalarType } from '../query/tree.js';
import type { KeyReader } from './key-reader.js';

/** Where a JSON value comes from: the document column, or one element of an array being searched. */
export type JsonSource = { readonly kind: 'column'; readonly column: string } | { readonly kind: 'element'; readonly alias: string };

export type { Comparison, ScalarType } from '../query/tree.js';

/** A raw row as the stores read it: `doc` is JSON text, never parsed on the way through. */
export interface Row {
  readonly [column: string]: unknown;
}

/**
 * Everything that differs between SQLite and PostgreSQL, behind one small interface. The stores
 * and the query compiler build SQL only through it, so no dialect-specific SQL lives elsewhere.
 *
 * Field paths reach this interface only as segments that the query parser has restricted to
 * `[A-Za-z0-9_$@:-]`, which is why they can be written into SQL as literals; values are always
 * bound parameters.
 */
export interface Dialect {
  readonly name: 'sqlite' | 'postgres';
  /** Column type of JSON documents. */
  readonly documentType: string;
  /** Column type of a key column of up to `length` characters, compared and ordered bytewise. */
  keyType(length: number): string;

  /** Knex settings for the connection pool that reads. */
  readerConfig(poolMax: number): Knex.Config;
  /** Knex settings for the pool that writes (SQLite: one connection; PostgreSQL: the reader). */
  writerConfig(): Knex.Config | undefined;

  /** The value to store in a document column, from its JSON text. */
  documentValue(knex: Knex, json: string): Knex.Raw | string;
  /** Select expression that yields a document column as JSON text under the same name. */
  documentText(knex: Knex, column: string): Knex.Raw | string;

  /**
   * A boolean SQL condition: the JSON value at `segments` of `source` compared with `count`
   * bound parameters. A value of another JSON type never matches.
   */
  compare(source: JsonSource, segments: readonly string[], comparison: Comparison, type: ScalarType, count: number): string;
  /**
   * An aggregate that yields the group's rows as JSON text: an array of arrays of `columns`,
   * ordered by `orderBy`, and `[]` for no rows. Reading many small rows this way costs one
   * string and one JSON.parse instead of an object per row built by the driver.
   */
  jsonRows(columns: readonly string[], orderBy: string): string;
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

  /** First statement of every write transaction: whatever the engine needs before anything else. */
  beginWrite(trx: Knex.Transaction): Promise<void>;
  /**
   * Serialise writers of the resources `keys` of `scope` across processes until `trx` ends.
   * Keys are locked in one fixed order, so two writers that share keys cannot deadlock.
   */
  lockResources(trx: Knex.Transaction, scope: string, keys: readonly string[]): Promise<void>;

  /** Rows of a counters table (see rowCountTriggers): writers spread over them. */
  readonly counterShards: number;
  /**
   * Triggers that keep the column `column` of table `counters` (rows keyed by `shard`, summed
   * when read) equal to the number of rows of `table`, within every writing transaction.
   * Created before the column is filled in, their DDL locks keep writers out until it is.
   */
  rowCountTriggers(table: string, counters: string, column: string): { readonly create: readonly string[]; readonly drop: readonly string[] };

  /** Whatever must exist before the migrations can run (PostgreSQL: the schema of the URL). */
  prepare(knex: Knex): Promise<void>;
  /**
   * Run `work` while no other process on the same database runs a section of the same `name`:
   * migrations and index changes, which would otherwise collide when several processes start.
   * SQLite needs no lock: only one process per file ever runs them (see its dialect).
   */
  exclusive<T>(name: string, work: () => Promise<T>): Promise<T>;

  /** Prepared single-row reads by key, for the requests every client makes (see KeyReader). */
  keyReader(reader: Knex, poolMax: number): KeyReader;

  /**
   * Rows of `query`, streamed with back-pressure so a huge result uses constant memory.
   * `limit`, when the query has one, bounds the result: a small bounded result may be read whole.
   */
  stream(knex: Knex, query: Knex.QueryBuilder, limit?: number): AsyncIterable<Row>;

  /**
   * DDL for an expression index on a scalar JSON field of `table`'s `column`, keyed by `kind`
   * first and followed by the plain columns `then`.
   */
  createExpressionIndex(name: string, table: string, column: string, segments: readonly string[], then: readonly string[]): string;
  /**
   * Tell the planner that `lookupIndexes` of `table` are selective (an equality narrows a kind
   * to a few rows) where it has no statistics of its own yet; real statistics are left alone.
   */
  describeLookupIndexes(knex: Knex, table: string, lookupIndexes: readonly string[]): Promise<void>;
  /**
   * Keep the planner's statistics current, called now and then (STATISTICS_INTERVAL_MS): true
   * when it refreshed them. PostgreSQL's autovacuum does this itself.
   */
  refreshStatistics(writer: Knex): Promise<boolean>;
  /** Names of the expression indexes this project created (prefix `xidx_`). */
  listExpressionIndexes(knex: Knex): Promise<string[]>;
  dropIndex(name: string): string;

  /** True when `error` means the database is unreachable or overloaded rather than a bad query. */
  isUnavailable(error: unknown): boolean;

  /** True when `error` is the violation of a primary key or unique constraint. */
  isUniqueViolation(error: unknown): boolean;
  /**
   * `expression` (a text column or expression) made to compare and sort by code point, as
   * SQLite's default BINARY collation does, whatever the database's locale says.
   */
  byteOrder(expression: string): string;
}
