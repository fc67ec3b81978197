import { nowMicros } from '../clock.js';
import { classified } from '../errors.js';
import { recordChanges } from '../events.js';
import type { Pruning } from './pruning.js';
import { DATA_COLLECTION, expiryCutoff, seriesOf, type Series, type SeriesRegistration, type SeriesRow } from './series.js';
import { run, type CommittedWrites, type MeasurementDatabase, type MeasurementSql } from './statements.js';
import { POINTS, SERIES } from './tables.js';

/** The registered series (`POST /events`): registration, reads by mid, removal. */
export class SeriesRegistry {
  constructor(
    private readonly db: MeasurementDatabase,
    private readonly sql: MeasurementSql,
    private readonly writes: CommittedWrites,
    private readonly pruning: Pruning,
  ) {}

  /**
   * Register a series, or change the cap and ttl of a registered one (its points then obey them).
   * `registeredAt`: when a new series was registered where it comes from (an import: UNIS's
   * `events_cache` keeps it, and `GET /events` answers it as the series' `ts`); now otherwise.
   */
  async register(registration: SeriesRegistration, registeredAt?: number): Promise<{ readonly series: Series; readonly created: boolean }> {
    const now = nowMicros();
    return this.writes.write(async (trx) => {
      await this.db.dialect.adapter.locking.lockResources(trx, DATA_COLLECTION, [registration.mid]);
      const [row] = (await run(this.db, trx, this.sql.series, [registration.mid])).rows as readonly SeriesRow[];
      const columns = [registration.metadataUrl, registration.collectionSize, registration.ttl, registration.datumSchema];
      if (!row) {
        const ts = registeredAt ?? now;
        await run(this.db, trx, this.sql.insertSeries, [...columns, ts, registration.mid]);
        return { series: { ...registration, points: 0, ts }, created: true };
      }
      const before = seriesOf(row);
      const points = before.points - (await this.pruning.prune(trx, registration.mid, before.points, registration.collectionSize, expiryCutoff(registration.ttl, now)));
      await run(this.db, trx, this.sql.updateSeries, [...columns, points, registration.mid]);
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

  /** Delete a series and its points; false when there was none. Subscribers hear a DELETE. */
  async remove(mid: string): Promise<boolean> {
    return this.writes.write(async (trx) => {
      await this.db.dialect.adapter.locking.lockResources(trx, DATA_COLLECTION, [mid]);
      const removed = await trx(SERIES).where('mid', mid).delete();
      if (removed === 0) return false;
      await trx(POINTS).where('mid', mid).delete();
      await recordChanges(trx, this.db.dialect, [{ kind: DATA_COLLECTION, id: mid, ts: nowMicros(), action: 'DELETE' }]);
      return true;
    });
  }

  private read<T>(work: () => Promise<T>): Promise<T> {
    return classified(this.db.dialect.driver.errors, work);
  }
}
