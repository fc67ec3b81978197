import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Logger } from './log.js';

/** How often the event loop's delay is sampled, in ms (Node's default). */
const RESOLUTION_MS = 10;

/**
 * How late the loop ran, in ms: the histogram holds the intervals between the sampling timer's
 * runs (perf_hooks records `now − previous run`), so the delay is what exceeds the resolution.
 */
const lateMs = (intervalNs: number): number => Math.max(0, Math.round((intervalNs - RESOLUTION_MS * 1e6) / 10_000) / 100);

/**
 * Event-loop delay, the measure of how long work holds the loop (storage/pace.ts keeps it
 * short): sampled all the time, and reported on SIGUSR2 as one `event loop delay` log line of
 * the percentiles since the last report (or the start), which then start again. Returns the
 * function that stops it.
 */
export function reportLoopDelay(logger: Logger): () => void {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  const report = (): void => {
    logger.info(
      { samples: histogram.count, p50Ms: lateMs(histogram.percentile(50)), p99Ms: lateMs(histogram.percentile(99)), maxMs: lateMs(histogram.max) },
      'event loop delay',
    );
    histogram.reset();
  };
  process.on('SIGUSR2', report);
  return () => {
    process.off('SIGUSR2', report);
    histogram.disable();
  };
}
