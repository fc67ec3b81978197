/**
 * A worker thread that refreshes the planner's statistics once and exits (see maintenance.ts):
 * ANALYZE reads a sample of every index, tens to hundreds of milliseconds at 100,000 objects,
 * which must not run on the event loop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';

const { filename, analysisLimit } = workerData as { filename: string; analysisLimit: number };
try {
  const database = new BetterSqlite3(filename, { fileMustExist: true });
  try {
    // The writers of this process wait (asynchronously) while this holds the write lock.
    database.pragma('busy_timeout = 10000');
    database.pragma(`analysis_limit = ${analysisLimit}`);
    database.exec('ANALYZE');
    // Other connections read statistics when they load the schema, which they do when it has
    // changed: re-creating this view is that change.
    database.exec('DROP VIEW IF EXISTS topocat_statistics_loaded; CREATE VIEW topocat_statistics_loaded AS SELECT 1 AS loaded');
  } finally {
    database.close();
  }
  parentPort!.postMessage({ ok: true });
} catch (error) {
  parentPort!.postMessage({ ok: false, message: String((error as Error).message ?? error), code: (error as { code?: unknown }).code });
}
