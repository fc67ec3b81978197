/**
 * A cluster worker's side of the cluster: a full server (server/serve.ts) whose lifetime its
 * primary (server/cluster.ts) governs.
 */
import cluster from 'node:cluster';
import type { Config } from './config.js';
import type { Logger } from './log.js';
import { serve, type RunningServer } from './serve.js';

export async function runWorker(config: Config, logger: Logger): Promise<void> {
  const worker = cluster.worker!;
  // Assigned once the server runs; the disconnect handler below may fire before that.
  // eslint-disable-next-line prefer-const
  let running: RunningServer | undefined;

  // When the IPC channel to the primary closes without the primary asking (it was SIGKILLed or
  // crashed), Node's cluster code calls process.exit(0) at once, cutting off requests in flight,
  // unless `exitedAfterDisconnect` is set. Set it, and stop gracefully instead: nobody else would
  // ever stop this process, and the listening socket died with the primary anyway. Both are set
  // in the same tick, so a disconnect is always handled by one or the other.
  worker.exitedAfterDisconnect = true;
  process.once('disconnect', () => {
    if (running) {
      running.stop('primary gone (IPC disconnected)');
      return;
    }
    logger.warn('primary gone (IPC disconnected) before this worker listened; exiting');
    logger.flush(() => process.exit(0));
  });
  // Ctrl-C in a terminal signals the whole process group; the primary turns it into a SIGTERM
  // for each worker, so a worker stops in step with the others instead of racing the primary.
  process.on('SIGINT', () => undefined);

  running = await serve(config, logger, 'worker');
  const server = running;
  // SIGTERM comes from the primary when it stops, or from whoever manages the processes.
  process.on('SIGTERM', () => server.stop('SIGTERM'));
  // The primary may already be gone while this worker was starting.
  if (!process.connected) server.stop('primary gone (IPC disconnected)');
}
