import type { Knex } from 'knex';
import { nowMicros } from '../clock.js';
import { classified } from '../errors.js';
import { expiryCutoff, seriesOf, DATA_COLLECTION, type SeriesRow } from './series.js';
import { run, type CommittedWrites, type MeasurementDatabase, type MeasurementSql } from './statements.js';
import { SERIES } from './tables.js';

/**
 * What keeps a series within its rules: its expired points deleted, then the oldest beyond its
 * cap. Registration (a new cap or ttl) and appends prune in their own write; `expired()` is the
 * periodic pass (server/measurements/pruning.ts) for series nobody posts to.
 */
export class Pruning {
  constructor(
    private readonly db: MeasurementDatabase,
    private readonly sql: MeasurementSql,
    private readonly writes: CommittedWrites,
  ) {}

  /** Prune one series in `trx`; returns how many points went. `points` is the series' count before. */
  async prune(trx: Knex.Transaction, mid: string, points: number, cap: number, cutoff: number | undefined): Promise<number> {
    let deleted = 0;
    // An index range of the key: nothing to read when nothing has expired.
    if (cutoff !== undefined) deleted += (await run(this.db, trx, this.sql.expired, [mid, cutoff])).changes;
    const excess = points - deleted - cap;
    if (excess > 0) deleted += (await run(this.db, trx, this.sql.oldestBeyond, [mid, mid, excess - 1])).changes;
    return deleted;
  }

  /**
   * Delete the expired points of every series with a ttl (a series nobody posts to keeps them
   * otherwise), one write job per series; returns how many went.
   */
  async expired(now = nowMicros()): Promise<number> {
    const mortal = await classified(this.db.dialect.driver.errors, async () => (await this.db.reader(SERIES).select('mid').where('ttl', '>', 0)) as { mid: string }[]);
    let deleted = 0;
    for (const { mid } of mortal) {
      deleted += await this.writes.write(async (trx) => {
        await this.db.dialect.adapter.locking.lockResources(trx, DATA_COLLECTION, [mid]);
        const [row] = (await run(this.db, trx, this.sql.series, [mid])).rows as readonly SeriesRow[];
        if (!row) return 0;
        const series = seriesOf(row);
        const gone = await this.prune(trx, mid, series.points, series.collectionSize, expiryCutoff(series.ttl, now));
        if (gone > 0) await run(this.db, trx, this.sql.count, [series.points - gone, mid]);
        return gone;
      });
    }
    return deleted;
  }
}
