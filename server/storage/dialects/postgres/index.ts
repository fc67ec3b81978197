import type { Dialect } from '../../contract/dialect.js';
import { PostgresAnnouncements } from './announcements.js';
import { PostgresBackup } from './backup.js';
import { PostgresConnections } from './connections.js';
import { postgresDdl } from './ddl.js';
import { postgresErrors } from './errors.js';
import { postgresHistory } from './history.js';
import { PostgresLocking } from './locking.js';
import { PostgresMaintenance } from './maintenance.js';
import { postgresPoints } from './points.js';
import { postgresSettings } from './settings.js';
import { postgresColumns, postgresJson } from './sql.js';
import { postgresStatements } from './write-statements.js';
import { postgresTime } from './time.js';
import { postgresManifests } from './manifests.js';

/**
 * PostgreSQL: several server processes on one database. Documents are jsonb; writers of one
 * resource serialise on a transaction-scoped advisory lock; lists stream through a portal.
 */
export function postgresDialect(databaseUrl: string): Dialect {
  const settings = postgresSettings(databaseUrl);
  const locking = new PostgresLocking(settings);
  return {
    name: 'postgres',
    json: postgresJson,
    columns: postgresColumns,
    ddl: postgresDdl,
    connections: new PostgresConnections(settings, locking.keyPrefix),
    locking,
    maintenance: new PostgresMaintenance(settings.schema),
    errors: postgresErrors,
    points: postgresPoints,
    statements: postgresStatements,
    history: postgresHistory,
    limits: { bindings: 65_535 },
    backup: new PostgresBackup(settings),
    manifests: postgresManifests,
    time: postgresTime,
    announcements: new PostgresAnnouncements(settings),
  };
}
