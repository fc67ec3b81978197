import type { ManifestSql } from '../../dialect.js';
import { MANIFEST_LIMIT_SETTING, MANIFEST_STAR, MANIFEST_TABLE, MANIFEST_UNSUMMARISED, MAX_FIELD, MAX_VALUE } from '../../manifest-sql.js';

/** The SQL function that turns a json_tree `fullkey` (`$.links[0].href`) into a dotted field (`links.href`). */
export const FIELD_FUNCTION = 'topocat_field';

/** `$.links[0].href` → `links.href`; `$."a b".c` → `a b.c`. */
export function fieldOf(fullkey: unknown): string | null {
  if (typeof fullkey !== 'string') return null;
  return fullkey.replace(/\[\d+\]/g, '').replace(/^\$\.?/, '').replace(/"/g, '');
}

/**
 * The manifest kept by a trigger on `resource_current` (migration 0014): json_tree walks the new
 * document in C inside the writing statement, so no write path can miss it and no report scans
 * the collection. SQLite allows no WITH in a trigger, so the dotted name of a leaf comes from a
 * function registered on every connection (functions.ts). The SELECT of an INSERT that reads its
 * own table is materialised first, so one document may add past the limit; the report then says
 * `*` (storage/manifests.ts). No conflict clause: inside a trigger the outer statement's policy
 * (an upsert's ABORT) would replace it, so rows already there are left out by NOT EXISTS.
 */
export const sqliteManifests: ManifestSql = {
  create: (['INSERT', 'UPDATE OF doc'] as const).map(
    (event, i) => `CREATE TRIGGER ${MANIFEST_TABLE}_kept_${i} AFTER ${event} ON resource_current WHEN NEW.kind NOT IN (${MANIFEST_UNSUMMARISED.map((k) => `'${k}'`).join(', ')}) BEGIN
  INSERT INTO ${MANIFEST_TABLE} (kind, field, value)
  SELECT DISTINCT NEW.kind, c.field, c.value FROM (
    SELECT l.field, CASE WHEN length(l.value) > ${MAX_VALUE} OR (SELECT count(*) FROM ${MANIFEST_TABLE} m WHERE m.kind = NEW.kind AND m.field = l.field) >= (SELECT CAST(value AS INTEGER) FROM topocat_service WHERE name = '${MANIFEST_LIMIT_SETTING}') THEN '${MANIFEST_STAR}' ELSE l.value END AS value
    FROM (SELECT DISTINCT ${FIELD_FUNCTION}(t.fullkey) AS field, CASE t.type WHEN 'text' THEN json_quote(t.atom) WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' ELSE CAST(t.atom AS TEXT) END AS value
          FROM json_tree(NEW.doc) t WHERE t.type NOT IN ('object', 'array', 'null')) l
    WHERE l.field NOT IN ('id', 'ts') AND length(l.field) <= ${MAX_FIELD}
      AND NOT EXISTS (SELECT 1 FROM ${MANIFEST_TABLE} m WHERE m.kind = NEW.kind AND m.field = l.field AND m.value = '${MANIFEST_STAR}')
  ) c
  WHERE NOT EXISTS (SELECT 1 FROM ${MANIFEST_TABLE} m WHERE m.kind = NEW.kind AND m.field = c.field AND m.value = c.value);
END`,
  ),
  drop: [`DROP TRIGGER IF EXISTS ${MANIFEST_TABLE}_kept_0`, `DROP TRIGGER IF EXISTS ${MANIFEST_TABLE}_kept_1`],
};
