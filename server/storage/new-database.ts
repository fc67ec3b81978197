import { stat } from 'node:fs/promises';
import type { Logger } from '../log.js';
import { dialectFor } from './dialects/index.js';
import { databaseFileOf } from './dialects/urls.js';
import { hasMigrationsTable } from './migrations.js';

/**
 * Whether the database of a DATABASE_URL is new: nothing of topocat in it yet. Asked without
 * writing anything, not even the SQLite file or the PostgreSQL schema (opening either engine
 * through its dialect would make them: the SQLite dialect makes the file's folder and its
 * connections the file, the migrations the schema): a SQLite file that does not exist or holds
 * no byte; a PostgreSQL schema without topocat's migrations table (or with no such schema). What
 * an import's dry run needs to know (server/unis/import-cli.ts). A database that cannot be
 * reached throws.
 */
export async function isNewDatabase(url: string, logger?: Logger): Promise<boolean> {
  const path = databaseFileOf(url);
  if (path !== undefined) {
    const file = await stat(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (file?.isDirectory()) throw new Error(`${path} is a folder, not a SQLite file`);
    return file === undefined || file.size === 0;
  }
  const pools = dialectFor(url).driver.connections.open({ poolMax: 1, ...(logger ? { logger } : {}) });
  try {
    return !(await hasMigrationsTable(pools));
  } finally {
    await pools.close();
  }
}
