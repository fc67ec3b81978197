import type { Logger } from '../log.js';
import { every } from '../periodic.js';
import type { Uses } from './contract/database.js';

/** What keepStatistics uses of the database. */
export type StatisticsDatabase = Uses<'writer', { adapter: 'maintenance' }>;

/**
 * Refresh the planner's statistics every `intervalMs` where the dialect needs it (see
 * Maintenance.refreshStatistics). One refresh at a time; a failure is logged and tried again at the
 * next tick. Returns the function that stops it, to call before the database closes.
 */
export function keepStatistics(database: StatisticsDatabase, intervalMs: number, logger: Logger): () => Promise<void> {
  return every(intervalMs, async () => {
    const started = performance.now();
    try {
      if (await database.dialect.adapter.maintenance.refreshStatistics(database.writer)) logger.info({ ms: Math.round(performance.now() - started) }, 'planner statistics refreshed');
    } catch (error) {
      logger.warn({ err: error }, 'refreshing the planner statistics failed; trying again later');
    }
  });
}
