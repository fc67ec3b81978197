import type { Change, InsertedEvent, Insertion, VersionRow } from '../../contract/events.js';
import { EVENTS } from '../../contract/events.js';
import type { PgQueryable } from './prepared.js';
import { preparedStatement } from './prepared.js';

/**
 * The Pools' write mechanics on PostgreSQL: the statements that store versions, their current rows
 * and their events in one round trip (HistorySql.storeVersions and record inside a transaction;
 * Pools.append and CompareAndSetWrites alone, see connections.ts and MergedWrites), and the JSON
 * their versions travel as.
 */

/** The sequence event ids come from (made by the event log's migration, postgresHistory.migration). */
export const EVENT_SEQUENCE = 'resource_events_event_seq';

/**
 * An event's `k`: the id of its transaction, or the `k` of the resource's previous event when
 * that is larger (a writer that got its transaction id before the previous writer of the same
 * resource committed, and then waited for its lock), so a resource's events never go back in
 * order. An id made for this very insert has no previous event to look up.
 */
const K = `CASE WHEN o.fresh THEN txid_current() ELSE GREATEST(txid_current(), COALESCE((SELECT max(x.k) FROM ${EVENTS} x WHERE x.kind = o.kind AND x.id = o.id), 0)) END`;

/** The events of `source` (kind, id, ts, action, fresh, ordered by n) inserted, ids taken in that order. */
export const insertEvents = (source: string): string =>
  `INSERT INTO ${EVENTS} (event, k, kind, id, ts, action) SELECT nextval('${EVENT_SEQUENCE}'), ${K}, o.kind, o.id, o.ts, o.action FROM (${source}) o RETURNING event, kind, id, ts`;

/**
 * Every version, its current row and its event in one statement (one round trip; PostgreSQL runs
 * the parts with one snapshot). The versions arrive as one JSON array, so the statement's text
 * is the same for one version or ten thousand, and the documents, already JSON text, are joined
 * rather than escaped into an array literal.
 */
const STORE_VERSIONS = `WITH v AS MATERIALIZED (
  SELECT * FROM ROWS FROM (jsonb_to_recordset(?::jsonb) AS (kind text, id text, ts bigint, doc jsonb, action text, fresh boolean, past boolean)) WITH ORDINALITY AS v(kind, id, ts, doc, action, fresh, past, n)
), h AS (
  INSERT INTO resource_history (kind, id, ts, doc, deleted) SELECT kind, id, ts, doc, doc IS NULL FROM v
), last AS MATERIALIZED (
  SELECT DISTINCT ON (kind, id) kind, id, ts, doc FROM v WHERE NOT past ORDER BY kind, id, n DESC
), c AS (
  INSERT INTO resource_current (kind, id, ts, doc) SELECT kind, id, ts, doc FROM last WHERE doc IS NOT NULL
  ON CONFLICT (kind, id) DO UPDATE SET ts = excluded.ts, doc = excluded.doc
), d AS (
  DELETE FROM resource_current r USING last WHERE last.doc IS NULL AND r.kind = last.kind AND r.id = last.id
), e AS (${insertEvents('SELECT kind, id, ts, action, fresh FROM v WHERE NOT past ORDER BY n')})
SELECT event, kind, id, ts FROM e`;

/**
 * The compare-and-set of CompareAndSetWrites.replaceIf: each version stored in place of its
 * resource's current one when that is still the expected version and nothing else holds the
 * resource (its advisory lock, taken without waiting, or its current row, skipped when locked). It
 * never waits, so it can deadlock with nothing; an item it did not store is left to the locked way
 * (a transaction). A current row changed after the statement's snapshot is followed to its newest
 * version by FOR UPDATE, where the expected ts no longer matches.
 */
const REPLACE_IF = `WITH v AS MATERIALIZED (
  SELECT * FROM ROWS FROM (jsonb_to_recordset(?::jsonb) AS (kind text, id text, ts bigint, doc jsonb, action text, expected bigint)) WITH ORDINALITY AS v(kind, id, ts, doc, action, expected, n)
), ok AS MATERIALIZED (
  SELECT v.kind, v.id, v.ts, v.doc, v.action, FALSE AS fresh, v.n FROM v JOIN resource_current c ON c.kind = v.kind AND c.id = v.id AND c.ts = v.expected
  WHERE pg_try_advisory_xact_lock(hashtextextended(? || v.kind || '/' || v.id, 0))
  ORDER BY v.kind, v.id FOR UPDATE OF c SKIP LOCKED
), h AS (
  INSERT INTO resource_history (kind, id, ts, doc, deleted) SELECT kind, id, ts, doc, doc IS NULL FROM ok
), c AS (
  UPDATE resource_current r SET ts = ok.ts, doc = ok.doc FROM ok WHERE ok.doc IS NOT NULL AND r.kind = ok.kind AND r.id = ok.id
), d AS (
  DELETE FROM resource_current r USING ok WHERE ok.doc IS NULL AND r.kind = ok.kind AND r.id = ok.id
), e AS (${insertEvents('SELECT kind, id, ts, action, fresh FROM ok ORDER BY n')})
SELECT event, kind, id, ts FROM e`;

const INSERT_IF = 'SELECT event, live FROM topocat_insert_if(?::jsonb, ?::jsonb)';

/** HistorySql.record's statement: events of changes whose versions are stored already. */
const RECORD = insertEvents(
  `SELECT kind, id, ts, action, FALSE AS fresh FROM ROWS FROM (jsonb_to_recordset(?::jsonb) AS (kind text, id text, ts bigint, action text)) WITH ORDINALITY AS v(kind, id, ts, action, n) ORDER BY n`,
);

const member = (name: string, value: string | number | boolean): string => `${JSON.stringify(name)}:${typeof value === 'string' ? JSON.stringify(value) : String(value)}`;

function changeJson(c: Change): string {
  return `{${member('kind', c.kind)},${member('id', c.id)},${member('ts', c.ts)},${member('action', c.action)}`;
}

function versionsJson(versions: readonly VersionRow[]): string {
  return `[${versions.map((v) => `${changeJson(v)},"doc":${v.doc ?? 'null'},"fresh":${v.fresh === true},"past":${v.past === true}}`).join(',')}]`;
}

/** The ids RETURNING gave, in the order of `changes` (each kind, id and ts is one change); undefined for a change not stored. */
function eventsInOrder(changes: readonly Change[], rows: readonly { event: number | string; kind: string; id: string; ts: number | string }[]): (number | undefined)[] {
  const byChange = new Map(rows.map((r) => [`${r.kind}\u0000${r.id}\u0000${String(r.ts)}`, Number(r.event)]));
  return changes.map((c) => byChange.get(`${c.kind}\u0000${c.id}\u0000${String(c.ts)}`));
}

/** The same, every change stored. */
function idsInOrder(changes: readonly Change[], rows: readonly { event: number | string; kind: string; id: string; ts: number | string }[]): number[] {
  return eventsInOrder(changes, rows).map((event, i) => {
    if (event === undefined) throw new Error(`the event of ${changes[i]!.kind}/${changes[i]!.id} at ${changes[i]!.ts} was not returned`);
    return event;
  });
}

type Returned = { event: number | string; kind: string; id: string; ts: number | string }[];

/**
 * HistorySql.storeVersions on a connection: inside its transaction, or alone (the statement is
 * then a transaction of its own: see MergedAppends). Returns the event ids in order.
 */
export async function storeVersionsOn(connection: PgQueryable, versions: readonly VersionRow[]): Promise<number[]> {
  const { rows } = await connection.query({ ...preparedStatement(STORE_VERSIONS), values: [versionsJson(versions)] });
  return idsInOrder(versions.some((v) => v.past) ? versions.filter((v) => !v.past) : versions, rows as Returned);
}

/** A version to store if its resource's current version is still the one with ts `expected`. */
export interface Replacement extends VersionRow {
  readonly expected: number;
}

/**
 * REPLACE_IF on a connection, alone (the statement is its own transaction): the event id of each
 * replacement stored, undefined for one that was not. `lockPrefix` is the start of the resources'
 * advisory lock keys (PostgresLocking).
 */
export async function replaceIfOn(connection: PgQueryable, lockPrefix: string, replacements: readonly Replacement[]): Promise<(number | undefined)[]> {
  const json = `[${replacements.map((r) => `${changeJson(r)},"doc":${r.doc ?? 'null'},${member('expected', r.expected)}}`).join(',')}]`;
  const { rows } = await connection.query({ ...preparedStatement(REPLACE_IF), values: [json, lockPrefix] });
  return eventsInOrder(replacements, rows as Returned);
}

/**
 * CompareAndSetWrites.insertIf on a connection (see INSERT_IF_FUNCTION): per version its event id
 * and whether it replaced a live resource; undefined when nothing was stored (the caller then
 * writes the locked way, which finds out why).
 */
export async function insertIfOn(connection: PgQueryable, lockPrefix: string, insertions: readonly Insertion[]): Promise<InsertedEvent[] | undefined> {
  const order = new Map<string, number>();
  for (const i of insertions) if (!order.has(i.kind)) order.set(i.kind, order.size);
  const locks = JSON.stringify(insertions.map((i) => [order.get(i.kind), `${lockPrefix}${i.kind}/${i.id}`]));
  const versions = `[${insertions.map((i) => `{${member('kind', i.kind)},${member('id', i.id)},${member('ts', i.ts)},"doc":${i.doc},${member('create_only', i.createOnly)}}`).join(',')}]`;
  const { rows } = await connection.query({ ...preparedStatement(INSERT_IF), values: [locks, versions] });
  if (rows.length !== insertions.length) return undefined;
  return (rows as { event: number | string; live: boolean }[]).map((r) => ({ event: Number(r.event), replaced: r.live }));
}

/** HistorySql.record on a connection: the event ids of `changes`, in order. */
export async function recordOn(connection: PgQueryable, changes: readonly Change[]): Promise<number[]> {
  const { rows } = await connection.query({ ...preparedStatement(RECORD), values: [`[${changes.map((c) => `${changeJson(c)}}`).join(',')}]`] });
  return idsInOrder(changes, rows as Returned);
}
