import type { Knex } from 'knex';
import type { Dialect } from './contract/dialect.js';
import { EVENTS } from './contract/events.js';
import { POINTS, SERIES } from './measurements/tables.js';

/** Characters of an id's key columns since rest-contract §3's revision of 2026-11-29 (1,024 bytes; storage/id-segment.ts). */
export const ID_KEY_LENGTH = 1024;
/** Before it: 256. */
const EARLIER = 256;

/** Every key column that holds a resource id (a series' `mid` is its metadata's id). */
const ID_COLUMNS: readonly (readonly [string, string])[] = [
  ['resource_history', 'id'],
  ['resource_current', 'id'],
  [EVENTS, 'id'],
  [SERIES, 'mid'],
  [POINTS, 'mid'],
];

/**
 * Ids of up to 1,024 bytes (rest-contract §3, revised 2026-11-29: URNs such as
 * `urn:ogf:network:domain=…:node=…:port=…` run past the 256 characters the columns held). On
 * PostgreSQL a catalog change only; on SQLite nothing (it does not enforce lengths).
 */
export function idLengthMigration(dialect: Dialect): Knex.Migration {
  const widen = async (knex: Knex, length: number): Promise<void> => {
    for (const [table, column] of ID_COLUMNS) {
      const ddl = dialect.sql.ddl.widenKey(table, column, length);
      if (ddl !== undefined) await knex.raw(ddl);
    }
  };
  return {
    up: (knex) => widen(knex, ID_KEY_LENGTH),
    // Back to 256 fails while a longer id is stored, as it should: nothing is cut.
    down: (knex) => widen(knex, EARLIER),
  };
}
