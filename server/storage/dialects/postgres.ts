import knexFactory, { type Knex } from 'knex';
import type { Comparison, Dialect, JsonSource, Row, ScalarType } from '../dialect.js';
import type { KeyReader } from '../key-reader.js';

/** Rows per round trip of the portal behind a streamed list. */
const STREAM_BATCH = 200;
/** Opening a connection: an unreachable server must turn into a quick 503, not a hung request. */
const CONNECT_TIMEOUT_MS = 2_000;
/** Waiting for a pooled connection: past this the request is answered 503 (the pool is exhausted). */
const ACQUIRE_TIMEOUT_MS = 3_000;
/** First TCP keepalive probe on an idle connection, so a silently vanished server is noticed. */
const KEEPALIVE_DELAY_MS = 10_000;

const INT8_OID = 20;
const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** The parts of a `pg` client the pool hook uses. */
interface PgClient {
  setTypeParser(oid: number, format: 'text', parse: (text: string) => unknown): void;
}

/**
 * bigint columns (`ts`, µs since the epoch, about 2^51 today) as numbers. A value beyond 2^53
 * stays text, so no digit is ever silently lost.
 */
function parseInt8(text: string): number | string {
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : text;
}

/** `'{"a","b"}'`: a text[] literal for #> and #>>. Quoted, so a segment named `null` stays a name. */
function jsonPath(segments: readonly string[]): string {
  return `'{${segments.map((s) => `"${s}"`).join(',')}}'`;
}

/**
 * The JSON value at `segments` of `from` (`text`: as text). `#>` reads a segment of digits as an
 * index into a list; a segment is a member name in the query language (as SQLite reads it), so
 * such a path steps with `->` and a text key, which finds nothing in a list.
 */
function valueAt(from: string, segments: readonly string[], text = false): string {
  if (!segments.some((segment) => /^\d+$/.test(segment))) return `(${from} ${text ? '#>>' : '#>'} ${jsonPath(segments)})`;
  const value = segments.reduce((expression, segment) => `(${expression} -> '${segment}')`, from);
  return text ? `(${value} #>> '{}')` : value;
}

/** Network failures of the driver's socket: the server is down, unreachable or gone. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'EHOSTDOWN', 'ENETUNREACH', 'ENETDOWN',
  'ENOTFOUND', 'EAI_AGAIN', 'ENOENT',
]);

/**
 * SQLSTATEs of a server that cannot serve now: class 08 (connection exception), 53 (insufficient
 * resources: too many connections, disk full, out of memory), 58 (I/O error), and 57P0x
 * (terminated by shutdown, crash, "cannot connect now" while starting or stopping, dropped).
 */
function unavailableState(code: string): boolean {
  return code.startsWith('08') || code.startsWith('53') || code.startsWith('58') || code.startsWith('57P0');
}

/** Driver errors that carry no code; knex prefixes the message with the query, hence no anchor. */
const DRIVER_GONE = /Connection terminated|timeout expired|is not queryable|Connection ended unexpectedly/;

/**
 * PostgreSQL: several server processes on one database. Documents are jsonb; writers of one
 * resource serialise on a transaction-scoped advisory lock; migrations and index changes run
 * under a database-wide advisory lock; lists stream through a portal (pg-query-stream).
 *
 * String conditions are written as `(doc #>> '{a,b}') COLLATE "C"`, exactly the expression of
 * the `x-index` indexes, so the planner uses them; "C" makes comparisons and ordering bytewise,
 * as in SQLite, whatever the database's default collation.
 */
export class PostgresDialect implements Dialect {
  readonly name = 'postgres';
  readonly documentType = 'jsonb';
  /** The schema of `?schema=` (tables live there), or undefined for the server's search_path. */
  readonly schema: string | undefined;
  private readonly connection: Knex.PgConnectionConfig;

  constructor(databaseUrl: string) {
    const queryStart = databaseUrl.indexOf('?');
    const base = queryStart < 0 ? databaseUrl : databaseUrl.slice(0, queryStart);
    const parameters = new URLSearchParams(queryStart < 0 ? '' : databaseUrl.slice(queryStart + 1));
    const schema = parameters.get('schema') ?? undefined;
    // Not a libpq parameter: the driver must not see it.
    parameters.delete('schema');
    if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
      throw new Error(`DATABASE_URL: schema "${schema}" must be a plain identifier (letters, digits, _; at most 63)`);
    }
    this.schema = schema;
    const rest = parameters.toString();
    this.connection = {
      // Rebuilt only when `schema` had to be taken out, so every other URL reaches pg untouched.
      connectionString: schema === undefined ? databaseUrl : rest === '' ? base : `${base}?${rest}`,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
      // Names the service's sessions in pg_stat_activity (an application_name in the URL wins).
      application_name: 'topocat',
    };
  }

  readerConfig(poolMax: number): Knex.Config {
    return {
      client: 'pg',
      connection: this.connection,
      ...(this.schema !== undefined ? { searchPath: [this.schema] } : {}),
      acquireConnectionTimeout: ACQUIRE_TIMEOUT_MS,
      pool: {
        // Idle connections close after the pool's idle timeout; after an outage none is kept stale.
        min: 0,
        max: poolMax,
        afterCreate(connection: PgClient, done: (error: Error | null, connection: PgClient) => void) {
          // Per connection rather than pg's global type table: pg-query-stream's cursors use it too.
          connection.setTypeParser(INT8_OID, 'text', parseInt8);
          done(null, connection);
        },
      },
    };
  }

  writerConfig(): undefined {
    // PostgreSQL handles concurrent writers itself: writes share the one pool.
    return undefined;
  }

  keyType(length: number): string {
    return `varchar(${length}) COLLATE "C"`;
  }

  documentValue(knex: Knex, json: string): Knex.Raw {
    return knex.raw('?::jsonb', [json]);
  }

  documentText(knex: Knex, column: string): Knex.Raw {
    // The stored JSON as text: no parse and re-serialise on the way to the client.
    return knex.raw('??::text AS ??', [column, column]);
  }

  compare(source: JsonSource, segments: readonly string[], comparison: Comparison, type: ScalarType, count: number): string {
    const value = this.value(source, segments);
    const right = comparison === 'IN' ? `IN (${Array(count).fill('?').join(', ')})` : `${comparison} ?`;
    switch (type) {
      case 'string':
        return `(jsonb_typeof(${value}) = 'string' AND ${this.text(source, segments)} COLLATE "C" ${right})`;
      // AND does not fix the order of evaluation in PostgreSQL; CASE does, so odd data (a string
      // where a number was expected) is never cast.
      case 'number':
        return `(CASE WHEN jsonb_typeof(${value}) = 'number' THEN (${value})::numeric END ${right})`;
      case 'boolean':
        return `(CASE WHEN jsonb_typeof(${value}) = 'boolean' THEN (${value})::boolean END ${right})`;
    }
  }

  jsonRows(columns: readonly string[], orderBy: string): string {
    // json_agg of no rows is NULL; as text, so pg hands over the string rather than parsing it.
    return `COALESCE(json_agg(json_build_array(${columns.join(', ')}) ORDER BY ${orderBy}), '[]'::json)::text`;
  }

  bindValue(value: string | number | boolean): unknown {
    return value;
  }

  arrayElements(source: JsonSource, segments: readonly string[], alias: string): string {
    const value = this.value(source, segments);
    // jsonb_array_elements raises on a non-array; NULL gives no rows.
    return `jsonb_array_elements(CASE WHEN jsonb_typeof(${value}) = 'array' THEN ${value} END) AS ${alias}(value)`;
  }

  sortKeys(column: string, segments: readonly string[]): string[] {
    const value = valueAt(column, segments);
    const type = `jsonb_typeof(${value})`;
    // SQLite's order of json_extract values: NULL (missing or JSON null), then numbers with
    // booleans as 0 and 1, then text (strings; objects and arrays as their JSON), bytewise.
    return [
      `CASE ${type} WHEN 'number' THEN 0 WHEN 'boolean' THEN 0 WHEN 'string' THEN 1 WHEN 'object' THEN 1 WHEN 'array' THEN 1 END`,
      `CASE ${type} WHEN 'number' THEN (${value})::numeric WHEN 'boolean' THEN CASE WHEN (${value})::boolean THEN 1 ELSE 0 END END`,
      `CASE WHEN ${type} IN ('string', 'object', 'array') THEN ${valueAt(column, segments, true)} END COLLATE "C"`,
    ];
  }

  async beginWrite(): Promise<void> {
    // Row locks and advisory locks are taken where needed; nothing has to come first.
  }

  async lockResources(trx: Knex.Transaction, scope: string, keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    // One round trip for a whole batch, locks taken in hash order (the same in every process).
    // The schema is part of the key so that databases in separate schemas never wait on each other.
    await trx.raw(
      'SELECT count(pg_advisory_xact_lock(h)) FROM (SELECT DISTINCT hashtextextended(? || k, 0) AS h FROM unnest(?::text[]) AS k ORDER BY h) AS locks',
      [`${this.schema ?? ''}/${scope}/`, [...keys]],
    );
  }

  /**
   * Each session updates the row of its backend (pid % 16), so writers in other sessions rarely
   * wait on the same row, and a transaction touches one row only: no lock cycles among them.
   */
  readonly counterShards = 16;

  rowCountTriggers(table: string, counters: string, column: string): { create: string[]; drop: string[] } {
    // Statement-level, over the transition table: one UPDATE per statement, not per row.
    const step = (event: 'INSERT' | 'DELETE', transition: 'NEW' | 'OLD', sign: '+' | '-', name: string) => [
      `CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
         UPDATE ${counters} SET ${column} = ${column} ${sign} (SELECT count(*) FROM changed) WHERE shard = pg_backend_pid() % ${this.counterShards};
         RETURN NULL;
       END $$`,
      `CREATE TRIGGER ${name} AFTER ${event} ON ${table} REFERENCING ${transition} TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ${name}()`,
    ];
    return {
      create: [...step('INSERT', 'NEW', '+', `${table}_counted`), ...step('DELETE', 'OLD', '-', `${table}_uncounted`)],
      drop: [`${table}_counted`, `${table}_uncounted`].flatMap((name) => [`DROP TRIGGER IF EXISTS ${name} ON ${table}`, `DROP FUNCTION IF EXISTS ${name}()`]),
    };
  }

  async prepare(knex: Knex): Promise<void> {
    if (this.schema === undefined) return;
    // Looked up first: CREATE SCHEMA IF NOT EXISTS needs the CREATE privilege even when it exists.
    const found = await knex('pg_namespace').first('nspname').where('nspname', this.schema);
    if (!found) await knex.raw('CREATE SCHEMA IF NOT EXISTS ??', [this.schema]);
  }

  async exclusive<T>(name: string, work: () => Promise<T>): Promise<T> {
    // A connection of its own holds the lock, so `work` may use every connection of the pools
    // (even when DATABASE_POOL_MAX is 1); the lock ends with its transaction, or with the
    // connection if this process dies.
    const holder = knexFactory({
      client: 'pg',
      connection: this.connection,
      acquireConnectionTimeout: ACQUIRE_TIMEOUT_MS,
      pool: { min: 0, max: 1 },
      // Its failures reach the caller (and the start-up log) as exceptions; knex would also
      // print them on stdout, among the JSON logs.
      log: { warn: () => undefined, error: () => undefined },
    });
    try {
      return await holder.transaction(async (trx) => {
        await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`topocat:${name}:${this.schema ?? ''}`]);
        return work();
      });
    } finally {
      await holder.destroy();
    }
  }

  keyReader(reader: Knex): KeyReader {
    return new PostgresKeyReader(reader);
  }

  async *stream(_knex: Knex, query: Knex.QueryBuilder): AsyncIterable<Row> {
    // knex streams through pg-query-stream: a portal that fetches STREAM_BATCH rows at a time,
    // the next batch only once the consumer has taken the last. Started here, on first read, so
    // a list that is never read holds no connection.
    const rows = query.stream({ batchSize: STREAM_BATCH, highWaterMark: STREAM_BATCH });
    try {
      for await (const row of rows) yield row as Row;
    } finally {
      rows.destroy();
    }
  }

  createExpressionIndex(name: string, table: string, column: string, segments: readonly string[], then: readonly string[]): string {
    return `CREATE INDEX IF NOT EXISTS ${name} ON ${table} (${['kind', `(${column} #>> ${jsonPath(segments)}) COLLATE "C"`, ...then].join(', ')})`;
  }

  async refreshStatistics(): Promise<boolean> {
    // Autovacuum analyses tables as they change.
    return false;
  }

  async describeLookupIndexes(): Promise<void> {
    // Autovacuum's ANALYZE measures expression indexes on real data: the planner knows.
  }

  async listExpressionIndexes(knex: Knex): Promise<string[]> {
    const rows: { indexname: string }[] = await knex('pg_indexes')
      .select('indexname')
      .whereRaw("schemaname = current_schema() AND indexname LIKE 'xidx\\_%'");
    return rows.map((r) => r.indexname);
  }

  dropIndex(name: string): string {
    return `DROP INDEX IF EXISTS ${name}`;
  }

  isUnavailable(error: unknown): boolean {
    if (error === null || typeof error !== 'object') return false;
    const { code, name, message, errors, cause } = error as { code?: unknown; name?: unknown; message?: unknown; errors?: unknown; cause?: unknown };
    if (name === 'KnexTimeoutError') return true;
    // Connecting to a name with several addresses fails with all of them at once.
    if (Array.isArray(errors) && errors.some((e) => this.isUnavailable(e))) return true;
    if (typeof code === 'string') {
      // A SQLSTATE decides alone: a query's own error is never a reason to answer 503.
      if (/^[0-9A-Z]{5}$/.test(code)) return unavailableState(code);
      if (NETWORK_CODES.has(code)) return true;
    }
    if (code === undefined && typeof message === 'string' && DRIVER_GONE.test(message)) return true;
    return cause !== undefined && cause !== error && this.isUnavailable(cause);
  }

  /** The JSON (jsonb) value at `segments` of `source`. */
  private value(source: JsonSource, segments: readonly string[]): string {
    const from = source.kind === 'column' ? source.column : `${source.alias}.value`;
    return segments.length === 0 ? from : valueAt(from, segments);
  }

  /** The same value as text: a string's own characters; the expression the indexes are built on. */
  private text(source: JsonSource, segments: readonly string[]): string {
    const from = source.kind === 'column' ? source.column : `${source.alias}.value`;
    return valueAt(from, segments, true);
  }

  isUniqueViolation(error: unknown): boolean {
    return (error as { code?: string } | null)?.code === '23505';
  }

  byteOrder(expression: string): string {
    // Code-point order, as SQLite compares, whatever the database's collation.
    return `${expression} COLLATE "C"`;
  }
}

/** The parts of a pooled `pg` client a key lookup uses. */
interface PgQueryable {
  query(config: { name: string; text: string; values: readonly unknown[] }): Promise<{ rows: Row[] }>;
}

/**
 * Key lookups as named prepared statements on the reader pool's connections: pg prepares each
 * name once per session and afterwards sends only the values. The pool (and so its timeouts,
 * which turn an outage into 503s) is knex's.
 */
class PostgresKeyReader implements KeyReader {
  private readonly statements = new Map<string, { name: string; text: string }>();

  constructor(private readonly knex: Knex) {}

  async one(sql: string, bindings: readonly unknown[]): Promise<Row | undefined> {
    let statement = this.statements.get(sql);
    if (!statement) {
      let n = 0;
      statement = { name: `topocat_key_${this.statements.size}`, text: sql.replace(/\?/g, () => `$${++n}`) };
      this.statements.set(sql, statement);
    }
    const client = this.knex.client as { acquireConnection(): Promise<PgQueryable>; releaseConnection(c: PgQueryable): Promise<void> };
    const connection = await client.acquireConnection();
    try {
      const result = await connection.query({ ...statement, values: bindings });
      return result.rows[0];
    } finally {
      await client.releaseConnection(connection);
    }
  }

  async close(): Promise<void> {
    // The statements live in the pool's sessions, which close with the pool.
  }
}
