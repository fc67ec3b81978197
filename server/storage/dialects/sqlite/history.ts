import type { Knex } from 'knex';
import type { HistorySql } from '../../contract/features.js';
import type { SqlFragment } from '../../contract/sql.js';
import { type Change, EVENT_COUNTER, EVENTS, type Position, positionOf, positionParts, upTo } from '../../contract/events.js';
import { chunks, rowsOf } from '../../contract/rows.js';
import { Pacer } from '../../pace.js';
import { sqliteStatements } from './write-statements.js';

/** Rows per INSERT statement: well under SQLite's 32,766 bound parameters. */
const CHUNK = 200;

const run = (trx: Knex.Transaction, sql: string, bindings: readonly unknown[]) => sqliteStatements.run(trx, sql, bindings);

/**
 * One writer at a time commits to the file, so its events are numbered from one counter row as
 * they are written, and an event's id is its position: a reader that has seen event n has seen
 * every event before it. Every statement is prepared once on the writer (WriteStatements).
 */
export const sqliteHistory: HistorySql = {
  // Event ids order the events here: the new column `k` stays 0.
  migration: { up: async () => {}, down: async () => {} },
  // Its one writer is in the process: no CompareAndSetWrites.insertIf.
  insertIfMigration: { up: async () => {}, down: async () => {} },
  // The index of step 0005 (`kind`, `event`) finds a kind's newest event.
  listPositionMigration: { up: async () => {}, down: async () => {} },

  async storeVersions(trx, versions) {
    const pacer = new Pacer();
    for (const part of chunks(versions, CHUNK)) {
      await run(trx, `INSERT INTO resource_history (kind, id, ts, doc, deleted) VALUES ${rowsOf('(?, ?, ?, ?, ?)', part.length)}`, part.flatMap((v) => [v.kind, v.id, v.ts, v.doc, v.doc === null ? 1 : 0]));
      await pacer.breathe();
    }
    // The last version of each resource is its current row; a deletion has none. A past one is history only.
    const present = versions.some((v) => v.past) ? versions.filter((v) => !v.past) : versions;
    const last = [...new Map(present.map((v) => [`${v.kind}/${v.id}`, v])).values()];
    const live = last.filter((v) => v.doc !== null);
    for (const part of chunks(live, CHUNK)) {
      await run(
        trx,
        `INSERT INTO resource_current (kind, id, ts, doc) VALUES ${rowsOf('(?, ?, ?, ?)', part.length)} ON CONFLICT (kind, id) DO UPDATE SET ts = excluded.ts, doc = excluded.doc`,
        part.flatMap((v) => [v.kind, v.id, v.ts, v.doc]),
      );
      await pacer.breathe();
    }
    for (const v of last) if (v.doc === null) await run(trx, 'DELETE FROM resource_current WHERE kind = ? AND id = ?', [v.kind, v.id]);
    return this.record(trx, present);
  },

  async record(trx, changes: readonly Change[]) {
    const { rows } = await run(trx, `UPDATE ${EVENT_COUNTER} SET last = last + ? WHERE id = 1 RETURNING last`, [changes.length]);
    const first = Number((rows[0] as { last: number | string }).last) - changes.length + 1;
    for (let i = 0; i < changes.length; i += CHUNK) {
      const part = changes.slice(i, i + CHUNK);
      await run(trx, `INSERT INTO ${EVENTS} (event, kind, id, ts, action) VALUES ${rowsOf('(?, ?, ?, ?, ?)', part.length)}`, part.flatMap((c, j) => [first + i + j, c.kind, c.id, c.ts, c.action]));
    }
    return changes.map((_, i) => first + i);
  },

  horizon: `SELECT 0 AS k, last AS event FROM ${EVENT_COUNTER} WHERE id = 1`,
  now: {
    sql: `SELECT last FROM ${EVENT_COUNTER} WHERE id = 1`,
    floor: (row) => upTo(positionOf(0, Number(row.last))),
  },
  positionOf: `SELECT k FROM ${EVENTS} WHERE event = ?`,
  // Events are numbered as they commit, one writer at a time: the newest id of a kind (one step
  // down the index on (kind, event)), or the counter, says every event committed before it.
  listPosition: {
    kind: `SELECT event AS position FROM ${EVENTS} WHERE kind = ? ORDER BY event DESC LIMIT 1`,
    kindBindings: 1,
    all: `SELECT last AS position FROM ${EVENT_COUNTER} WHERE id = 1`,
  },

  after(alias: string, position: Position): SqlFragment {
    return { sql: `${alias}.event > ?`, bindings: [positionParts(position)[1]] };
  },

  order(alias: string): string {
    return `${alias}.event`;
  },
};
