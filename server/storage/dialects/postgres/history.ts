import type { Knex } from 'knex';
import type { HistorySql } from '../../contract/features.js';
import type { InsertedEvent, Insertion, VersionRow } from '../../contract/events.js';
import type { SqlFragment } from '../../contract/sql.js';
import { type Change, EVENT_COUNTER, EVENTS, type Floor, type Position, positionParts } from '../../contract/events.js';
import type { PgQueryable } from './prepared.js';
import { preparedStatement } from './prepared.js';

const SEQUENCE = 'resource_events_event_seq';

/** The horizon: transactions with a smaller id have all ended; none that commits later can be among them. */
const XMIN = 'txid_snapshot_xmin(txid_current_snapshot())';

/**
 * An event's `k`: the id of its transaction, or the `k` of the resource's previous event when
 * that is larger (a writer that got its transaction id before the previous writer of the same
 * resource committed, and then waited for its lock), so a resource's events never go back in
 * order. An id made for this very insert has no previous event to look up.
 */
const K = `CASE WHEN o.fresh THEN txid_current() ELSE GREATEST(txid_current(), COALESCE((SELECT max(x.k) FROM ${EVENTS} x WHERE x.kind = o.kind AND x.id = o.id), 0)) END`;

/** The events of `source` (kind, id, ts, action, fresh, ordered by n) inserted, ids taken in that order. */
const insertEvents = (source: string): string =>
  `INSERT INTO ${EVENTS} (event, k, kind, id, ts, action) SELECT nextval('${SEQUENCE}'), ${K}, o.kind, o.id, o.ts, o.action FROM (${source}) o RETURNING event, kind, id, ts`;

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
 * The compare-and-set of Pools.replaceIf: each version stored in place of its resource's current
 * one when that is still the expected version and nothing else holds the resource (its advisory
 * lock, taken without waiting, or its current row, skipped when locked). It never waits, so it
 * can deadlock with nothing; an item it did not store is left to the locked way (a transaction).
 * A current row changed after the statement's snapshot is followed to its newest version by
 * FOR UPDATE, where the expected ts no longer matches.
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

/**
 * Pools.insertIf as a function of the schema, so that one prepared statement does in one round
 * trip what the locked way's transaction does in five (BEGIN, the locks, the read of the newest
 * versions, the write, COMMIT). First each resource's advisory lock, waiting, in the order the
 * locked way takes them (kind by kind in the order given, by hash within a kind: PostgresLocking),
 * so that the two ways never wait on each other in a circle; `locks` is a JSON array of `[kind
 * order, key]` pairs. Then, in a snapshot taken after the locks (a VOLATILE function takes one per
 * statement: every writer that committed before is seen, and none of these resources can change
 * meanwhile), every version of `versions` stored if each is newer than everything its resource
 * stored and none of `create_only` finds its resource live; otherwise nothing. A version of a live
 * resource is a re-POST (`REPOST`), of one never stored a fresh insert.
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

/**
 * The position of a list (HistorySql.listPosition) where events do not commit in the order of
 * their ids or positions: a transaction that commits later may hold a smaller position than one
 * seen already, so the newest position alone would not move when it commits. Below the horizon
 * of the statement's snapshot (XMIN) every event is final: the newest position there says them
 * all. Above it, the events this snapshot sees are few (those of the transactions that ended
 * since the oldest one still running began) and are counted and summed: a commit adds one to
 * the count, or, once the horizon has passed it, moves the newest position below. Two snapshots
 * one after the other with the same three numbers see the same events of the kind (the horizon
 * never goes back; an event it passes raises the newest position). Both parts are index range
 * reads (`resource_events_kind_order`, or `resource_events_order` for `all`).
 */
const listPosition = (kind: boolean): string => {
  const where = kind ? 'e.kind = ? AND ' : '';
  return `SELECT concat(COALESCE(b.k, 0), '.', COALESCE(b.event, 0), '.', a.n, '.', a.s) AS position
FROM (SELECT ${XMIN} AS h) s
LEFT JOIN LATERAL (SELECT e.k, e.event FROM ${EVENTS} e WHERE ${where}e.k < s.h ORDER BY e.k DESC, e.event DESC LIMIT 1) b ON TRUE
CROSS JOIN LATERAL (SELECT count(*) AS n, COALESCE(sum(e.event), 0) AS s FROM ${EVENTS} e WHERE ${where}e.k >= s.h) a`;
};

const INSERT_IF = 'SELECT event, live FROM topocat_insert_if(?::jsonb, ?::jsonb)';

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

/**
 * The changes committed before a snapshot (`xmin:xmax:xip,…`, txid_current_snapshot's text):
 * those whose writer's transaction it sees, by PostgreSQL's rule of visibility.
 */
export function snapshotFloor(text: string): Floor {
  const [xmin, xmax, running] = text.split(':');
  const lowest = Number(xmin);
  const next = Number(xmax);
  const inProgress = new Set((running ?? '').split(',').filter((x) => x !== '').map(Number));
  return { covers: (event) => event.writer < lowest || (event.writer < next && !inProgress.has(event.writer)) };
}

type Returned = { event: number | string; kind: string; id: string; ts: number | string }[];

/** The connection a knex transaction runs on (its transaction client hands it out). */
function connectionOf(trx: Knex.Transaction): Promise<PgQueryable> {
  return (trx.client as unknown as { acquireConnection(): Promise<PgQueryable> }).acquireConnection();
}

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
 * Pools.insertIf on a connection (see INSERT_IF_FUNCTION): per version its event id and whether
 * it replaced a live resource; undefined when nothing was stored (the caller then writes the
 * locked way, which finds out why).
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

/**
 * No row that every writer updates: event ids come from a sequence (never rolled back, never
 * waited for), and an event's position is `(k, event)` with `k` its transaction's id (see K). A
 * transaction that commits later may hold a smaller id, but never one below the horizon of a
 * snapshot that saw it running: so readers take only events whose `k` is below the horizon of
 * their own snapshot, and never skip one that commits afterwards.
 */
export const postgresHistory: HistorySql = {
  migration: {
    async up(knex: Knex): Promise<void> {
      await knex.raw(`CREATE SEQUENCE ${SEQUENCE}`);
      await knex.raw(`ALTER TABLE ${EVENTS} ALTER COLUMN xid SET DEFAULT txid_current()`);
      await knex.raw(`SELECT setval('${SEQUENCE}', GREATEST(last, 1), last > 0) FROM ${EVENT_COUNTER} WHERE id = 1`);
      await knex.raw(`CREATE INDEX resource_events_order ON ${EVENTS} (k, event)`);
      await knex.raw(`CREATE INDEX resource_events_resource ON ${EVENTS} (kind, id, k)`);
      await knex.raw('DROP INDEX resource_events_kind_event');
      // Gone, so a process of an older release still running fails its writes loudly instead of
      // numbering events from it (upgrade every process of a database at once: docs/running.md).
      await knex.raw(`DROP TABLE ${EVENT_COUNTER}`);
    },
    async down(knex: Knex): Promise<void> {
      await knex.raw(`CREATE TABLE ${EVENT_COUNTER} (id integer PRIMARY KEY, last bigint NOT NULL)`);
      await knex.raw(`INSERT INTO ${EVENT_COUNTER} (id, last) SELECT 1, COALESCE(max(event), 0) FROM ${EVENTS}`);
      await knex.raw(`CREATE INDEX resource_events_kind_event ON ${EVENTS} (kind, event)`);
      await knex.raw('DROP INDEX resource_events_resource');
      await knex.raw('DROP INDEX resource_events_order');
      await knex.raw(`DROP SEQUENCE ${SEQUENCE}`);
    },
  },

  insertIfMigration: {
    async up(knex: Knex): Promise<void> {
      await knex.raw(INSERT_IF_FUNCTION.replace(/\?/g, '\\?'));
    },
    async down(knex: Knex): Promise<void> {
      await knex.raw('DROP FUNCTION topocat_insert_if(jsonb, jsonb)');
    },
  },

  listPositionMigration: {
    async up(knex: Knex): Promise<void> {
      await knex.raw(`CREATE INDEX resource_events_kind_order ON ${EVENTS} (kind, k, event)`);
    },
    async down(knex: Knex): Promise<void> {
      await knex.raw('DROP INDEX resource_events_kind_order');
    },
  },

  async storeVersions(trx, versions) {
    return storeVersionsOn(await connectionOf(trx), versions);
  },

  async record(trx, changes) {
    const connection = await connectionOf(trx);
    const { rows } = await connection.query({ ...preparedStatement(RECORD), values: [`[${changes.map((c) => `${changeJson(c)}}`).join(',')}]`] });
    return idsInOrder(changes, rows as Returned);
  },

  horizon: `SELECT ${XMIN} AS k, 0 AS event`,
  // Any session of the server counts: transaction ids are server-wide.
  heldBy: `SELECT pid, application_name AS application, state, extract(epoch FROM now() - xact_start)::float8 AS seconds
    FROM pg_stat_activity WHERE backend_xid IS NOT NULL AND xact_start < now() - interval '10 seconds' ORDER BY xact_start LIMIT 1`,
  now: {
    sql: 'SELECT txid_current_snapshot()::text AS snapshot',
    floor: (row) => snapshotFloor(String(row.snapshot)),
  },
  positionOf: `SELECT k FROM ${EVENTS} WHERE event = ?`,
  listPosition: { kind: listPosition(true), kindBindings: 2, all: listPosition(false) },

  after(alias: string, position: Position, horizon?: number): SqlFragment {
    if (horizon !== undefined) return { sql: `(${alias}.k, ${alias}.event) > (?, ?) AND ${alias}.k < ?`, bindings: [...positionParts(position), horizon] };
    return { sql: `(${alias}.k, ${alias}.event) > (?, ?) AND ${alias}.k < ${XMIN}`, bindings: positionParts(position) };
  },

  order(alias: string): string {
    return `${alias}.k, ${alias}.event`;
  },
};
