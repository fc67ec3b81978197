import type { Knex } from 'knex';
import { nowMicros } from '../clock.js';
import { classified, classifiedItems } from '../errors.js';
import { QueryCompiler } from '../query-sql.js';
import type { PointSelection, SeriesSummary } from './points.js';
import { expiryCutoff, type Series } from './series.js';
import type { MeasurementDatabase, MeasurementSql } from './statements.js';
import { POINTS } from './tables.js';

/** Reads of a series' live points: counts, pages as one JSON text, the newest by key, streams. */
export class PointReads {
  private readonly compiler: QueryCompiler;

  constructor(
    private readonly db: MeasurementDatabase,
    private readonly sql: MeasurementSql,
  ) {
    this.compiler = new QueryCompiler(db.dialect);
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
    return classifiedItems(this.db.dialect.driver.errors, {
      async *[Symbol.asyncIterator]() {
        for await (const row of rows) yield String(row.doc);
      },
    });
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

  private read<T>(work: () => Promise<T>): Promise<T> {
    return classified(this.db.dialect.driver.errors, work);
  }
}
