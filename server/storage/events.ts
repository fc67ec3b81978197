import type { Knex } from 'knex';
import type { Database } from './database.js';
import type { Dialect } from './dialect.js';
import { StorageUnavailable } from './errors.js';

/** One row per change of any resource, in commit order (migration 0005). */
export const EVENTS = 'resource_events';
/** The last event id handed out; its one row, updated last in each write, orders the commits. */
export const EVENT_COUNTER = 'topocat_event_counter';

/** What a change did, as UNIS named it: a new resource, a new version of one, or its deletion. */
export type ChangeAction = 'POST' | 'PUT' | 'DELETE';

/** A change as the event log records it. */
export interface Change {
  readonly kind: string;
  readonly id: string;
  readonly ts: number;
  readonly action: ChangeAction;
}

/** A change read back with its event id and the stored document (null for a deletion). */
export interface ChangeEvent extends Change {
  readonly event: number;
  readonly doc: string | null;
}

/**
 * Migration step 0005: the event log over the history, filled for what was stored before it in
 * the order of `ts`. The history keeps the representations; the event log numbers the changes
 * service-wide, so a client can say where it stopped (SSE's Last-Event-ID) and a process can ask
 * what it has not seen yet.
 */
export function eventsMigration(dialect: Dialect): Knex.Migration {
  return {
    async up(knex) {
      await knex.schema.createTable(EVENTS, (t) => {
        t.bigInteger('event').primary();
        t.specificType('kind', dialect.ddl.keyType(64)).notNullable();
        t.specificType('id', dialect.ddl.keyType(256)).notNullable();
        t.bigInteger('ts').notNullable();
        t.string('action', 8).notNullable();
        t.index(['kind', 'event'], 'resource_events_kind_event');
      });
      await knex.schema.createTable(EVENT_COUNTER, (t) => {
        t.integer('id').primary();
        t.bigInteger('last').notNullable();
      });
      // A version after none, or after a deletion, created the resource; any other replaced one.
      await knex.raw(
        `INSERT INTO ${EVENTS} (event, kind, id, ts, action)
         SELECT ROW_NUMBER() OVER (ORDER BY ts, kind, id), kind, id, ts,
                CASE WHEN deleted THEN 'DELETE'
                     WHEN COALESCE(LAG(deleted) OVER (PARTITION BY kind, id ORDER BY ts), ${dialect.name === 'sqlite' ? '1' : 'TRUE'}) THEN 'POST'
                     ELSE 'PUT' END
         FROM resource_history`,
      );
      const [row] = (await knex(EVENTS).max({ last: 'event' })) as { last: number | string | null }[];
      await knex(EVENT_COUNTER).insert({ id: 1, last: Number(row?.last ?? 0) });
    },
    async down(knex) {
      await knex.schema.dropTable(EVENT_COUNTER);
      await knex.schema.dropTable(EVENTS);
    },
  };
}

/**
 * Number `changes` and add them to the event log, as the last work of a write transaction. The
 * counter row stays locked until the transaction ends, so a transaction that commits later always
 * gets later ids: a reader that has seen event n has seen every event below n. Returns the id of
 * the first change (the others follow in order), 0 for none.
 */
export async function recordChanges(trx: Knex.Transaction, dialect: Dialect, changes: readonly Change[]): Promise<number> {
  if (changes.length === 0) return 0;
  // Prepared statements, not the query builder: every write runs these (see WriteStatements).
  const { rows } = await dialect.statements.run(trx, `UPDATE ${EVENT_COUNTER} SET last = last + ? WHERE id = 1 RETURNING last`, [changes.length]);
  const last = Number((rows[0] as { last: number | string }).last);
  const first = last - changes.length + 1;
  for (let i = 0; i < changes.length; i += 200) {
    const part = changes.slice(i, i + 200);
    const values = part.flatMap((change, j) => [first + i + j, change.kind, change.id, change.ts, change.action]);
    await dialect.statements.run(trx, `INSERT INTO ${EVENTS} (event, kind, id, ts, action) VALUES ${rowsOf('(?, ?, ?, ?, ?)', part.length)}`, values);
  }
  await dialect.announcements.announce(trx);
  return first;
}

/** `row` (a parenthesised list of placeholders) `count` times, comma-separated: a multi-row VALUES. */
export function rowsOf(row: string, count: number): string {
  if (count === 1) return row;
  return Array.from({ length: count }, () => row).join(', ');
}

interface EventRow {
  event: number | string;
  kind: string;
  id: string;
  ts: number | string;
  action: ChangeAction;
  doc: string | null;
}

/**
 * Most events read by a prepared statement of the key reader (on the event loop on SQLite);
 * longer reads go to a reader thread through knex. The change feed reads after every commit
 * that anyone listens to: through knex and a reader thread that cost about 290 µs of CPU per
 * write (1,000 subscriptions: 985–1,055 µs per POST against 635–695 µs with none).
 */
export const KEY_READ_EVENTS = 100;

function changeEvent(r: EventRow): ChangeEvent {
  return { event: Number(r.event), kind: r.kind, id: r.id, ts: Number(r.ts), action: r.action, doc: r.action === 'DELETE' ? null : r.doc };
}

/** Reads the event log: what changed after an event id, and where it ends. */
export class EventLog {
  private readonly lastSql = `SELECT last FROM ${EVENT_COUNTER} WHERE id = 1`;
  private readonly previousSql: string;

  /**
   * Events after an id, with their documents, up to a limit: the change feed's read after every
   * commit. The limit is written into the text (one statement per limit; the feed uses one):
   * SQLite ran the statement in 2.8 µs with `LIMIT 100` and 8.7 µs with `LIMIT ?` bound to 100.
   */
  private readonly afterSql: (limit: number) => string;

  constructor(private readonly db: Database) {
    this.previousSql = `SELECT ts FROM resource_history WHERE kind = ? AND id = ? AND ts < ? AND NOT deleted ORDER BY ts DESC LIMIT 1`;
    const doc = db.dialect.columns.documentText(db.reader, 'h.doc', 'doc').toString();
    this.afterSql = (limit) =>
      `SELECT e.event, e.kind, e.id, e.ts, e.action, ${doc} FROM ${EVENTS} e LEFT JOIN resource_history h ON h.kind = e.kind AND h.id = e.id AND h.ts = e.ts WHERE e.event > ? ORDER BY e.event LIMIT ${Math.trunc(limit)}`;
  }

  /** The newest committed event id (0 before any). */
  async last(): Promise<number> {
    return this.guard(async () => Number(((await this.db.keys.one(this.lastSql, [])) as { last: number | string } | undefined)?.last ?? 0));
  }

  /** Up to `limit` events after `event`, oldest first, of `kinds` (all when absent), with their documents. */
  async after(event: number, limit: number, kinds?: readonly string[], id?: string): Promise<ChangeEvent[]> {
    return this.guard(async () => {
      if (!kinds && id === undefined && limit <= KEY_READ_EVENTS) return ((await this.db.keys.all(this.afterSql(limit), [event])) as unknown as EventRow[]).map(changeEvent);
      const knex = this.db.reader;
      const query = knex({ e: EVENTS })
        .leftJoin({ h: 'resource_history' }, (join) => join.on('h.kind', 'e.kind').andOn('h.id', 'e.id').andOn('h.ts', 'e.ts'))
        .select('e.event', 'e.kind', 'e.id', 'e.ts', 'e.action', this.db.dialect.columns.documentText(knex, 'h.doc', 'doc'))
        .where('e.event', '>', event)
        .orderBy('e.event')
        .limit(limit);
      if (kinds) query.whereIn('e.kind', kinds);
      if (id !== undefined) query.where('e.id', id);
      return ((await query) as EventRow[]).map(changeEvent);
    });
  }

  /** The `ts` of the version a deletion at `ts` ended (to match a deleted resource as it was). */
  async endedVersion(kind: string, id: string, ts: number): Promise<number | undefined> {
    return this.guard(async () => {
      const row = (await this.db.keys.one(this.previousSql, [kind, id, ts])) as { ts: number | string } | undefined;
      return row ? Number(row.ts) : undefined;
    });
  }

  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw this.db.dialect.errors.isUnavailable(error) ? new StorageUnavailable(error) : error;
    }
  }
}
