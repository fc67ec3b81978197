import type { Knex } from 'knex';
import type { Locking } from '../../contract/adapter.js';

/** The row every write transaction updates first (group-commit.ts), to take the file's write lock at once. */
export const WRITE_LOCK_TABLE = 'topocat_write_lock';

/**
 * SQLite has one write lock per file, and every write transaction takes it first (see
 * group-commit.ts): writers are serialised, so there is nothing finer to lock.
 */
export const sqliteLocking: Locking = {
  async lockResources(): Promise<void> {
    // The transaction already holds the file's one write lock.
  },

  async exclusive<T>(_name: string, work: () => Promise<T>): Promise<T> {
    // Only one process ever runs these sections on a SQLite file: the single server process, or
    // the cluster primary before it forks its workers (server/cluster.ts); workers only verify
    // (storage/migrations.ts). So there is nobody to wait for. A real cross-process lock would
    // be hard to make sound here: BEGIN IMMEDIATE on a connection of its own takes the file's
    // one write lock, so `work`, which writes through the writer, would wait for itself; and a
    // lock file outlives a crashed holder.
    return work();
  },

  migration: {
    async up(knex: Knex): Promise<void> {
      await knex.schema.createTable(WRITE_LOCK_TABLE, (t) => {
        t.integer('id').primary();
        t.bigInteger('n').notNullable();
      });
      await knex(WRITE_LOCK_TABLE).insert({ id: 1, n: 0 });
    },
    async down(knex: Knex): Promise<void> {
      await knex.schema.dropTableIfExists(WRITE_LOCK_TABLE);
    },
  },
};
