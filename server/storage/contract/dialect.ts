import type { Announcements, Backup, Locking, Maintenance } from './adapter.js';
import type { Connections, ErrorClassifier, StatementLimits, WriteStatements } from './driver.js';
import type { HistorySql, ManifestSql, PointSql, TimeSql } from './features.js';
import type { ColumnSql, JsonSql, SchemaSql } from './sql.js';

/**
 * Everything that differs between SQLite and PostgreSQL, in small parts, Kysely's way: each part
 * is one concern with a few members, and each engine implements them in a folder of its own
 * (`dialects/sqlite/`, `dialects/postgres/`). The stores and the query compilers build SQL only
 * through these parts, so no engine-specific SQL lives elsewhere.
 *
 * Field paths reach the SQL builders only as segments that the query parser has restricted to
 * `[A-Za-z0-9_$@:-]`, which is why they can be written into SQL as literals; values are always
 * bound parameters.
 */
export interface Dialect {
  readonly name: 'sqlite' | 'postgres';
  /** SQL building: conditions and ordering on JSON documents. */
  readonly json: JsonSql;
  /** SQL building: how columns are written and read. */
  readonly columns: ColumnSql;
  /** SQL building: tables, indexes and triggers. */
  readonly ddl: SchemaSql;
  /** Connections: pools, prepared key reads, streams and write transactions. */
  readonly connections: Connections;
  /** Locking: writers of the same resources, and sections only one process may run. */
  readonly locking: Locking;
  /** Maintenance: the schema's prerequisites, the planner's statistics, the indexes present. */
  readonly maintenance: Maintenance;
  /** Error classification: what a driver error means to the stores. */
  readonly errors: ErrorClassifier;
  /** Word of committed changes between processes (see storage/change-feed.ts). */
  readonly announcements: Announcements;
  /** SQL building: the data points of the measurement store (storage/measurements/). */
  readonly points: PointSql;
  /** Statements of write jobs run without the query builder, prepared once. */
  readonly statements: WriteStatements;
  /** Versions and their events: how they are written, numbered, and read back in order. */
  readonly history: HistorySql;
  /** What one statement may hold at most. */
  readonly limits: StatementLimits;
  /** Online backups of the whole database (`npm run backup`, docs/running.md). */
  readonly backup: Backup;
  /** Reads of the past: the stored history as it stood at an instant, and what changed between two. */
  readonly time: TimeSql;
  /** The triggers that keep each collection's manifest as writes happen (storage/manifests.ts). */
  readonly manifests: ManifestSql;
}
