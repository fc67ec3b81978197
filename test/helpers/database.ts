import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';

export type Engine = 'sqlite' | 'postgres';

/** The engine this mocha run tests; the runner (test/run.ts) sets it, SQLite otherwise. */
export const engine: Engine = process.env.TOPOCAT_TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';

/** A database of its own for one test server (or several that share it). */
export interface TestDatabase {
  /** DATABASE_URL for the server. */
  readonly url: string;
  /** PostgreSQL: the schema that isolates this database; it exists once a server has started on it. */
  readonly schema?: string;
  /** Remove it and everything in it. */
  drop(): Promise<void>;
}

/** The PostgreSQL server that PostgreSQL runs use (one fresh schema per test database). */
export function postgresUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TOPOCAT_TEST_DATABASE=postgres needs TEST_DATABASE_URL=postgres://…');
  return url;
}

export function withSchema(url: string, schema: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}schema=${schema}`;
}

/** Run `work` with a connection of the test's own to a PostgreSQL database (in `schema` when given). */
export async function withPostgres<T>(url: string, work: (knex: Knex) => Promise<T>, schema?: string): Promise<T> {
  const knex = knexFactory({
    client: 'pg',
    connection: { connectionString: url, connectionTimeoutMillis: 5_000 },
    ...(schema !== undefined ? { searchPath: [schema] } : {}),
    pool: { min: 0, max: 1 },
    // Failures reach the caller as exceptions; knex's console copy of them is noise.
    log: { warn: () => undefined, error: () => undefined },
  });
  try {
    return await work(knex);
  } finally {
    await knex.destroy();
  }
}

/**
 * A fresh, empty database on the engine under test: a temporary SQLite file, or a new schema on
 * TEST_DATABASE_URL (the server creates it), so runs never see each other's data and may run at
 * the same time.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (engine === 'sqlite') {
    const dir = await mkdtemp(path.join(tmpdir(), 'topocat-test-'));
    return { url: `sqlite:${path.join(dir, 'topocat.sqlite')}`, drop: () => rm(dir, { recursive: true, force: true }) };
  }
  const base = postgresUrl();
  const schema = `topocat_test_${randomBytes(8).toString('hex')}`;
  return {
    url: withSchema(base, schema),
    schema,
    drop: () => withPostgres(base, async (knex) => void (await knex.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]))),
  };
}

/** Run `work` with a read-only connection of the test's own to a test database, on either engine (the oracle of what a server stored). */
export async function readTestDatabase<T>(database: TestDatabase, work: (knex: Knex) => Promise<T>): Promise<T> {
  if (engine === 'postgres') return withPostgres(postgresUrl(), work, database.schema);
  const knex = knexFactory({ client: 'better-sqlite3', connection: { filename: database.url.replace(/^sqlite:/, ''), options: { readonly: true } } as Knex.Sqlite3ConnectionConfig, useNullAsDefault: true });
  try {
    return await work(knex);
  } finally {
    await knex.destroy();
  }
}
