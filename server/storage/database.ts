import knexFactory, { type Knex } from 'knex';
import type { Logger } from '../log.js';
import type { Dialect } from './dialect.js';
import type { KeyReader } from './key-reader.js';
import { PostgresDialect } from './dialects/postgres.js';
import { SqliteDialect } from './dialects/sqlite.js';
import { migrate, verifyMigrated } from './migrations.js';

/**
 * An open database: a pool that reads, a pool that writes (the same pool where the engine
 * handles concurrent writers itself) and the dialect that knows how to talk to it.
 */
export interface Database {
  readonly dialect: Dialect;
  readonly reader: Knex;
  readonly writer: Knex;
  /** Prepared lookups by key, beside the reader pool (see KeyReader). */
  readonly keys: KeyReader;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  readonly url: string;
  readonly poolMax: number;
  /** Where knex's own warnings go; without it knex prints them on stdout, among the JSON logs. */
  readonly logger?: Logger;
  /**
   * `run` (default): bring the schema up to date. `verify`: only check that it is, for a cluster
   * worker, whose primary migrated before forking.
   */
  readonly migrations?: 'run' | 'verify';
}

function knexLog(logger: Logger): Knex.Logger {
  return {
    warn: (message: unknown) => logger.warn({ component: 'knex' }, String(message)),
    error: (message: unknown) => logger.error({ component: 'knex' }, String(message)),
    debug: (message: unknown) => logger.debug({ component: 'knex' }, String(message)),
    deprecate: (method: string, alternative: string) => logger.warn({ component: 'knex' }, `${method} is deprecated; use ${alternative}`),
  };
}

export function dialectFor(url: string): Dialect {
  if (url.startsWith('sqlite:')) return new SqliteDialect(url);
  if (/^postgres(ql)?:\/\//.test(url)) return new PostgresDialect(url);
  throw new Error(`DATABASE_URL: unsupported database "${url.split(':')[0]}"`);
}

/**
 * Connect and bring the schema up to date (processes that start together take turns), or check
 * that it is (`migrations: 'verify'`).
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const dialect = dialectFor(options.url);
  const log = options.logger ? { log: knexLog(options.logger) } : {};
  const reader = knexFactory({ ...dialect.readerConfig(options.poolMax), ...log });
  const writerConfig = dialect.writerConfig();
  const writer = writerConfig ? knexFactory({ ...writerConfig, ...log }) : reader;
  const keys = dialect.keyReader(reader, options.poolMax);
  const database: Database = {
    dialect,
    reader,
    writer,
    keys,
    async close() {
      await keys.close();
      if (writer !== reader) await writer.destroy();
      await reader.destroy();
    },
  };
  try {
    await (options.migrations === 'verify' ? verifyMigrated(database) : migrate(database));
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}
