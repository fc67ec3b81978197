/**
 * `npm start`: configuration from the environment, storage migrated, then the HTTP server.
 * SIGTERM and SIGINT stop accepting connections, let in-flight requests finish (up to
 * SHUTDOWN_TIMEOUT_MS) and close the database.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { canonicalSchemaBase, kinds } from '../generated/rest/kinds.js';
import { createApp } from './app.js';
import { OpenAccess } from './auth.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createLogger, type Logger } from './log.js';
import { openDatabase, type Database } from './storage/database.js';
import { syncFieldIndexes } from './storage/indexes.js';
import { ResourceStore } from './storage/resource-store.js';

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

function listen(server: Server, config: Config): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve(server.address() as AddressInfo));
  });
}

async function start(config: Config, logger: Logger): Promise<void> {
  const database: Database = await openDatabase({ url: config.databaseUrl, poolMax: config.databasePoolMax, logger });
  await syncFieldIndexes(database, 'resource_current', kinds.flatMap((k) => k.indexes));
  const store = new ResourceStore(database);
  const authenticator = new OpenAccess();

  const server = createServer({
    requestTimeout: config.timeouts.requestMs,
    headersTimeout: config.timeouts.headersMs,
    keepAliveTimeout: config.timeouts.keepAliveMs,
  });
  const address = await listen(server, config);
  const baseUrl = config.publicUrl ?? `http://${urlHost(config.host)}:${address.port}`;
  const schemaBase = config.schemaBase ?? `${baseUrl}/schema/${canonicalSchemaBase.slice(canonicalSchemaBase.lastIndexOf('/') + 1)}`;
  const app = createApp({ config, logger, store, authenticator, baseUrl, schemaBase });
  const handle = app.callback();
  let stopping = false;
  server.on('request', (req, res) => {
    if (stopping) res.setHeader('Connection', 'close');
    void handle(req, res);
  });

  if (authenticator.open) logger.warn('no tokens configured: every request may read and write (open mode)');
  logger.info({ url: baseUrl, port: address.port, database: database.dialect.name, kinds: kinds.length }, 'listening');

  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: no new connections, finishing requests in flight');
    const force = setTimeout(() => {
      logger.warn('shutdown timeout: closing remaining connections');
      server.closeAllConnections();
    }, config.timeouts.shutdownMs);
    force.unref();
    server.close(async () => {
      clearTimeout(force);
      await database.close().catch((error: unknown) => logger.error({ err: error }, 'closing the database failed'));
      logger.info('stopped');
      logger.flush(() => process.exit(0));
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

const config = (() => {
  try {
    return loadConfig();
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
start(config, logger).catch((error: unknown) => {
  logger.fatal({ err: error }, 'could not start');
  logger.flush(() => process.exit(1));
});
