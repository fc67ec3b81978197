/**
 * `npm start [-- --workers N]`: configuration from the environment and the command line, then
 * one server process, or with N > 1 a cluster primary and N workers sharing the port. Whatever
 * can be wrong in the configuration is found before anything listens or forks: exit 2.
 */
import './heap.js';
import cluster from 'node:cluster';
import { runPrimary } from './cluster.js';
import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './log.js';
import { prepare, serve } from './serve.js';
import { TokenConfigError } from './tokens.js';
import { runWorker } from './worker.js';

const config = (() => {
  try {
    return loadConfig(process.env, process.argv.slice(2));
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`configuration error: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
})();
const logger = createLogger(config.logLevel);
process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));

function failedToStart(error: unknown): void {
  if (error instanceof ConfigError || error instanceof TokenConfigError) {
    logger.fatal(`configuration error: ${error.message}`);
    logger.flush(() => process.exit(2));
    return;
  }
  logger.fatal({ err: error }, 'could not start');
  logger.flush(() => process.exit(1));
}

async function main(): Promise<void> {
  if (cluster.isWorker) return runWorker(config, logger);
  if (config.workers === 1) {
    const server = await serve(config, logger, 'single');
    process.on('SIGTERM', () => server.stop('SIGTERM'));
    process.on('SIGINT', () => server.stop('SIGINT'));
    return;
  }
  runPrimary(config, logger, await prepare(config, logger));
}

main().catch(failedToStart);
