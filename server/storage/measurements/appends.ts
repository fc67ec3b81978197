import type { Change } from '../contract/events.js';
import { nowMicros } from '../clock.js';
import { SeriesMissing } from '../errors.js';
import { recordChanges } from '../events.js';
import { Pacer } from '../pace.js';
import type { Appended, DataPoint, PointBatch } from './points.js';
import type { Pruning } from './pruning.js';
import { DATA_COLLECTION, expiryCutoff, seriesOf, type Series, type SeriesRow } from './series.js';
import { run, type CommittedWrites, type MeasurementDatabase, type MeasurementSql } from './statements.js';

/**
 * Points per INSERT: a batch goes in slices with the Pacer between them, so reads wait for a
 * slice, not for the batch. Measured with a scratch script on the loaded development machine:
 * 1,000 points inserted in 1.3–2.1 ms, the cap's delete of the 1,000 oldest 0.9–1.4 ms, on the
 * event loop (better-sqlite3 is synchronous).
 */
const INSERT_SLICE = 250;

/** One series of an append: its row, its points that arrived, and those still alive. */
interface Target {
  readonly series: Series;
  readonly cutoff: number | undefined;
  readonly all: readonly DataPoint[];
  readonly live: readonly DataPoint[];
}

/**
 * Appends of data points. An append is one write job: it takes the series' locks (PostgreSQL:
 * advisory; SQLite: the file's one writer), numbers one event per series in the event log,
 * inserts each batch as set-based statements, prunes the expired points and, over the cap, the
 * oldest, and keeps the series' count of points, so the cap never needs a count of the table.
 */
export class Appends {
  constructor(
    private readonly db: MeasurementDatabase,
    private readonly sql: MeasurementSql,
    private readonly writes: CommittedWrites,
    private readonly pruning: Pruning,
  ) {}

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
    return this.writes.write(async (trx) => {
      await this.db.dialect.adapter.locking.lockResources(trx, DATA_COLLECTION, mids);
      const targets: Target[] = [];
      for (const [mid, { index, points: all }] of merged) {
        const [row] = (await run(this.db, trx, this.sql.series, [mid])).rows as readonly SeriesRow[];
        if (!row) throw new SeriesMissing(mid, index);
        const series = seriesOf(row);
        const cutoff = expiryCutoff(series.ttl, now);
        targets.push({ series, cutoff, all, live: cutoff === undefined ? all : all.filter((p) => p.ts >= cutoff) });
      }
      // Each batch's event carries the floor of its smallest ts: where its points start (see tables.ts).
      const changes = targets.map(({ series, live }): Change => ({ kind: DATA_COLLECTION, id: series.mid, ts: Math.floor(live.reduce((least, p) => Math.min(least, p.ts), now)), action: 'POST' }));
      const events = await recordChanges(trx, this.db.dialect, changes);
      const pacer = new Pacer();
      const results: Appended[] = [];
      for (const [i, { series, cutoff, all, live }] of targets.entries()) {
        const { mid } = series;
        let stored = 0;
        // In slices, so that a large batch gives the event loop its turns (reads wait for a slice, not for the batch).
        for (let from = 0; from < live.length; from += INSERT_SLICE) {
          stored += (await run(this.db, trx, this.db.dialect.features.points.insertFromJson, [mid, events[i], JSON.stringify(live.slice(from, from + INSERT_SLICE))])).changes;
          await pacer.breathe();
        }
        const dropped = await this.pruning.prune(trx, mid, series.points + stored, series.collectionSize, cutoff);
        if (stored !== 0 || dropped !== 0) await run(this.db, trx, this.sql.count, [series.points + stored - dropped, mid]);
        results.push({ mid, stored, duplicates: live.length - stored, expired: all.length - live.length, dropped });
      }
      return results;
    });
  }
}
