import type { ManifestSql } from '../../contract/features.js';
import { MANIFEST_LIMIT_SETTING, MANIFEST_STAR, MANIFEST_TABLE, MANIFEST_UNSUMMARISED, MAX_FIELD, MAX_VALUE } from '../../manifest-sql.js';

const UNSUMMARISED = MANIFEST_UNSUMMARISED.map((k) => `'${k}'`).join(', ');

/**
 * What a leaf (`l.field`, `l.value`) of a document of collection `kind` adds to the sets: its
 * value as JSON text, or `*` when it is too long or the set has reached the limit. Read against
 * the statement's snapshot: one statement may add past the limit; the report then says `*`
 * (storage/manifests.ts), and the next write stores the `*`.
 */
function addedValue(kind: string): string {
  return `CASE WHEN length(l.value) > ${MAX_VALUE} OR (SELECT count(*) FROM ${MANIFEST_TABLE} m WHERE m.kind = ${kind} AND m.field = l.field) >= (SELECT value::int FROM topocat_service WHERE name = '${MANIFEST_LIMIT_SETTING}') THEN '${MANIFEST_STAR}' ELSE l.value END`;
}

/** Leaves whose set is not `*` already. */
function unsettled(kind: string): string {
  return `NOT EXISTS (SELECT 1 FROM ${MANIFEST_TABLE} m WHERE m.kind = ${kind} AND m.field = l.field AND m.value = '${MANIFEST_STAR}')`;
}

/**
 * The manifest kept by a trigger on `resource_current` (created where manifests are kept,
 * storage/manifest-upkeep.ts), in the writing transaction of every write path: a recursive walk
 * of the jsonb document gives each leaf's dotted field (array positions dropped) and its value
 * as JSON text.
 */
export const postgresManifests: ManifestSql = {
  create: [
    `CREATE OR REPLACE FUNCTION topocat_manifest_leaves(doc jsonb) RETURNS TABLE (field text, value text) LANGUAGE sql IMMUTABLE AS $$
  WITH RECURSIVE walk(path, v) AS (
    SELECT e.key, e.value FROM jsonb_each(doc) e WHERE e.key NOT IN ('id', 'ts')
    UNION ALL
    SELECT x.path, x.v FROM walk w CROSS JOIN LATERAL (
      SELECT w.path || '.' || o.key, o.value FROM jsonb_each(CASE WHEN jsonb_typeof(w.v) = 'object' THEN w.v ELSE '{}'::jsonb END) o
      UNION ALL
      SELECT w.path, a.value FROM jsonb_array_elements(CASE WHEN jsonb_typeof(w.v) = 'array' THEN w.v ELSE '[]'::jsonb END) a
    ) x(path, v)
  )
  SELECT DISTINCT path, v::text FROM walk WHERE jsonb_typeof(v) NOT IN ('object', 'array', 'null') AND length(path) <= ${MAX_FIELD}
$$`,
    `CREATE OR REPLACE FUNCTION topocat_manifest_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.kind NOT IN (${UNSUMMARISED}) THEN
    INSERT INTO ${MANIFEST_TABLE} (kind, field, value)
    SELECT DISTINCT NEW.kind, l.field, ${addedValue('NEW.kind')}
    FROM topocat_manifest_leaves(NEW.doc) l
    WHERE ${unsettled('NEW.kind')}
    ORDER BY 2, 3
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$`,
    `CREATE TRIGGER ${MANIFEST_TABLE}_kept AFTER INSERT OR UPDATE OF doc ON resource_current FOR EACH ROW EXECUTE FUNCTION topocat_manifest_keep()`,
  ],
  drop: [
    `DROP TRIGGER IF EXISTS ${MANIFEST_TABLE}_kept ON resource_current`,
    'DROP FUNCTION IF EXISTS topocat_manifest_keep()',
    'DROP FUNCTION IF EXISTS topocat_manifest_leaves(jsonb)',
  ],
  async add(trx, documents) {
    // One statement for the batch, its new values inserted in (kind, field, value) order: the
    // order of the trigger's, so a write adding the same values waits instead of deadlocking.
    await trx.raw(
      `INSERT INTO ${MANIFEST_TABLE} (kind, field, value)
      SELECT DISTINCT d.kind, l.field, ${addedValue('d.kind')}
      FROM unnest(?::text[], ?::text[]) AS d(kind, doc) CROSS JOIN LATERAL topocat_manifest_leaves(d.doc::jsonb) l
      WHERE d.kind NOT IN (${UNSUMMARISED}) AND ${unsettled('d.kind')}
      ORDER BY 1, 2, 3
      ON CONFLICT DO NOTHING`,
      [documents.map((d) => d.kind), documents.map((d) => d.doc)],
    );
  },
};
