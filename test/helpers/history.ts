import type { Knex } from 'knex';
import { readTestDatabase, type TestDatabase } from './database.js';

/** One stored version as the history holds it: its instant, and whether it is a deletion. */
export interface StoredVersion {
  readonly ts: number;
  readonly deleted: boolean;
}

/**
 * The versions the server stored of one resource, oldest first, read from its database: the
 * oracle of tests about instants the interface does not show (a deletion's own `ts`).
 */
export async function storedVersions(database: TestDatabase, kind: string, id: string): Promise<StoredVersion[]> {
  const read = async (knex: Knex): Promise<StoredVersion[]> =>
    ((await knex('resource_history').where({ kind, id }).orderBy('ts').select('ts', 'deleted')) as { ts: number | string; deleted: unknown }[]).map((row) => ({
      ts: Number(row.ts),
      deleted: row.deleted === true || Number(row.deleted) === 1,
    }));
  return readTestDatabase(database, read);
}
