import type { Knex } from 'knex';
import type { Dialect } from '../contract/dialect.js';

/** One row per series: what `POST /events` registered (migration 0006). */
export const SERIES = 'measurement_series';
/** The data points of every series, append-only, keyed by (mid, ts) (migration 0006). */
export const POINTS = 'measurement_points';

/**
 * Migration step 0006: UNIS's measurement store, kept apart from the versioned documents. A
 * series is registered once (its cap and ttl, the metadata it belongs to, the datum rule the
 * metadata named) and keeps its number of points, so the cap is enforced without counting. The
 * points are never updated: a batch inserts them (a repeated (mid, ts) is ignored), the cap and
 * the ttl delete the oldest. `event` is the event-log id of the batch that stored a point, by
 * which subscribers read back what a batch added (storage/events.ts numbers the batch). It has no
 * index: the batch's event records its series and, as its `ts`, the floor of the batch's
 * smallest `ts`, so its points are a range of the key from there (new points are the newest,
 * so the range is short), filtered by `event`. An index would cost every point a second b-tree
 * insert and, when the cap drops it, a second delete (measured on SQLite with a scratch script:
 * 1,000 points inserted and the 1,000 oldest deleted in 2.1–3.4 ms without it, 4.1–4.2 ms with it).
 */
export function measurementsMigration(dialect: Dialect): Knex.Migration {
  return {
    async up(knex) {
      await knex.schema.createTable(SERIES, (t) => {
        t.specificType('mid', dialect.sql.ddl.keyType(256)).primary();
        t.text('metadata_url').notNullable();
        t.bigInteger('collection_size').notNullable();
        t.double('ttl').notNullable();
        t.text('datum_schema').nullable();
        t.bigInteger('points').notNullable().defaultTo(0);
        t.bigInteger('ts').notNullable();
      });
      // The key is the table where the engine can: one b-tree, not a table and its key's index.
      const key = dialect.sql.ddl.keyType(256);
      const doc = dialect.sql.ddl.documentType;
      await knex.raw(`CREATE TABLE ${POINTS} (mid ${key} NOT NULL, ts double precision NOT NULL, doc ${doc} NOT NULL, event bigint NOT NULL, PRIMARY KEY (mid, ts))${dialect.sql.ddl.keyOnlyTable}`);
    },
    async down(knex) {
      await knex.schema.dropTable(POINTS);
      await knex.schema.dropTable(SERIES);
    },
  };
}
