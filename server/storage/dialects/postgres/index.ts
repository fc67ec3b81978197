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
import { WritableHost } from './primary.js';
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
  // The one provider of connections to the primary: every pool, the LISTEN connection, the read lease, the lock holder, pg_dump.
  const primary = new WritableHost(settings.hosts, settings.options);
  const locking = new PostgresLocking(settings, primary);
  return {
    sql: { json: postgresJson, columns: postgresColumns, ddl: postgresDdl },
    driver: { connections: new PostgresConnections(settings, locking.keyPrefix, primary), statements: postgresStatements, errors: postgresErrors, limits: { bindings: 65_535 } },
    adapter: { locking, maintenance: new PostgresMaintenance(settings.schema), announcements: new PostgresAnnouncements(settings, primary), backup: new PostgresBackup(settings, primary) },
    features: { history: postgresHistory, time: postgresTime, manifests: postgresManifests, points: postgresPoints },
  };
}
