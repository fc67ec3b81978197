import type { Logger } from '../log.js';
import type { Database } from './contract/database.js';
import { dialectFor } from './dialects/index.js';
import { migrate, verifyMigrated } from './migrations.js';
import { type StartLock } from './start-lock.js';

export interface DatabaseOptions {
  readonly url: string;
  readonly poolMax: number;
  /** DATABASE_READ_URLS and READ_WAIT_MS (PostgreSQL): standbys that serve reads. */
  readonly standbys?: { readonly urls: readonly string[]; readonly waitMs: number };
  /** Where the drivers' own warnings go; without it knex prints them on stdout, among the JSON logs. */
  readonly logger?: Logger;
  /**
   * `run` (default): bring the schema up to date. `verify`: only check that it is, for a cluster
   * worker, whose primary migrated before forking.
   */
  readonly migrations?: 'run' | 'verify';
  /**
   * How long the migrations may wait for the write lock of another process (see StartLock):
   * the start's own, shared with its later steps; none given, they do not wait.
   */
  readonly startLock?: StartLock;
}

/**
 * Connect and bring the schema up to date (processes that start together take turns), or check
 * that it is (`migrations: 'verify'`).
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const dialect = dialectFor(options.url);
  const pools = dialect.driver.connections.open({ poolMax: options.poolMax, ...(options.logger ? { logger: options.logger } : {}), ...(options.standbys ? { standbys: options.standbys } : {}) });
  const database: Database = { dialect, ...pools };
  try {
    if (options.migrations === 'verify') await verifyMigrated(database);
    else if (options.startLock) await options.startLock.run(dialect.driver.errors, 'migrations', () => migrate(database));
    else await migrate(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}
