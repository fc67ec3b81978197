import { createRequire } from 'node:module';
import type { Knex } from 'knex';

/** What the SQLite clients use of knex's own better-sqlite3 client. */
export interface BaseClient {
  readonly connectionSettings: { filename: string };
  _formatBindings(bindings: readonly unknown[] | undefined): unknown[];
}

/** The query knex hands to a client to run, and where the client puts the outcome. */
export interface KnexQuery {
  sql: string;
  bindings?: readonly unknown[];
  response?: unknown;
  context?: { lastID: number | bigint; changes: number };
}

const require = createRequire(import.meta.url);

/** knex's `better-sqlite3` client, which knex-client.ts and read-client.ts extend. */
export const BetterSqlite3Client = require('knex/lib/dialects/better-sqlite3/index.js') as new (config: Knex.Config) => BaseClient;
