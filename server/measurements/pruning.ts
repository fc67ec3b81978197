import type { Logger } from '../log.js';
import { every } from '../periodic.js';
import { reportedOutage } from '../storage/errors.js';
import type { MeasurementStore } from '../storage/measurements/store.js';

/**
 * Delete the expired points of every series with a ttl every `intervalMs`
 * (MEASUREMENT_PRUNE_INTERVAL_MS): appends prune their own series as they arrive, this catches
 * the series nobody posts to any more. One sweep at a time; a failure is logged and the next tick
 * tries again. Returns the function that stops it, to call before the database closes.
 */
export function keepPruning(store: MeasurementStore, intervalMs: number, logger: Logger): () => Promise<void> {
  return every(intervalMs, async () => {
    const started = performance.now();
    try {
      const points = await store.pruneExpired();
      if (points > 0) logger.info({ points, ms: Math.round(performance.now() - started) }, 'expired measurement points pruned');
    } catch (error) {
      // An outage the storage logs once per change of state (rest-contract §16) is not said again here.
      (reportedOutage(error) ? logger.debug : logger.warn).call(logger, { err: error }, 'pruning expired measurement points failed; trying again later');
    }
  });
}
