import { Worker } from 'node:worker_threads';
import type { Knex } from 'knex';
import type { Maintenance } from '../../contract/adapter.js';

/** Rows this process writes before the planner's statistics are refreshed. */
const ANALYZE_AFTER_CHANGES = 10_000;
/** Index entries ANALYZE samples per index: a bounded cost (0.1–0.4 s at 100,000 objects, on a thread of its own). */
const ANALYSIS_LIMIT = 1_000;

/**
 * SQLite has no statistics until ANALYZE runs, and without them its planner guessed badly: at
 * 100,000 catalog objects objectIdQuery walked every object of the owner instead of seeking 100
 * objectIds, and context queries scanned a class in creation order.
 */
export class SqliteMaintenance implements Maintenance {
  /**
   * total_changes() of the writer connection when statistics were last refreshed; none yet
   * after start, so the first check analyses whatever the file holds.
   */
  private analyzedAtChanges: number | undefined;

  constructor(private readonly filename: string) {}

  async prepare(): Promise<void> {
    // The dialect made the directory; SQLite creates the file on first connection.
  }

  async listExpressionIndexes(knex: Knex): Promise<string[]> {
    const rows: { name: string }[] = await knex('sqlite_master').select('name').whereRaw("type = 'index' AND name LIKE 'xidx\\_%' ESCAPE '\\'");
    return rows.map((r) => r.name);
  }

  async describeLookupIndexes(knex: Knex, table: string, lookupIndexes: readonly string[]): Promise<void> {
    // Until ANALYZE has run, SQLite answers an IN list on an x-index field (`?name=a,b`) by
    // walking the (kind, ts) index, which yields rows already in list order, and filtering
    // every row of the kind (before the indexes ended in ts and id, plain equalities did too).
    // sqlite_stat1 is the documented way to inform the planner; a row per index that ANALYZE
    // has not measured says "a million rows, 100,000 per kind, 2 per value of the field, 1 per
    // value and ts".
    // ANALYZE of the schema table alone creates sqlite_stat1 and, afterwards, reloads it.
    await knex.raw('ANALYZE sqlite_schema');
    const described = new Set((await knex('sqlite_stat1').select('idx').where('tbl', table)).map((row: { idx: string }) => row.idx));
    const missing = lookupIndexes.filter((name) => !described.has(name));
    if (missing.length === 0) return;
    const rows = [];
    for (const idx of missing) {
      // One figure per column: the columns after (kind, value) single a row out.
      const columns = ((await knex.raw(`PRAGMA index_info(${idx})`)) as unknown[]).length;
      rows.push({ tbl: table, idx, stat: `1000000 100000 2${' 1'.repeat(Math.max(0, columns - 2))}` });
    }
    await knex('sqlite_stat1').insert(rows);
    // Connections opened from now on read the new rows; this one reloads them here.
    await knex.raw('ANALYZE sqlite_schema');
  }

  async refreshStatistics(writer: Knex): Promise<boolean> {
    // PRAGMA optimize never analyses a table that has never been analysed, so ANALYZE runs
    // itself once this process (the only writer on its connection) has written enough rows.
    const changes = ((await writer.raw('SELECT total_changes() AS changes')) as { changes: number }[])[0]!.changes;
    // A new writer connection counts from 0 again.
    const since = this.analyzedAtChanges;
    if (since !== undefined && changes >= since && changes - since < ANALYZE_AFTER_CHANGES) return false;
    await this.analyzeInThread();
    this.analyzedAtChanges = changes;
    return true;
  }

  /** ANALYZE on a worker thread's own connection (analyze-worker.ts), off the event loop. */
  private analyzeInThread(): Promise<void> {
    return new Promise((resolve, reject) => {
      const worker = new Worker(new URL('./analyze-worker.js', import.meta.url), { workerData: { filename: this.filename, analysisLimit: ANALYSIS_LIMIT } });
      worker.once('message', (reply: { ok: boolean; message?: string; code?: string }) =>
        reply.ok ? resolve() : reject(Object.assign(new Error(reply.message), reply.code !== undefined ? { code: reply.code } : {})),
      );
      worker.once('error', reject);
      worker.once('exit', () => reject(new Error('the statistics thread ended without an answer')));
    });
  }
}
