import type { ManifestSql } from '../../contract/features.js';
import { NEWS_FUNCTION } from './manifest-mirror.js';
import { MANIFEST_LIMIT_SETTING, MANIFEST_STAR, MANIFEST_TABLE, MANIFEST_UNSUMMARISED, MAX_FIELD, MAX_VALUE } from '../../manifest-sql.js';

/** A generation as the triggers carry it (a UUID): the only text embedded in their SQL. */
const GENERATION = /^[0-9a-f-]{1,64}$/;

/** The SQL function that turns a json_tree `fullkey` (`$.links[0].href`) into a dotted field (`links.href`). */
export const FIELD_FUNCTION = 'topocat_field';

/** `$.links[0].href` → `links.href`; `$."a b".c` → `a b.c`. */
export function fieldOf(fullkey: unknown): string | null {
  if (typeof fullkey !== 'string') return null;
  return fullkey.replace(/\[\d+\]/g, '').replace(/^\$\.?/, '').replace(/"/g, '');
}

/**
 * The INSERT that adds the values of one document (`doc`, of collection `kind`: SQL expressions)
 * to the sets: the body of the triggers, and the statement of the scan that builds the sets of
 * documents stored before them (storage/manifest-upkeep.ts). json_tree walks the document in C.
 * SQLite allows no WITH in a trigger, so the dotted name of a leaf comes from a function
 * registered on every connection (functions.ts). The SELECT of an INSERT that reads its own table
 * is materialised first, so one document may add past the limit; the report then says `*`
 * (storage/manifests.ts). No conflict clause: inside a trigger the outer statement's policy (an
 * upsert's ABORT) would replace it, so rows already there are left out by NOT EXISTS.
 */
function addValues(kind: string, doc: string): string {
  // Leaves whose value is known, or whose set is `*`, are left out before anything else is
  // looked at (the limit's count, DISTINCT's temporary b-tree): on a write that brings no new
  // value, that is every leaf. In process (better-sqlite3, a 17-leaf node, 20,000 inserts, five
  // runs each on a loaded 2-core machine, 2026-11-28): 156–196 µs an insert with the triggers
  // against 209–244 µs when the count and a DISTINCT of every leaf came first; 4.3–5.7 µs
  // without triggers. `LIMIT -1` (no limit) keeps the leaves' subquery from being flattened
  // into the outer one, which called topocat_field() once per reference to `l.field`: 19 calls
  // an insert of that node instead of 70, and 130–162 µs instead of 166–200 (five runs each,
  // 06:44 UTC, load 2.7).
  return `INSERT INTO ${MANIFEST_TABLE} (kind, field, value)
  SELECT DISTINCT ${kind}, l.field, CASE WHEN length(l.value) > ${MAX_VALUE} OR (SELECT count(*) FROM ${MANIFEST_TABLE} m WHERE m.kind = ${kind} AND m.field = l.field) >= (SELECT CAST(value AS INTEGER) FROM topocat_service WHERE name = '${MANIFEST_LIMIT_SETTING}') THEN '${MANIFEST_STAR}' ELSE l.value END
  FROM (SELECT ${FIELD_FUNCTION}(t.fullkey) AS field, CASE t.type WHEN 'text' THEN json_quote(t.atom) WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' ELSE CAST(t.atom AS TEXT) END AS value
        FROM json_tree(${doc}) t WHERE t.type NOT IN ('object', 'array', 'null') LIMIT -1) l
  WHERE l.field NOT IN ('id', 'ts') AND length(l.field) <= ${MAX_FIELD}
    AND NOT EXISTS (SELECT 1 FROM ${MANIFEST_TABLE} m WHERE m.kind = ${kind} AND m.field = l.field AND m.value = '${MANIFEST_STAR}')
    AND NOT EXISTS (SELECT 1 FROM ${MANIFEST_TABLE} m WHERE m.kind = ${kind} AND m.field = l.field AND m.value = l.value)`;
}

/** The scan's statement, with named bindings `:kind` and `:doc` (knex turns them into positional ones). */
const ADD_ONE = addValues(':kind', ':doc');

/**
 * The manifest kept by triggers on `resource_current` (created where manifests are kept,
 * storage/manifest-upkeep.ts), in the statement that writes each version, whatever the write
 * path, so no write path can miss it and no report scans the collection. A trigger of a
 * generation first asks NEWS_FUNCTION whether the document may bring a value the committed
 * sets lack (manifest-mirror.ts), and walks it only then: most writes bring none.
 */
export const sqliteManifests: ManifestSql = {
  create(generation) {
    if (generation !== undefined && !GENERATION.test(generation)) throw new Error(`not a manifest generation: ${generation}`);
    const unsummarised = `NEW.kind NOT IN (${MANIFEST_UNSUMMARISED.map((k) => `'${k}'`).join(', ')})`;
    const when = generation === undefined ? unsummarised : `${unsummarised} AND ${NEWS_FUNCTION}('${generation}', NEW.kind, NEW.doc)`;
    return (['INSERT', 'UPDATE OF doc'] as const).map(
      (event, i) => `CREATE TRIGGER ${MANIFEST_TABLE}_kept_${i} AFTER ${event} ON resource_current WHEN ${when} BEGIN
  ${addValues('NEW.kind', 'NEW.doc')};
END`,
    );
  },
  drop: [`DROP TRIGGER IF EXISTS ${MANIFEST_TABLE}_kept_0`, `DROP TRIGGER IF EXISTS ${MANIFEST_TABLE}_kept_1`],
  async add(trx, documents) {
    // One statement a document, in order: each sees the values the ones before it added.
    for (const { kind, doc } of documents) await trx.raw(ADD_ONE, { kind, doc });
  },
};
