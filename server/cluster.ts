/**
 * The cluster primary of `--workers N`: it prepares the database once, forks N workers that
 * share one listening port (node:cluster), replaces workers that die, and stops them all
 * gracefully on SIGTERM or SIGINT. It serves no requests itself and holds no database pool; once
 * the workers listen it checks the stored data against the generated schemas on a connection of
 * its own (server/schema-check/at-start.ts), once for the whole cluster.
 */
import cluster, { type Worker } from 'node:cluster';
import type { Config } from './config.js';
import type { Logger } from './log.js';
import { answerMetrics, clusterAggregator } from './metrics/cluster.js';
import { storedKinds } from './kinds/stored-kinds.js';
import { startOwnStoredDataCheck } from './schema-check/at-start.js';
import { listeningFields, type StartFacts } from './serve.js';

/**
 * Workers dying this often mean they cannot run at all: give up instead of forking forever. Five
 * deaths within the window, or five in a row of workers that never listened: on a loaded
 * machine a worker takes seconds to start (4 s each under a load average of 20, seen
 * 2026-11-29), so a start that always fails would never die five times within ten seconds.
 */
const CRASH_LOOP_DEATHS = 5;
const CRASH_LOOP_WINDOW_MS = 10_000;
/** Beyond SHUTDOWN_TIMEOUT_MS, time for a worker to close its database and flush its log. */
const STOP_MARGIN_MS = 5_000;

export function runPrimary(config: Config, logger: Logger, facts: StartFacts): void {
  const listening = new Set<number>();
  const deaths: number[] = [];
  /** Workers in a row that died before they listened (reset by one that listens). */
  let deathsAtStart = 0;
  let announced = false;
  let stopping = false;
  let exitCode = 0;
  let stopCheck = (): void => undefined;

  // Ours rather than cluster.workers, which may keep a worker past its 'exit' event.
  const workers = new Map<number, Worker>();
  const alive = (): Worker[] => [...workers.values()];

  const aggregator = config.metrics ? clusterAggregator() : undefined;
  const fork = (): void => {
    const worker = cluster.fork();
    workers.set(worker.id, worker);
    if (aggregator) answerMetrics(worker, aggregator);
    // A worker committed: the others read the event log (their subscribers hear every write).
    worker.on('message', (message: unknown) => {
      if ((message as { topocat?: unknown } | null)?.topocat !== 'committed') return;
      for (const other of alive()) if (other !== worker && other.isConnected()) other.send({ topocat: 'committed' });
    });
    logger.info({ worker: worker.id, workerPid: worker.process.pid }, 'worker started');
  };

  const finish = (): void => {
    logger.info({ code: exitCode }, 'stopped');
    logger.flush(() => process.exit(exitCode));
  };

  const stop = (reason: string, code: number): void => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    logger.info({ reason, workers: workers.size }, 'shutting down: stopping every worker');
    stopCheck();
    if (workers.size === 0) return finish();
    // Workers stop on SIGTERM like a single server: finish requests in flight, close, exit 0.
    for (const worker of alive()) worker.process.kill('SIGTERM');
    setTimeout(() => {
      const left = alive();
      logger.error({ workerPids: left.map((w) => w.process.pid) }, 'workers did not stop in time: killing them');
      exitCode = 1;
      for (const worker of left) worker.process.kill('SIGKILL');
    }, config.timeouts.shutdownMs + STOP_MARGIN_MS).unref();
  };

  cluster.on('listening', (worker, address) => {
    listening.add(worker.id);
    deathsAtStart = 0;
    if (!announced && !stopping && listening.size >= config.workers) {
      announced = true;
      // With PORT=0 every worker gets the same port: the primary holds the one listening socket.
      logger.info({ ...listeningFields(config, address.port, facts), workers: config.workers }, 'listening');
      stopCheck = startOwnStoredDataCheck(config.databaseUrl, storedKinds, logger);
    }
  });

  cluster.on('exit', (worker, code, signal) => {
    const listened = listening.delete(worker.id);
    workers.delete(worker.id);
    const pid = worker.process.pid;
    if (stopping) {
      logger.info({ workerPid: pid, code, signal }, 'worker stopped');
      if (workers.size === 0) finish();
      return;
    }
    logger.error({ workerPid: pid, code, signal }, 'worker died unexpectedly');
    const now = Date.now();
    deaths.push(now);
    while (deaths.length > 0 && deaths[0]! <= now - CRASH_LOOP_WINDOW_MS) deaths.shift();
    deathsAtStart = listened ? 0 : deathsAtStart + 1;
    if (deaths.length >= CRASH_LOOP_DEATHS || deathsAtStart >= CRASH_LOOP_DEATHS) {
      logger.fatal({ deaths: deaths.length, withinMs: CRASH_LOOP_WINDOW_MS, deathsAtStart }, 'workers keep dying: giving up');
      stop('crash loop', 1);
      return;
    }
    fork();
  });

  process.on('SIGTERM', () => stop('SIGTERM', 0));
  process.on('SIGINT', () => stop('SIGINT', 0));

  for (let i = 0; i < config.workers; i++) fork();
}
