import type { Knex } from 'knex';
import type { SortKey } from '../../query/syntax.js';
import type { Condition } from '../../query/tree.js';
import { nowMicros } from '../clock.js';
import type { Uses } from '../contract/database.js';
import type { Row } from '../contract/rows.js';
import type { StatementResult } from '../contract/driver.js';
import { classified, SeriesMissing, StorageUnavailable } from '../errors.js';
import { recordChanges } from '../events.js';
import type { Change, ChangeEvent } from '../contract/events.js';
import { QueryCompiler } from '../query-sql.js';
import { Pacer } from '../pace.js';
import type { ResourceStore } from '../resource-store.js';
import { POINTS, SERIES } from './tables.js';

/** What the measurement store uses of the database. */
export type MeasurementDatabase = Uses<'reader' | 'keys' | 'stream', { sql: 'json' | 'columns'; driver: 'errors' | 'statements' | 'limits'; adapter: 'locking'; features: 'history' | 'points' }>;

/**
 * Points per INSERT: a batch goes in slices with the Pacer between them, so reads wait for a
 * slice, not for the batch. Measured with a scratch script on the loaded development machine:
 * 1,000 points inserted in 1.3–2.1 ms, the cap's delete of the 1,000 oldest 0.9–1.4 ms, on the
 * event loop (better-sqlite3 is synchronous).
 */
const INSERT_SLICE = 250;

/** The most points newest() answers: beyond, a read holds the event loop too long (see newest()). */
export const NEWEST_MAX = 1_000;
/** The most points a page() answers; larger reads stream. */
export const PAGE_MAX = 10_000;

/** The collection name of data points in the event log and in subscriptions (UNIS's `data/<mid>`). */
export const DATA_COLLECTION = 'data';

/** What `POST /events` registers for a series. */
export interface SeriesRegistration {
  readonly mid: string;
  readonly metadataUrl: string;
  /** The most points kept; the oldest go first. */
  readonly collectionSize: number;
  /** Seconds a point lives after its `ts`; 0: for ever. */
  readonly ttl: number;
  /** The metadata's `parameters.datumSchema` when the series was registered. */
  readonly datumSchema: string | null;
}

export interface Series extends SeriesRegistration {
  /** Points stored now (expired ones included until they are pruned). */
  readonly points: number;
  /** When it was registered, µs. */
  readonly ts: number;
}

/** A data point as posted: a numeric `ts` and whatever else the datum holds. */
export type DataPoint = { readonly ts: number } & Readonly<Record<string, unknown>>;

export interface PointBatch {
  readonly mid: string;
  readonly points: readonly DataPoint[];
}

/** What an append did to one series. */
export interface Appended {
  readonly mid: string;
  /** New points stored. */
  readonly stored: number;
  /** Points whose (mid, ts) was stored already: ignored. */
  readonly duplicates: number;
  /** Points older than the ttl when they arrived: not stored. */
  readonly expired: number;
  /** Older points deleted to keep the series within its cap (and expired ones pruned). */
  readonly dropped: number;
}

/** Counts over a range of `ts`. */
export interface SeriesSummary {
  readonly count: number;
  readonly first: number | null;
  readonly last: number | null;
}

export interface PointSelection {
  readonly conditions: readonly Condition[];
  readonly sort: readonly SortKey[];
  readonly limit: number;
  readonly skip?: number;
  /**
   * The points selected (without `sort`: the newest that match) answered oldest first, as
   * UNIS answered its points (rest-contract §14: a UNIS-form read without `sort`).
   */
  readonly oldestFirst?: boolean;
}

interface SeriesRow extends Row {
  mid: string;
  metadata_url: string;
  collection_size: number | string;
  ttl: number | string;
  datum_schema: string | null;
  points: number | string;
  ts: number | string;
}

const seriesOf = (row: SeriesRow): Series => ({
  mid: row.mid,
  metadataUrl: row.metadata_url,
  collectionSize: Number(row.collection_size),
  ttl: Number(row.ttl),
  datumSchema: row.datum_schema,
  points: Number(row.points),
  ts: Number(row.ts),
});

/** The oldest `ts` still alive at `now`, or undefined when points never expire. */
export function expiryCutoff(ttl: number, now: number): number | undefined {
  return ttl > 0 ? now - ttl * 1e6 : undefined;
}

/**
 * UNIS's measurement store (docs/measurements.md): capped series of data points beside the
 * versioned documents, in tables of their own (tables.ts). An append is one write job: it takes
 * the series' lock (PostgreSQL: advisory; SQLite: the file's one writer), numbers one event per
 * series in the event log, inserts the batch as one set-based statement, prunes the expired
 * points and, over the cap, the oldest, and keeps the series' count of points, so the cap never
 * needs a count of the table.
 */
export class MeasurementStore {
  private readonly compiler: QueryCompiler;
  private readonly sql: { readonly series: string; readonly count: string; readonly expired: string; readonly oldestBeyond: string; readonly newest: string; readonly newestOldestFirst: string };

  constructor(
    private readonly db: MeasurementDatabase,
    /** Whose writes this store's go through, so that its commit listeners (the change feed) hear them. */
    private readonly resources: ResourceStore,
  ) {
    this.compiler = new QueryCompiler(db.dialect);
    this.sql = {
      series: `SELECT mid, metadata_url, collection_size, ttl, datum_schema, points, ts FROM ${SERIES} WHERE mid = ?`,
      count: `UPDATE ${SERIES} SET points = ? WHERE mid = ?`,
      expired: `DELETE FROM ${POINTS} WHERE mid = ? AND ts < ?`,
      newest: `SELECT ${db.dialect.sql.columns.documentArray('doc', 'ts DESC')} AS body FROM (SELECT ts, doc FROM ${POINTS} WHERE mid = ? AND ts >= ? ORDER BY ts DESC LIMIT ?) AS page`,
      newestOldestFirst: `SELECT ${db.dialect.sql.columns.documentArray('doc', 'ts')} AS body FROM (SELECT ts, doc FROM ${POINTS} WHERE mid = ? AND ts >= ? ORDER BY ts DESC LIMIT ?) AS page`,
      // The `ts` of the n-th oldest point (0-based): everything up to it goes.
      oldestBeyond: `DELETE FROM ${POINTS} WHERE mid = ? AND ts <= (SELECT ts FROM ${POINTS} WHERE mid = ? ORDER BY ts LIMIT 1 OFFSET ?)`,
    };
  }

  /**
   * Register a series, or change the cap and ttl of a registered one (its points then obey them).
   * `registeredAt`: when a new series was registered where it comes from (an import: UNIS's
   * `events_cache` keeps it, and `GET /events` answers it as the series' `ts`); now otherwise.
   */
  async register(registration: SeriesRegistration, registeredAt?: number): Promise<{ readonly series: Series; readonly created: boolean }> {
    const now = nowMicros();
    return this.write(async (trx) => {
      await this.db.dialect.adapter.locking.lockResources(trx, DATA_COLLECTION, [registration.mid]);
      const [row] = (await this.run(trx, this.sql.series, [registration.mid])).rows as readonly SeriesRow[];
      const columns = [registration.metadataUrl, registration.collectionSize, registration.ttl, registration.datumSchema];
      if (!row) {
        const ts = registeredAt ?? now;
        await this.run(trx, `INSERT INTO ${SERIES} (metadata_url, collection_size, ttl, datum_schema, points, ts, mid) VALUES (?, ?, ?, ?, 0, ?, ?)`, [...columns, ts, registration.mid]);
        return { series: { ...registration, points: 0, ts }, created: true };
      }
      const before = seriesOf(row);
      const points = before.points - (await this.prune(trx, registration.mid, before.points, registration.collectionSize, expiryCutoff(registration.ttl, now)));
      await this.run(trx, `UPDATE ${SERIES} SET metadata_url = ?, collection_size = ?, ttl = ?, datum_schema = ?, points = ? WHERE mid = ?`, [...columns, points, registration.mid]);
      return { series: { ...registration, points, ts: before.ts }, created: false };
    });
  }

  /** One series by its mid. */
  async series(mid: string): Promise<Series | undefined> {
    const row = (await this.read(() => this.db.keys.one(this.sql.series, [mid]))) as SeriesRow | undefined;
    return row ? seriesOf(row) : undefined;
  }

  /** Registered series, of `mids` when given, by mid. */
  async list(mids?: readonly string[]): Promise<Series[]> {
    return this.read(async () => {
      const query = this.db.reader(SERIES).select('mid', 'metadata_url', 'collection_size', 'ttl', 'datum_schema', 'points', 'ts').orderBy('mid');
      if (mids) query.whereIn('mid', [...mids]);
      return ((await query) as SeriesRow[]).map(seriesOf);
    });
  }

  /** How many live points a series has between `gte` and `lte` (inclusive), the first and last `ts`. */
  async summary(series: Series, range: { readonly gte?: number; readonly lte?: number }, now = nowMicros()): Promise<SeriesSummary> {
    return this.read(async () => {
      const query = this.db.reader(POINTS).where('mid', series.mid).count({ count: '*' }).min({ first: 'ts' }).max({ last: 'ts' });
      const cutoff = expiryCutoff(series.ttl, now);
      const lower = Math.max(cutoff ?? -Infinity, range.gte ?? -Infinity);
      if (lower > -Infinity) query.where('ts', '>=', lower);
      if (range.lte !== undefined) query.where('ts', '<=', range.lte);
      const [row] = (await query) as { count: number | string; first: number | string | null; last: number | string | null }[];
      return { count: Number(row?.count ?? 0), first: row?.first == null ? null : Number(row.first), last: row?.last == null ? null : Number(row.last) };
    });
  }

  /**
   * Append batches of points, all or nothing: an unknown mid fails the whole call
   * (SeriesMissing with the batch's index). Points are stored as posted (their JSON text).
   */
  async append(batches: readonly PointBatch[], now = nowMicros()): Promise<Appended[]> {
    // One batch per series: a call may name a series twice.
    const merged = new Map<string, { index: number; points: DataPoint[] }>();
    batches.forEach((batch, index) => {
      const entry = merged.get(batch.mid) ?? merged.set(batch.mid, { index, points: [] }).get(batch.mid)!;
      for (const point of batch.points) entry.points.push(point);
    });
    const mids = [...merged.keys()];
    return this.write(async (trx) => {
      await this.db.dialect.adapter.locking.lockResources(trx, DATA_COLLECTION, mids);
      const rows = new Map<string, Series>();
      for (const mid of mids) {
        const [row] = (await this.run(trx, this.sql.series, [mid])).rows as readonly SeriesRow[];
        if (!row) throw new SeriesMissing(mid, merged.get(mid)!.index);
        rows.set(mid, seriesOf(row));
      }
      const live = new Map<string, DataPoint[]>();
      for (const mid of mids) {
        const cutoff = expiryCutoff(rows.get(mid)!.ttl, now);
        const all = merged.get(mid)!.points;
        live.set(mid, cutoff === undefined ? all : all.filter((p) => p.ts >= cutoff));
      }
      // Each batch's event carries the floor of its smallest ts: where its points start (see tables.ts).
      const changes = mids.map((mid): Change => ({ kind: DATA_COLLECTION, id: mid, ts: Math.floor(live.get(mid)!.reduce((least, p) => Math.min(least, p.ts), now)), action: 'POST' }));
      const events = await recordChanges(trx, this.db.dialect, changes);
      const pacer = new Pacer();
      const results: Appended[] = [];
      for (const [i, mid] of mids.entries()) {
        const series = rows.get(mid)!;
        const cutoff = expiryCutoff(series.ttl, now);
        const all = merged.get(mid)!.points;
        const points = live.get(mid)!;
        let stored = 0;
        // In slices, so that a large batch gives the event loop its turns (reads wait for a slice, not for the batch).
        for (let from = 0; from < points.length; from += INSERT_SLICE) {
          stored += (await this.run(trx, this.db.dialect.features.points.insertFromJson, [mid, events[i], JSON.stringify(points.slice(from, from + INSERT_SLICE))])).changes;
          await pacer.breathe();
        }
        const dropped = await this.prune(trx, mid, series.points + stored, series.collectionSize, cutoff);
        if (stored !== 0 || dropped !== 0) await this.run(trx, this.sql.count, [series.points + stored - dropped, mid]);
        results.push({ mid, stored, duplicates: points.length - stored, expired: all.length - points.length, dropped });
      }
      return results;
    });
  }

  /**
   * Delete the expired points of every series with a ttl (a series nobody posts to keeps them
   * otherwise), one write job per series; returns how many went.
   */
  async pruneExpired(now = nowMicros()): Promise<number> {
    const mortal = await this.read(async () => (await this.db.reader(SERIES).select('mid').where('ttl', '>', 0)) as { mid: string }[]);
    let deleted = 0;
    for (const { mid } of mortal) {
      deleted += await this.write(async (trx) => {
        await this.db.dialect.adapter.locking.lockResources(trx, DATA_COLLECTION, [mid]);
        const [row] = (await this.run(trx, this.sql.series, [mid])).rows as readonly SeriesRow[];
        if (!row) return 0;
        const series = seriesOf(row);
        const gone = await this.prune(trx, mid, series.points, series.collectionSize, expiryCutoff(series.ttl, now));
        if (gone > 0) await this.run(trx, this.sql.count, [series.points - gone, mid]);
        return gone;
      });
    }
    return deleted;
  }

  /**
   * Delete the expired points of a series, then the oldest beyond its cap; returns how many
   * went. `points` is the series' count before.
   */
  private async prune(trx: Knex.Transaction, mid: string, points: number, cap: number, cutoff: number | undefined): Promise<number> {
    let deleted = 0;
    // An index range of the key: nothing to read when nothing has expired.
    if (cutoff !== undefined) deleted += (await this.run(trx, this.sql.expired, [mid, cutoff])).changes;
    const excess = points - deleted - cap;
    if (excess > 0) deleted += (await this.run(trx, this.sql.oldestBeyond, [mid, mid, excess - 1])).changes;
    return deleted;
  }

  private run(trx: Knex.Transaction, sql: string, bindings: readonly unknown[]): Promise<StatementResult> {
    return this.db.dialect.driver.statements.run(trx, sql, bindings);
  }

  /** The points a selection reads, in its order (newest first unless sorted), and the SQL of that order. */
  private selected(series: Series, selection: PointSelection, now: number, doc: Knex.Raw | string): { readonly builder: Knex.QueryBuilder; readonly order: string } {
    const knex = this.db.reader;
    const builder = knex(POINTS).select('ts', doc).where('mid', series.mid);
    const cutoff = expiryCutoff(series.ttl, now);
    if (cutoff !== undefined) builder.where('ts', '>=', cutoff);
    this.compiler.where(builder, selection.conditions);
    const order: string[] = [];
    for (const key of selection.sort) {
      const direction = key.descending ? 'DESC' : 'ASC';
      const nulls = key.descending ? 'NULLS LAST' : 'NULLS FIRST';
      const path = key.field.join('.');
      for (const expression of path === 'ts' ? ['ts'] : this.db.dialect.sql.json.sortKeys('doc', key.field)) order.push(`${expression} ${direction} ${nulls}`);
    }
    order.push('ts DESC');
    builder.orderByRaw(order.join(', ')).limit(selection.limit);
    if (selection.skip !== undefined) builder.offset(selection.skip);
    return { builder, order: order.join(', ') };
  }

  /**
   * The live points of a series that match, as the text of one JSON array: the database joins
   * the stored texts in one aggregate, and one row crosses to this thread. For pages of up to
   * PAGE_MAX points (see points() beyond).
   */
  async page(series: Series, selection: PointSelection, now = nowMicros()): Promise<string> {
    // The document column as stored: the aggregate orders by expressions on it.
    const { builder, order } = this.selected(series, selection, now, 'doc');
    const knex = this.db.reader;
    return this.read(async () => {
      const row = (await knex.select(knex.raw(`${this.db.dialect.sql.columns.documentArray('doc', selection.oldestFirst ? 'ts' : order)} AS body`)).from(builder.as('page')).first()) as { body: string } | undefined;
      return row?.body ?? '[]';
    });
  }

  /**
   * The newest `limit` (at most NEWEST_MAX) live points of a series, as the text of one JSON
   * array: what dlt-web asks for (`?limit=300`, `?limit=1`). One prepared statement of the key
   * reader, a range of the key read backwards: on SQLite it runs on the event loop, where the
   * newest 1,000 of 100,000 points take 0.5–0.7 ms (scratch script, loaded machine), against
   * 2.4 ms for the same page through the query builder and a reader thread (see page()).
   * `oldestFirst`: the same points, answered oldest first (see PointSelection).
   */
  async newest(series: Series, limit: number, oldestFirst = false, now = nowMicros()): Promise<string> {
    const sql = oldestFirst ? this.sql.newestOldestFirst : this.sql.newest;
    const row = (await this.read(() => this.db.keys.one(sql, [series.mid, expiryCutoff(series.ttl, now) ?? -Number.MAX_VALUE, limit]))) as { body: string } | undefined;
    return row?.body ?? '[]';
  }

  /** The live points of a series that match, as stored JSON texts, streamed (any number of them). */
  points(series: Series, selection: PointSelection, now = nowMicros()): AsyncIterable<string> {
    const { builder } = this.selected(series, selection, now, this.db.dialect.sql.columns.documentText(this.db.reader, 'doc'));
    const ordered = selection.oldestFirst ? this.db.reader.select('doc').from(builder.as('page')).orderBy('ts') : builder;
    const rows = this.db.stream(ordered, selection.limit);
    const errors = this.db.dialect.driver.errors;
    return {
      async *[Symbol.asyncIterator]() {
        try {
          for await (const row of rows) yield String(row.doc);
        } catch (error) {
          throw errors.isUnavailable(error) ? new StorageUnavailable(error) : error;
        }
      },
    };
  }

  /** Delete a series and its points; false when there was none. Subscribers hear a DELETE. */
  async remove(mid: string): Promise<boolean> {
    return this.write(async (trx) => {
      await this.db.dialect.adapter.locking.lockResources(trx, DATA_COLLECTION, [mid]);
      const removed = await trx(SERIES).where('mid', mid).delete();
      if (removed === 0) return false;
      await trx(POINTS).where('mid', mid).delete();
      await recordChanges(trx, this.db.dialect, [{ kind: DATA_COLLECTION, id: mid, ts: nowMicros(), action: 'DELETE' }]);
      return true;
    });
  }

  /**
   * The points each event of an append stored and that are still there, as JSON texts in `ts`
   * order, for publication (an event whose points the cap or ttl removed since has none). Each
   * event's points are a range of the key: its series, from its `ts` on (see tables.ts).
   */
  async published(events: readonly ChangeEvent[]): Promise<Map<number, string[]>> {
    const found = new Map<number, string[]>();
    return this.read(async () => {
      const knex = this.db.reader;
      for (let i = 0; i < events.length; i += 50) {
        const part = events.slice(i, i + 50);
        const rows = (await knex(POINTS)
          .select('event', this.db.dialect.sql.columns.documentText(knex, 'doc'))
          .where((where) => {
            for (const event of part) where.orWhere((one) => one.where('mid', event.id).where('ts', '>=', event.ts).where('event', event.event));
          })
          .orderBy(['event', 'ts'])) as { event: number | string; doc: string }[];
        for (const row of rows) {
          const event = Number(row.event);
          (found.get(event) ?? found.set(event, []).get(event)!).push(row.doc);
        }
      }
      return found;
    });
  }

  /** Through the resource store's writes, whose commit listeners (the change feed) hear of it. */
  private write<T>(job: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    return this.resources.write(job);
  }

  private read<T>(work: () => Promise<T>): Promise<T> {
    return classified(this.db.dialect.driver.errors, work);
  }
}
