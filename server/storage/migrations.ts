import type { Knex } from 'knex';
import type { Database } from './contract/database.js';
import type { Dialect } from './contract/dialect.js';
import { catalogContentVersionMigration, catalogCountsMigration, catalogGraphMigration, catalogMigration } from './catalog/tables.js';
import { eventOrderMigration, eventsMigration } from './events.js';
import { manifestsMigration } from './manifests.js';
import { measurementsMigration } from './measurements/tables.js';
import { serviceFactsMigration } from './service-facts.js';
import { resultStreamsMigration } from './catalog/result-streams.js';
import { LockBusy } from './start-lock.js';
import { historyTimeMigration } from './time-sql.js';
import { idLengthMigration } from './id-length.js';

/**
 * Schema migrations, kept in code (not a directory of files) so the compiled server carries
 * them. Append new steps; never edit a step that has shipped.
 */
function steps(dialect: Dialect): Record<string, Knex.Migration> {
  return {
    '0001_resources': {
      async up(knex) {
        // Every representation ever stored; append-only. A deletion is a row with deleted = true.
        await knex.schema.createTable('resource_history', (t) => {
          t.specificType('kind', dialect.sql.ddl.keyType(64)).notNullable();
          t.specificType('id', dialect.sql.ddl.keyType(256)).notNullable();
          t.bigInteger('ts').notNullable();
          t.specificType('doc', dialect.sql.ddl.documentType).nullable();
          t.boolean('deleted').notNullable().defaultTo(false);
          t.primary(['kind', 'id', 'ts']);
        });
        // The newest live representation of each resource, written in the same transaction as its
        // history row, so lists and queries never scan old versions.
        await knex.schema.createTable('resource_current', (t) => {
          t.specificType('kind', dialect.sql.ddl.keyType(64)).notNullable();
          t.specificType('id', dialect.sql.ddl.keyType(256)).notNullable();
          t.bigInteger('ts').notNullable();
          t.specificType('doc', dialect.sql.ddl.documentType).notNullable();
          t.primary(['kind', 'id']);
          t.index(['kind', 'ts'], 'resource_current_kind_ts');
        });
        await dialect.adapter.locking.migration.up(knex);
      },
      async down(knex) {
        await dialect.adapter.locking.migration.down(knex);
        await knex.schema.dropTable('resource_current');
        await knex.schema.dropTable('resource_history');
      },
    },
    '0002_catalog': catalogMigration,
    '0003_catalog_counts': catalogCountsMigration(dialect),
    '0004_service_facts': serviceFactsMigration(dialect),
    '0005_events': eventsMigration(dialect),
    '0006_measurements': measurementsMigration(dialect),
    '0007_catalog_graph': catalogGraphMigration,
    '0008_event_order': eventOrderMigration(dialect),
    '0010_history_time': historyTimeMigration,
    '0014_manifests': manifestsMigration(dialect),
    '0015_catalog_result_streams': resultStreamsMigration,
    '0016_insert_if': dialect.features.history.insertIfMigration,
    '0017_catalog_content_version': catalogContentVersionMigration,
    '0018_list_positions': dialect.features.history.listPositionMigration,
    '0019_id_length': idLengthMigration(dialect),
  };
}

class InCodeMigrations implements Knex.MigrationSource<string> {
  private readonly all: Record<string, Knex.Migration>;
  constructor(dialect: Dialect) {
    this.all = steps(dialect);
  }
  async getMigrations(): Promise<string[]> {
    return Object.keys(this.all).sort();
  }
  getMigrationName(name: string): string {
    return name;
  }
  async getMigration(name: string): Promise<Knex.Migration> {
    return this.all[name]!;
  }
}

const MIGRATIONS_TABLE = 'topocat_migrations';

export async function migrate(database: Database): Promise<void> {
  // A restart on a current schema writes nothing here: no write lock to wait for while an old
  // process still stops (storage/start-lock.ts).
  if ((await pendingMigrations(database)).length === 0) return;
  // knex's own migration lock fails at once instead of waiting; processes starting together
  // queue here instead, and each finds the work done by the one before.
  await database.dialect.adapter.locking.exclusive('migrations', async () => {
    await database.dialect.adapter.maintenance.prepare(database.writer);
    try {
      await database.writer.migrate.latest({
        migrationSource: new InCodeMigrations(database.dialect),
        tableName: MIGRATIONS_TABLE,
      });
    } catch (error) {
      // knex's lock could not be taken (its row written, or held by another migrating process);
      // the migrations ran in one transaction, rolled back: the start may try again.
      if ((error as { name?: unknown } | null)?.name === 'MigrationLocked') throw new LockBusy(`the migrations could not take their lock: ${(error as Error).message}`);
      throw error;
    }
  });
}

/** A database that a newer release of topocat migrated: this one does not know its schema. */
export class NewerDatabase extends Error {
  constructor(
    readonly unknown: readonly string[],
    known: readonly string[],
  ) {
    super(`was migrated by a newer topocat: it has the migration${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}, which this version does not know (its last is ${[...known].sort().at(-1)}); run the newer version, or restore a backup made before the upgrade`);
    this.name = 'NewerDatabase';
  }
}

/**
 * Migrations of this release not yet applied to the database; all of them when it has no
 * migrations table. A migration this release does not know is a NewerDatabase.
 */
async function pendingMigrations(database: Database): Promise<string[]> {
  const expected = Object.keys(steps(database.dialect));
  let done: string[];
  try {
    done = (await database.writer(MIGRATIONS_TABLE).select('name')).map((row: { name: string }) => row.name);
  } catch {
    return expected;
  }
  const unknown = done.filter((name) => !expected.includes(name));
  if (unknown.length > 0) throw new NewerDatabase(unknown.sort(), expected);
  return expected.filter((name) => !done.includes(name));
}

/**
 * For a process whose database someone else migrated (a cluster worker: the primary migrates
 * before it forks): read-only, so processes starting together cannot collide. knex's
 * `migrate.latest` would not do: even with nothing to run it takes and releases knex's lock row,
 * and a second process meeting that lock fails at once ("Migration table is already locked").
 */
export async function verifyMigrated(database: Database): Promise<void> {
  const expected = Object.keys(steps(database.dialect));
  let done: string[];
  try {
    done = (await database.reader(MIGRATIONS_TABLE).select('name')).map((row: { name: string }) => row.name);
  } catch (error) {
    throw new Error('the database has no migrations table; the process that starts the workers migrates it first', { cause: error });
  }
  const unknown = done.filter((name) => !expected.includes(name));
  if (unknown.length > 0) throw new NewerDatabase(unknown.sort(), expected);
  const missing = expected.filter((name) => !done.includes(name));
  if (missing.length > 0) throw new Error(`the database lacks the migrations ${missing.join(', ')}; the process that starts the workers migrates it first`);
}

/**
 * Whether topocat has set this database up at all (its migrations table exists), asked without
 * writing: a database that cannot be reached throws; one that has no such table, or (PostgreSQL)
 * not even the schema of its `?schema=`, answers false.
 */
export async function hasMigrationsTable(database: Pick<Database, 'reader'>): Promise<boolean> {
  return database.reader.schema.hasTable(MIGRATIONS_TABLE);
}
