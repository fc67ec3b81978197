import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import sqlite3 from 'sqlite3';
import type { Database, Statement } from 'sqlite3';
import type { Comparison, Dialect, JsonSource, Row, ScalarType } from '../dialect.js';
import type { KeyReader } from '../key-reader.js';

/** Most rows stepped at once while streaming (see stream()). */
const STREAM_BATCH = 128;
/** A result bounded by a LIMIT of at most this many rows is read in one job. */
const READ_WHOLE_LIMIT = 1_000;
/** Rows this process writes before the planner's statistics are refreshed. */
const ANALYZE_AFTER_CHANGES = 10_000;
/** Index entries ANALYZE samples per index: a bounded cost (0.1–0.4 s at 100,000 objects). */
const ANALYSIS_LIMIT = 1_000;

/** `$."a"."b"`: a JSON path literal for json_extract; segments never contain quotes. */
function jsonPath(segments: readonly string[]): string {
  return `'$${segments.map((s) => `."${s}"`).join('')}'`;
}

/**
 * JSON text to apply a path to: the document column, or an element of an array being searched
 * when it is an object. json_each gives a scalar element as an SQL value (a string unquoted),
 * which is no JSON text: a path applied to it would fail the statement ("malformed JSON").
 */
function jsonOf(source: JsonSource): string {
  return source.kind === 'column' ? source.column : `(CASE ${source.alias}.type WHEN 'object' THEN ${source.alias}.value END)`;
}

const JSON_TYPES: Record<ScalarType, string> = {
  string: "('text')",
  number: "('integer','real')",
  boolean: "('true','false')",
};

/**
 * SQLite: the embedded default. One file, WAL journal so readers never wait for the writer,
 * one writer connection per process (in-process writes queue in the pool instead of polling
 * the file lock), and a busy timeout for writers of other processes.
 */
export class SqliteDialect implements Dialect {
  readonly name = 'sqlite';
  readonly documentType = 'text';
  private readonly filename: string;

  constructor(databaseUrl: string) {
    const location = databaseUrl.replace(/^sqlite:(\/\/)?/, '');
    if (location === '' || location === ':memory:') {
      throw new Error('DATABASE_URL: SQLite needs a file (sqlite:./data/topocat.sqlite); several connections share it');
    }
    this.filename = path.resolve(location);
    mkdirSync(path.dirname(this.filename), { recursive: true });
  }

  private config(poolMax: number): Knex.Config {
    return {
      client: 'sqlite3',
      connection: { filename: this.filename },
      useNullAsDefault: true,
      acquireConnectionTimeout: 10_000,
      pool: {
        min: 1,
        max: poolMax,
        afterCreate(connection: Database, done: (error: Error | null, connection: Database) => void) {
          // FULL: a write that got a 2xx survives a crash of the process or of the machine.
          connection.exec(
            'PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA busy_timeout = 10000; PRAGMA foreign_keys = ON;',
            (error) => done(error, connection),
          );
        },
      },
    };
  }

  readerConfig(poolMax: number): Knex.Config {
    return this.config(poolMax);
  }

  writerConfig(): Knex.Config {
    return this.config(1);
  }

  keyType(length: number): string {
    // SQLite compares text with the BINARY collation unless told otherwise.
    return `varchar(${length})`;
  }

  documentValue(_knex: Knex, json: string): string {
    return json;
  }

  documentText(_knex: Knex, column: string): string {
    return column;
  }

  compare(source: JsonSource, segments: readonly string[], comparison: Comparison, type: ScalarType, count: number): string {
    let value: string;
    let jsonType: string;
    if (source.kind === 'element' && segments.length === 0) {
      // json_each gives a scalar element's SQL value in `atom` and its JSON type in `type`.
      value = `${source.alias}.atom`;
      jsonType = `${source.alias}.type`;
    } else {
      const from = jsonOf(source);
      value = `json_extract(${from}, ${jsonPath(segments)})`;
      jsonType = `json_type(${from}, ${jsonPath(segments)})`;
    }
    const right = comparison === 'IN' ? `IN (${Array(count).fill('?').join(', ')})` : `${comparison} ?`;
    // The type guard is needed even for strings: SQLite orders every number before every text,
    // so `< 'b'` alone would match numbers. The bare value expression stays a conjunct of its
    // own, the one the expression indexes are built on.
    return `(${jsonType} IN ${JSON_TYPES[type]} AND ${value} ${right})`;
  }

  jsonRows(columns: readonly string[], orderBy: string): string {
    return `json_group_array(json_array(${columns.join(', ')}) ORDER BY ${orderBy})`;
  }

  bindValue(value: string | number | boolean, type: ScalarType): unknown {
    return type === 'boolean' ? (value ? 1 : 0) : value;
  }

  arrayElements(source: JsonSource, segments: readonly string[], alias: string): string {
    const from = jsonOf(source);
    // json_each on a non-array would walk an object's members; only arrays are searched.
    return `json_each(CASE json_type(${from}, ${jsonPath(segments)}) WHEN 'array' THEN json_extract(${from}, ${jsonPath(segments)}) ELSE '[]' END) AS ${alias}`;
  }

  sortKeys(column: string, segments: readonly string[]): string[] {
    // json_extract yields NULL, numbers (true and false as 1 and 0) or text: SQLite's own order
    // of those storage classes is the order the interface promises.
    return [`json_extract(${column}, ${jsonPath(segments)})`];
  }

  async beginWrite(trx: Knex.Transaction): Promise<void> {
    // Writing first takes the file's write lock at once (waiting up to busy_timeout for other
    // processes), so a transaction never reads a snapshot that another commit then invalidates.
    await trx.raw('UPDATE topocat_write_lock SET n = n + 1 WHERE id = 1');
  }

  async lockResources(): Promise<void> {
    // beginWrite already holds the one write lock of the file: writers are serialised.
  }

  /** One process writes at a time: one counter row has no one to wait for. */
  readonly counterShards = 1;

  rowCountTriggers(table: string, counters: string, column: string): { create: string[]; drop: string[] } {
    const step = (event: 'INSERT' | 'DELETE', delta: string, name: string) =>
      `CREATE TRIGGER ${name} AFTER ${event} ON ${table} BEGIN UPDATE ${counters} SET ${column} = ${column} ${delta} WHERE shard = 0; END`;
    return {
      create: [step('INSERT', '+ 1', `${table}_counted`), step('DELETE', '- 1', `${table}_uncounted`)],
      drop: [`DROP TRIGGER IF EXISTS ${table}_counted`, `DROP TRIGGER IF EXISTS ${table}_uncounted`],
    };
  }

  async prepare(): Promise<void> {
    // The constructor made the directory; SQLite creates the file on first connection.
  }

  async exclusive<T>(_name: string, work: () => Promise<T>): Promise<T> {
    // Only one process ever runs these sections on a SQLite file: the single server process, or
    // the cluster primary before it forks its workers (server/cluster.ts); workers only verify
    // (storage/migrations.ts). So there is nobody to wait for. A real cross-process lock would
    // be hard to make sound here: BEGIN IMMEDIATE on a connection of its own takes the file's
    // one write lock, so `work`, which writes through the writer pool, would wait for itself
    // until busy_timeout; and a lock file outlives a crashed holder.
    return work();
  }

  keyReader(_reader: Knex, poolMax: number): KeyReader {
    return new SqliteKeyReader(this.filename, poolMax);
  }

  async *stream(knex: Knex, query: Knex.QueryBuilder, limit?: number): AsyncIterable<Row> {
    // knex's sqlite3 stream() reads the whole result into memory first; step a statement instead.
    // Every step is a job on the driver's threads (tens of µs), so a result that a small LIMIT
    // bounds is read in one job, and otherwise the steps queued at once grow from 1 to
    // STREAM_BATCH: a one-row answer costs three jobs, not STREAM_BATCH.
    const { sql, bindings } = query.toSQL().toNative();
    const client = knex.client as { acquireConnection(): Promise<Database>; releaseConnection(c: Database): Promise<void> };
    const connection = await client.acquireConnection();
    let statement: Statement | undefined;
    try {
      statement = await new Promise<Statement>((resolve, reject) => {
        const s: Statement = connection.prepare(sql, bindings as unknown[], (error) => (error ? reject(error) : resolve(s)));
      });
      const prepared = statement;
      if (limit !== undefined && limit <= READ_WHOLE_LIMIT) {
        yield* await new Promise<Row[]>((resolve, reject) => prepared.all((error: Error | null, rows: Row[]) => (error ? reject(error) : resolve(rows))));
        return;
      }
      const step = (): Promise<Row | undefined> =>
        new Promise((resolve, reject) => prepared.get((error: Error | null, row?: Row) => (error ? reject(error) : resolve(row))));
      for (let batch = 1; ; batch = Math.min(batch * 2, STREAM_BATCH)) {
        // The statement runs the queued steps in order on its thread.
        const rows = await Promise.all(Array.from({ length: batch }, step));
        for (const row of rows) {
          if (row === undefined) return;
          yield row;
        }
      }
    } finally {
      if (statement) await new Promise<void>((resolve) => statement!.finalize(() => resolve()));
      await client.releaseConnection(connection);
    }
  }

  createExpressionIndex(name: string, table: string, column: string, segments: readonly string[], then: readonly string[]): string {
    return `CREATE INDEX IF NOT EXISTS ${name} ON ${table} (${['kind', `json_extract(${column}, ${jsonPath(segments)})`, ...then].join(', ')})`;
  }

  /**
   * total_changes() of the writer connection when statistics were last refreshed; none yet
   * after start, so the first check analyses whatever the file holds.
   */
  private analyzedAtChanges: number | undefined;

  async refreshStatistics(writer: Knex): Promise<boolean> {
    // Without statistics the planner guesses, and at 100,000 catalog objects it guessed badly:
    // objectIdQuery walked every object of the owner instead of seeking 100 objectIds, and
    // context queries scanned a class in creation order. PRAGMA optimize never analyses a
    // table that has never been analysed, so ANALYZE runs itself once this process (the only
    // writer on its connection) has written enough rows.
    const changes = ((await writer.raw('SELECT total_changes() AS changes')) as { changes: number }[])[0]!.changes;
    // A new writer connection counts from 0 again.
    const since = this.analyzedAtChanges;
    if (since !== undefined && changes >= since && changes - since < ANALYZE_AFTER_CHANGES) return false;
    await writer.raw(`PRAGMA analysis_limit = ${ANALYSIS_LIMIT}`);
    await writer.raw('ANALYZE');
    // Other connections read statistics when they load the schema, which they do when it has
    // changed: re-creating this view is that change.
    await writer.raw('DROP VIEW IF EXISTS topocat_statistics_loaded');
    await writer.raw('CREATE VIEW topocat_statistics_loaded AS SELECT 1 AS loaded');
    const [after] = (await writer.raw('SELECT total_changes() AS changes')) as { changes: number }[];
    this.analyzedAtChanges = after!.changes;
    return true;
  }

  async describeLookupIndexes(knex: Knex, table: string, lookupIndexes: readonly string[]): Promise<void> {
    // Until ANALYZE has run, SQLite answers an IN list on an x-index field (`?name=a,b`) by
    // walking the (kind, ts) index, which yields rows already in list order, and filtering
    // every row of the kind (before the indexes ended in ts and id, plain equalities did too).
    // sqlite_stat1 is the documented way to inform the planner; a row per index that ANALYZE
    // has not measured says "a million rows, 100,000 per kind, 2 per value of the field, 1 per
    // value and ts".
    // ANALYZE of the schema table alone creates sqlite_stat1 and, afterwards, reloads it.
    await knex.raw('ANALYZE sqlite_schema');
    const described = new Set((await knex('sqlite_stat1').select('idx').where('tbl', table)).map((row: { idx: string }) => row.idx));
    const missing = lookupIndexes.filter((name) => !described.has(name));
    if (missing.length === 0) return;
    const rows = [];
    for (const idx of missing) {
      // One figure per column: the columns after (kind, value) single a row out.
      const columns = ((await knex.raw(`PRAGMA index_info(${idx})`)) as unknown[]).length;
      rows.push({ tbl: table, idx, stat: `1000000 100000 2${' 1'.repeat(Math.max(0, columns - 2))}` });
    }
    await knex('sqlite_stat1').insert(rows);
    // Connections opened from now on read the new rows; this one reloads them here.
    await knex.raw('ANALYZE sqlite_schema');
  }

  async listExpressionIndexes(knex: Knex): Promise<string[]> {
    const rows: { name: string }[] = await knex('sqlite_master').select('name').whereRaw("type = 'index' AND name LIKE 'xidx\\_%' ESCAPE '\\'");
    return rows.map((r) => r.name);
  }

  dropIndex(name: string): string {
    return `DROP INDEX IF EXISTS ${name}`;
  }

  isUnavailable(error: unknown): boolean {
    const code = (error as { code?: string } | null)?.code;
    return code === 'SQLITE_BUSY' || code === 'SQLITE_CANTOPEN' || code === 'SQLITE_IOERR' || code === 'SQLITE_FULL' || code === 'SQLITE_LOCKED' ||
      (error instanceof Error && error.name === 'KnexTimeoutError');
  }

  isUniqueViolation(error: unknown): boolean {
    const e = error as { code?: string; message?: string } | null;
    return e?.code === 'SQLITE_CONSTRAINT' && /UNIQUE constraint failed|PRIMARY KEY/.test(e.message ?? '');
  }

  byteOrder(expression: string): string {
    return expression;
  }
}

interface KeyConnection {
  readonly database: Database;
  readonly statements: Map<string, Promise<Statement>>;
}

function openKeyConnection(filename: string): Promise<KeyConnection> {
  return new Promise((resolve, reject) => {
    const database = new sqlite3.Database(filename, sqlite3.OPEN_READWRITE, (error) => {
      if (error) return reject(error);
      // query_only: these connections never write, whatever SQL reaches them.
      database.exec('PRAGMA busy_timeout = 10000; PRAGMA query_only = 1;', (e) => (e ? reject(e) : resolve({ database, statements: new Map() })));
    });
  });
}

/**
 * Key lookups on connections of their own, opened on first use and taken in turn: sqlite3 runs
 * one connection's statements one after another on its worker threads, so several connections
 * let lookups overlap, and WAL lets them read while the writer writes. sqlite3 cannot close a
 * connection that has live statements, so this reader, which prepared them, finalizes them.
 */
class SqliteKeyReader implements KeyReader {
  private connections: Promise<KeyConnection[]> | undefined;
  private turn = 0;

  constructor(
    private readonly filename: string,
    private readonly size: number,
  ) {}

  private open(): Promise<KeyConnection[]> {
    if (!this.connections) {
      const opening = Promise.all(Array.from({ length: this.size }, () => openKeyConnection(this.filename)));
      // A failed open (the file is gone, the disk is full) is retried by the next lookup.
      opening.catch(() => {
        if (this.connections === opening) this.connections = undefined;
      });
      this.connections = opening;
    }
    return this.connections;
  }

  async one(sql: string, bindings: readonly unknown[]): Promise<Row | undefined> {
    const connections = await this.open();
    const connection = connections[this.turn++ % connections.length]!;
    let statement = connection.statements.get(sql);
    if (!statement) {
      statement = new Promise<Statement>((resolve, reject) => {
        const prepared: Statement = connection.database.prepare(sql, (error) => (error ? reject(error) : resolve(prepared)));
      });
      connection.statements.set(sql, statement);
      statement.catch(() => connection.statements.delete(sql));
    }
    const prepared = await statement;
    // all(), not get(): get() leaves the statement mid-result, and its open read transaction
    // would pin the connection's snapshot, so later lookups there would read stale rows.
    const rows = await new Promise<Row[]>((resolve, reject) => prepared.all(bindings as unknown[], (error: Error | null, result: Row[]) => (error ? reject(error) : resolve(result))));
    return rows[0];
  }

  async close(): Promise<void> {
    const connections = await this.connections?.catch(() => undefined);
    this.connections = undefined;
    for (const connection of connections ?? []) {
      const statements = await Promise.allSettled(connection.statements.values());
      for (const s of statements) if (s.status === 'fulfilled') await new Promise<void>((resolve) => s.value.finalize(() => resolve()));
      await new Promise<void>((resolve, reject) => connection.database.close((error) => (error ? reject(error) : resolve())));
    }
  }
}
