import type { Knex } from 'knex';
import type { Comparison, ScalarType } from '../../query/tree.js';

// The Dialect's SQL text: what each engine writes differently (conditions and ordering on JSON
// documents, columns, DDL). Part of storage's contract: it imports nothing else of storage.

export type { Comparison, ScalarType } from '../../query/tree.js';

/** The SQL an engine writes its own way: one of the Dialect's four groups. */
export interface SqlText {
  /** Conditions and ordering on JSON documents (the query language). */
  readonly json: JsonSql;
  /** How document columns are written and read. */
  readonly columns: ColumnSql;
  /** Tables, indexes and triggers. */
  readonly ddl: SchemaSql;
}

/** Where a JSON value comes from: the document column, or one element of an array being searched. */
export type JsonSource = { readonly kind: 'column'; readonly column: string } | { readonly kind: 'element'; readonly alias: string };

/** A fragment of SQL and its bindings. */
export interface SqlFragment {
  readonly sql: string;
  readonly bindings: readonly unknown[];
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
  /** A value is at `segments`, JSON null included (`exists=`); never SQL NULL itself. */
  present(source: JsonSource, segments: readonly string[]): string;
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
   * An aggregate that yields the group's rows as JSON text: an array of arrays of `columns`, in
   * no particular order, and `[]` for no rows. Reading many small rows this way costs one string
   * and one JSON.parse instead of an object per row built by the driver. The caller orders them
   * where it needs to: sorting in the aggregate cost SQLite about 280 of the 915 µs that
   * objectIdQuery's statement took for 100 objects (1,600 rows), ordering them in JavaScript a tenth of that.
   */
  jsonRows(columns: readonly string[]): string;
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
  /**
   * `expression IN` the strings of one bound JSON array (one `?`, bound to its text): one
   * statement text for any number of values, so a prepared statement serves every count instead
   * of one being prepared, and kept, per count.
   */
  inTexts(expression: string): string;
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
   * DDL that lets an existing key column (keyType) hold up to `length` characters, or undefined
   * where the engine does not enforce the length (SQLite).
   */
  widenKey(table: string, column: string, length: number): string | undefined;
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
