import type { Knex } from 'knex';
import { insertEvents } from './version-writes.js';

/**
 * CompareAndSetWrites.insertIf as a function of the schema, so that one prepared statement does in
 * one round trip what the locked way's transaction does in five (BEGIN, the locks, the read of the
 * newest versions, the write, COMMIT). First each resource's advisory lock, waiting, in the order
 * the locked way takes them (kind by kind in the order given, by hash within a kind:
 * PostgresLocking), so that the two ways never wait on each other in a circle; `locks` is a JSON
 * array of `[kind order, key]` pairs. Then, in a snapshot taken after the locks (a VOLATILE
 * function takes one per statement: every writer that committed before is seen, and none of these
 * resources can change meanwhile), every version of `versions` stored if each is newer than
 * everything its resource stored and none of `create_only` finds its resource live; otherwise
 * nothing. A version of a live resource is a re-POST (`REPOST`), of one never stored a fresh
 * insert.
 *
 * Sent as one simple query with the two statements instead (no function), the planning of the
 * insert cost PostgreSQL 0.3 ms on every write (EXPLAIN, scratch, 2026-11-28).
 */
const INSERT_IF_FUNCTION = `CREATE FUNCTION topocat_insert_if(locks jsonb, versions jsonb)
RETURNS TABLE (event bigint, kind text, id text, ts bigint, live boolean) LANGUAGE plpgsql VOLATILE AS $body$
#variable_conflict use_column
BEGIN
  PERFORM count(pg_advisory_xact_lock(h)) FROM (SELECT DISTINCT (k->>0)::int AS o, hashtextextended(k->>1, 0) AS h FROM jsonb_array_elements(locks) AS k ORDER BY o, h) AS l;
  RETURN QUERY WITH v AS MATERIALIZED (
    SELECT * FROM ROWS FROM (jsonb_to_recordset(versions) AS (kind text, id text, ts bigint, doc jsonb, create_only boolean)) WITH ORDINALITY AS v(kind, id, ts, doc, create_only, n)
  ), s AS MATERIALIZED (
    SELECT v.*, (SELECT max(h.ts) FROM resource_history h WHERE h.kind = v.kind AND h.id = v.id) AS newest,
      (SELECT c.ts FROM resource_current c WHERE c.kind = v.kind AND c.id = v.id) IS NOT NULL AS live FROM v
  ), ok AS MATERIALIZED (
    SELECT s.kind, s.id, s.ts, s.doc, CASE WHEN s.live THEN 'REPOST' ELSE 'POST' END AS action, s.newest IS NULL AS fresh, s.live, s.n FROM s
    WHERE NOT EXISTS (SELECT 1 FROM s x WHERE x.newest >= x.ts OR (x.live AND x.create_only))
  ), h AS (
    INSERT INTO resource_history (kind, id, ts, doc, deleted) SELECT ok.kind, ok.id, ok.ts, ok.doc, FALSE FROM ok
  ), c AS (
    INSERT INTO resource_current (kind, id, ts, doc) SELECT ok.kind, ok.id, ok.ts, ok.doc FROM ok
    ON CONFLICT (kind, id) DO UPDATE SET ts = excluded.ts, doc = excluded.doc
  ), e AS (${insertEvents('SELECT ok.kind, ok.id, ok.ts, ok.action, ok.fresh FROM ok ORDER BY ok.n')})
  SELECT e.event, e.kind::text, e.id::text, e.ts, ok.live FROM e JOIN ok ON ok.kind = e.kind AND ok.id = e.id ORDER BY ok.n;
END
$body$`;

/** Migration step 0016 (HistorySql.insertIfMigration): the function CompareAndSetWrites.insertIf calls, and its undoing. */
export const insertIfMigration = {
  async up(knex: Knex): Promise<void> {
    await knex.raw(INSERT_IF_FUNCTION.replace(/\?/g, '\\?'));
  },
  async down(knex: Knex): Promise<void> {
    await knex.raw('DROP FUNCTION topocat_insert_if(jsonb, jsonb)');
  },
};
