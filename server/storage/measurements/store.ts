import type { ChangeEvent } from '../contract/events.js';
import { Appends } from './appends.js';
import type { Appended, PointBatch, PointSelection, SeriesSummary } from './points.js';
import { PointPublication } from './publication.js';
import { PointReads } from './point-reads.js';
import { Pruning } from './pruning.js';
import { SeriesRegistry } from './registry.js';
import type { Series, SeriesRegistration } from './series.js';
import { measurementSql, type CommittedWrites, type MeasurementDatabase } from './statements.js';

export { NEWEST_MAX, PAGE_MAX, type Appended, type DataPoint, type PointBatch, type PointSelection, type SeriesSummary } from './points.js';
export { DATA_COLLECTION, expiryCutoff, type Series, type SeriesRegistration } from './series.js';
export type { CommittedWrites, MeasurementDatabase } from './statements.js';

/**
 * UNIS's measurement store (docs/measurements.md): capped series of data points beside the
 * versioned documents, in tables of their own (tables.ts). One façade over the parts in this
 * folder: the registered series (registry.ts), appends (appends.ts), what keeps a series within
 * its cap and ttl (pruning.ts), reads of points (point-reads.ts), what the change feed publishes
 * (publication.ts), and the statements they share (statements.ts).
 */
export class MeasurementStore {
  private readonly registry: SeriesRegistry;
  private readonly appends: Appends;
  private readonly pruning: Pruning;
  private readonly reads: PointReads;
  private readonly publication: PointPublication;

  /** @param writes whose writes this store's go through, so that its commit listeners (the change feed) hear them. */
  constructor(db: MeasurementDatabase, writes: CommittedWrites) {
    const sql = measurementSql(db);
    this.pruning = new Pruning(db, sql, writes);
    this.registry = new SeriesRegistry(db, sql, writes, this.pruning);
    this.appends = new Appends(db, sql, writes, this.pruning);
    this.reads = new PointReads(db, sql);
    this.publication = new PointPublication(db);
  }

  /** See SeriesRegistry.register. */
  register(registration: SeriesRegistration, registeredAt?: number): Promise<{ readonly series: Series; readonly created: boolean }> {
    return this.registry.register(registration, registeredAt);
  }

  /** One series by its mid. */
  series(mid: string): Promise<Series | undefined> {
    return this.registry.series(mid);
  }

  /** Registered series, of `mids` when given, by mid. */
  list(mids?: readonly string[]): Promise<Series[]> {
    return this.registry.list(mids);
  }

  /** Delete a series and its points; false when there was none. Subscribers hear a DELETE. */
  remove(mid: string): Promise<boolean> {
    return this.registry.remove(mid);
  }

  /** See Appends.append: all or nothing. */
  append(batches: readonly PointBatch[], now?: number): Promise<Appended[]> {
    return this.appends.append(batches, now);
  }

  /** See Pruning.expired: the expired points of every series with a ttl deleted. */
  pruneExpired(now?: number): Promise<number> {
    return this.pruning.expired(now);
  }

  /** See PointReads.summary. */
  summary(series: Series, range: { readonly gte?: number; readonly lte?: number }, now?: number): Promise<SeriesSummary> {
    return this.reads.summary(series, range, now);
  }

  /** See PointReads.page: up to PAGE_MAX points as one JSON text. */
  page(series: Series, selection: PointSelection, now?: number): Promise<string> {
    return this.reads.page(series, selection, now);
  }

  /** See PointReads.newest: the newest points by key. */
  newest(series: Series, limit: number, oldestFirst?: boolean, now?: number): Promise<string> {
    return this.reads.newest(series, limit, oldestFirst, now);
  }

  /** See PointReads.points: any number of points, streamed. */
  points(series: Series, selection: PointSelection, now?: number): AsyncIterable<string> {
    return this.reads.points(series, selection, now);
  }

  /** See PointPublication.published. */
  published(events: readonly ChangeEvent[]): Promise<Map<number, string[]>> {
    return this.publication.published(events);
  }
}
