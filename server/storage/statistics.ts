import type { Logger } from '../log.js';
import type { Database } from './database.js';

/**
 * Refresh the planner's statistics every `intervalMs` where the dialect needs it (see
 * Dialect.refreshStatistics). One refresh at a time; a failure is logged and tried again at the
 * next tick. Returns the function that stops it, to call before the database closes.
 */
export function keepStatistics(database: Database, intervalMs: number, logger: Logger): () => Promise<void> {
  let running: Promise<void> | undefined;
  const tick = (): void => {
    if (running) return;
    const started = performance.now();
    running = database.dialect.maintenance
      .refreshStatistics(database.writer)
      .then((refreshed) => {
        if (refreshed) logger.info({ ms: Math.round(performance.now() - started) }, 'planner statistics refreshed');
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'refreshing the planner statistics failed; trying again later'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
