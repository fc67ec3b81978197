import type { Knex } from 'knex';
import type { DialectUses, Uses } from './contract/database.js';
import type { Dialect } from './contract/dialect.js';
import { onPrimary } from './on-primary.js';
import { EVENT_COUNTER, EVENTS, positionOf, START, type Change, type ChangeAction, type ChangeEvent, type Floor, type Position, type RecordedAction } from './contract/events.js';
import { classified } from './errors.js';

/** What the event log's reader uses of the database. */
export type EventLogDatabase = Uses<'reader' | 'keys' | 'standbys', { sql: 'columns'; driver: 'errors'; features: 'history' }>;

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
        t.specificType('kind', dialect.sql.ddl.keyType(64)).notNullable();
        t.specificType('id', dialect.sql.ddl.keyType(256)).notNullable();
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
                     WHEN COALESCE(LAG(deleted) OVER (PARTITION BY kind, id ORDER BY ts), TRUE) THEN 'POST'
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
 * Number `changes` and add them to the event log, as part of a write transaction that holds
 * their resources' locks (see HistorySql.record). Returns their event ids, in order.
 */
export function recordChanges(trx: Knex.Transaction, dialect: DialectUses<{ features: 'history' }>, changes: readonly Change[]): Promise<number[]> {
  return changes.length === 0 ? Promise.resolve([]) : dialect.features.history.record(trx, changes);
}

/**
 * Migration step 0008: the event log ordered without a row every writer updates. Until this step
 * every write transaction took its event ids from one counter row and held it locked until its
 * COMMIT, so on PostgreSQL every writer of every process queued on that row (89 % of the active
 * backends' samples waited on a lock with 16 writers). See HistorySql.
 */
export function eventOrderMigration(dialect: Dialect): Knex.Migration {
  return {
    async up(knex) {
      await knex.schema.alterTable(EVENTS, (t) => {
        t.bigInteger('k').notNullable().defaultTo(0);
        t.bigInteger('xid').notNullable().defaultTo(0);
      });
      await dialect.features.history.migration.up(knex);
    },
    async down(knex) {
      await dialect.features.history.migration.down(knex);
      await knex.schema.alterTable(EVENTS, (t) => {
        t.dropColumn('xid');
        t.dropColumn('k');
      });
    },
  };
}

interface EventRow {
  event: number | string;
  k: number | string;
  xid: number | string;
  kind: string;
  id: string;
  ts: number | string;
  action: RecordedAction;
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
  const reposted = r.action === 'REPOST';
  return { event: Number(r.event), position: positionOf(Number(r.k), Number(r.event)), writer: Number(r.xid), kind: r.kind, id: r.id, ts: Number(r.ts), action: reposted ? 'PUT' : (r.action as ChangeAction), reposted, doc: r.action === 'DELETE' ? null : r.doc };
}

/** Reads the event log: what changed after a position, and where the final events end. */
export class EventLog {
  private readonly previousSql: string;

  /**
   * Events after a position, with their documents, up to a limit: the change feed's read after
   * every commit. The limit is written into the text (one statement per limit; the feed uses one):
   * SQLite ran the statement in 2.8 µs with `LIMIT 100` and 8.7 µs with `LIMIT ?` bound to 100.
   */
  private readonly afterSql: (limit: number) => string;
  /** The same read below a horizon the primary gave (on a standby: Standbys.belowHorizon). */
  private readonly belowSql: (limit: number) => string;

  constructor(private readonly db: EventLogDatabase) {
    this.previousSql = `SELECT ts FROM resource_history WHERE kind = ? AND id = ? AND ts < ? AND NOT deleted ORDER BY ts DESC LIMIT 1`;
    const doc = db.dialect.sql.columns.documentText(db.reader, 'h.doc', 'doc').toString();
    const { history } = db.dialect.features;
    const read = (condition: string, limit: number): string =>
      `SELECT e.event, e.k, e.xid, e.kind, e.id, e.ts, e.action, ${doc} FROM ${EVENTS} e LEFT JOIN resource_history h ON h.kind = e.kind AND h.id = e.id AND h.ts = e.ts WHERE ${condition} ORDER BY ${history.order('e')} LIMIT ${Math.trunc(limit)}`;
    this.afterSql = (limit) => read(history.after('e', START).sql, limit);
    this.belowSql = (limit) => read(history.after('e', START, 0).sql, limit);
  }

  /** A position after every event final now, before every event that is not (nor committed) yet. */
  async last(): Promise<Position> {
    return this.onPrimary(async () => {
      const row = (await this.db.keys.one(this.db.dialect.features.history.horizon, [])) as { k: number | string; event: number | string | null } | undefined;
      return row ? positionOf(Number(row.k), Number(row.event ?? 0)) : START;
    });
  }

  /** What a subscriber that asks now must not be sent: the changes committed before now. */
  async now(): Promise<Floor> {
    return this.onPrimary(async () => {
      const { history } = this.db.dialect.features;
      const row = await this.db.keys.one(history.now.sql, []);
      if (!row) throw new Error('the event log has no position');
      return history.now.floor(row);
    });
  }

  /** The position of the event with id `event`; undefined when there is no such event. */
  async position(event: number): Promise<Position | undefined> {
    return this.onPrimary(async () => {
      const row = (await this.db.keys.one(this.db.dialect.features.history.positionOf, [event])) as { k: number | string } | undefined;
      return row ? positionOf(Number(row.k), event) : undefined;
    });
  }

  /**
   * Up to `limit` final events after `position`, in order, of `kinds` (all when absent), with
   * their documents. With standbys, read where the primary's horizon has been replayed (the
   * feed's reads then cost the primary one tiny statement per round, however many subscribers).
   */
  async after(position: Position, limit: number, kinds?: readonly string[], id?: string): Promise<ChangeEvent[]> {
    const standbys = this.db.standbys;
    if (standbys) return classified(this.db.dialect.driver.errors, () => standbys.belowHorizon((horizon) => this.read(position, limit, kinds, id, horizon)));
    return this.read(position, limit, kinds, id);
  }

  private async read(position: Position, limit: number, kinds: readonly string[] | undefined, id: string | undefined, horizon?: number): Promise<ChangeEvent[]> {
    return this.guard(async () => {
      const after = this.db.dialect.features.history.after('e', position, horizon);
      if (!kinds && id === undefined && limit <= KEY_READ_EVENTS) return ((await this.db.keys.all((horizon === undefined ? this.afterSql : this.belowSql)(limit), after.bindings)) as unknown as EventRow[]).map(changeEvent);
      const knex = this.db.reader;
      const query = knex({ e: EVENTS })
        .leftJoin({ h: 'resource_history' }, (join) => join.on('h.kind', 'e.kind').andOn('h.id', 'e.id').andOn('h.ts', 'e.ts'))
        .select('e.event', 'e.k', 'e.xid', 'e.kind', 'e.id', 'e.ts', 'e.action', this.db.dialect.sql.columns.documentText(knex, 'h.doc', 'doc'))
        .whereRaw(after.sql, after.bindings as Knex.RawBinding[])
        .orderByRaw(this.db.dialect.features.history.order('e'))
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

  /** Classified errors; outside `after`, on the primary where there are standbys (its snapshot and horizon are the log's). */
  private guard<T>(work: () => Promise<T>): Promise<T> {
    return classified(this.db.dialect.driver.errors, work);
  }

  private onPrimary<T>(work: () => Promise<T>): Promise<T> {
    return this.guard(() => onPrimary(this.db.standbys, work));
  }
}
