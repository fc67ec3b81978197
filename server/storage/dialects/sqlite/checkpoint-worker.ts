/**
 * A worker thread that copies the WAL back into the database file now and then (see
 * checkpoints.ts). It has a connection of its own; the main thread never waits for it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';

const { filename, intervalMs } = workerData as { filename: string; intervalMs: number };
/** Opened at the first tick: the thread starts with the pools, before the migrations make the file. */
let database: BetterSqlite3.Database | undefined;

const timer = setInterval(() => {
  try {
    if (!database) {
      database = new BetterSqlite3(filename, { fileMustExist: true });
      database.pragma('busy_timeout = 0');
    }
    // PASSIVE: as many frames as no reader still needs, without waiting for anyone.
    database.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy (another process checkpoints) or the file is unreachable: the next tick tries again.
  }
}, intervalMs);

parentPort!.on('message', (message: unknown) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  database?.close();
  parentPort!.close();
});
