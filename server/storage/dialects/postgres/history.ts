import type { Knex } from 'knex';
import type { HistorySql } from '../../contract/features.js';
import type { SqlFragment } from '../../contract/sql.js';
import { EVENT_COUNTER, EVENTS, type Floor, type Position, positionParts } from '../../contract/events.js';
import { insertIfMigration } from './insert-if-function.js';
import type { PgQueryable } from './prepared.js';
import { EVENT_SEQUENCE, recordOn, storeVersionsOn } from './version-writes.js';

/** The horizon: transactions with a smaller id have all ended; none that commits later can be among them. */
const XMIN = 'txid_snapshot_xmin(txid_current_snapshot())';

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

/** The connection a knex transaction runs on (its transaction client hands it out). */
function connectionOf(trx: Knex.Transaction): Promise<PgQueryable> {
  return (trx.client as unknown as { acquireConnection(): Promise<PgQueryable> }).acquireConnection();
}

/**
 * No row that every writer updates: event ids come from a sequence (never rolled back, never
 * waited for), and an event's position is `(k, event)` with `k` its transaction's id (see K,
 * version-writes.ts). A transaction that commits later may hold a smaller id, but never one below
 * the horizon of a snapshot that saw it running: so readers take only events whose `k` is below
 * the horizon of their own snapshot, and never skip one that commits afterwards.
 */
export const postgresHistory: HistorySql = {
  migration: {
    async up(knex: Knex): Promise<void> {
      await knex.raw(`CREATE SEQUENCE ${EVENT_SEQUENCE}`);
      await knex.raw(`ALTER TABLE ${EVENTS} ALTER COLUMN xid SET DEFAULT txid_current()`);
      await knex.raw(`SELECT setval('${EVENT_SEQUENCE}', GREATEST(last, 1), last > 0) FROM ${EVENT_COUNTER} WHERE id = 1`);
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
      await knex.raw(`DROP SEQUENCE ${EVENT_SEQUENCE}`);
    },
  },

  insertIfMigration,

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
    return recordOn(await connectionOf(trx), changes);
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
