import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Dialect } from '../../contract/dialect.js';
import { sqliteAnnouncements } from './announcements.js';
import { SqliteBackup } from './backup.js';
import { SqliteConnections } from './connections.js';
import { sqliteDdl } from './ddl.js';
import { sqliteErrors } from './errors.js';
import { sqliteHistory } from './history.js';
import { sqliteLocking } from './locking.js';
import { SqliteMaintenance } from './maintenance.js';
import { sqlitePoints } from './points.js';
import { sqliteColumns, sqliteJson } from './sql.js';
import { sqliteStatements } from './write-statements.js';
import { sqliteTime } from './time.js';
import { sqliteManifests } from './manifests.js';

/**
 * SQLite, the embedded default: one file in WAL mode, one writer connection per process with
 * group commit, readers beside it, and key lookups on a connection of their own.
 */
export function sqliteDialect(databaseUrl: string): Dialect {
  const location = databaseUrl.replace(/^sqlite:(\/\/)?/, '');
  if (location === '' || location === ':memory:') {
    throw new Error('DATABASE_URL: SQLite needs a file (sqlite:./data/topocat.sqlite); several connections share it');
  }
  const filename = path.resolve(location);
  mkdirSync(path.dirname(filename), { recursive: true });
  return {
    sql: { json: sqliteJson, columns: sqliteColumns, ddl: sqliteDdl },
    driver: { connections: new SqliteConnections(filename), statements: sqliteStatements, errors: sqliteErrors, limits: { bindings: 32_766 } },
    adapter: { locking: sqliteLocking, maintenance: new SqliteMaintenance(filename), announcements: sqliteAnnouncements, backup: new SqliteBackup(filename) },
    features: { history: sqliteHistory, time: sqliteTime, manifests: sqliteManifests, points: sqlitePoints },
  };
}
