import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import type { Database, Statement } from 'sqlite3';
import type { Comparison, Dialect, JsonSource, Row, ScalarType } from '../dialect.js';

/** Rows fetched per round trip to the SQLite thread while streaming. */
const STREAM_BATCH = 128;

/** `$."a"."b"`: a JSON path literal for json_extract; segments never contain quotes. */
function jsonPath(segments: readonly string[]): string {
  return `'$${segments.map((s) => `."${s}"`).join('')}'`;
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
      const from = source.kind === 'column' ? source.column : `${source.alias}.value`;
      value = `json_extract(${from}, ${jsonPath(segments)})`;
      jsonType = `json_type(${from}, ${jsonPath(segments)})`;
    }
    const right = comparison === 'IN' ? `IN (${Array(count).fill('?').join(', ')})` : `${comparison} ?`;
    // The type guard is needed even for strings: SQLite orders every number before every text,
    // so `< 'b'` alone would match numbers. The bare value expression stays a conjunct of its
    // own, the one the expression indexes are built on.
    return `(${jsonType} IN ${JSON_TYPES[type]} AND ${value} ${right})`;
  }

  bindValue(value: string | number | boolean, type: ScalarType): unknown {
    return type === 'boolean' ? (value ? 1 : 0) : value;
  }

  arrayElements(source: JsonSource, segments: readonly string[], alias: string): string {
    const from = source.kind === 'column' ? source.column : `${source.alias}.value`;
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

  async *stream(knex: Knex, query: Knex.QueryBuilder): AsyncIterable<Row> {
    // knex's sqlite3 stream() reads the whole result into memory first; step a statement instead.
    const { sql, bindings } = query.toSQL().toNative();
    const client = knex.client as { acquireConnection(): Promise<Database>; releaseConnection(c: Database): Promise<void> };
    const connection = await client.acquireConnection();
    let statement: Statement | undefined;
    try {
      statement = await new Promise<Statement>((resolve, reject) => {
        const s: Statement = connection.prepare(sql, bindings as unknown[], (error) => (error ? reject(error) : resolve(s)));
      });
      const prepared = statement;
      const step = (): Promise<Row | undefined> =>
        new Promise((resolve, reject) => prepared.get((error: Error | null, row?: Row) => (error ? reject(error) : resolve(row))));
      for (;;) {
        // Queue a batch of steps at once; the statement runs them in order on its thread.
        const rows = await Promise.all(Array.from({ length: STREAM_BATCH }, step));
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

  createExpressionIndex(name: string, table: string, column: string, segments: readonly string[]): string {
    return `CREATE INDEX IF NOT EXISTS ${name} ON ${table} (kind, json_extract(${column}, ${jsonPath(segments)}))`;
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
