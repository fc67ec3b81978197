/**
 * `npm start`: configuration from the environment, storage migrated, then the HTTP server.
 * SIGTERM and SIGINT stop accepting connections, let in-flight requests finish (up to
 * SHUTDOWN_TIMEOUT_MS) and close the database.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { canonicalSchemaBase, kinds } from '../generated/rest/kinds.js';
import { createApp } from './app.js';
import { BearerTokens, isLoopback, OpenAccess, type Authenticator } from './auth.js';
import { Definitions, loadDefinitions } from './catalog/definitions.js';
import { createCatalogService } from './catalog/service.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createLogger, type Logger } from './log.js';
import { projectRoot } from './paths.js';
import { CatalogStore } from './storage/catalog/store.js';
import { openDatabase, type Database } from './storage/database.js';
import { syncFieldIndexes } from './storage/indexes.js';
import { ResourceStore } from './storage/resource-store.js';
import { loadTokens, TokenConfigError } from './tokens.js';

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

function listen(server: Server, config: Config): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve(server.address() as AddressInfo));
  });
}

/**
 * Tokens when any are configured; otherwise open access, which is refused on a non-loopback
 * address unless ALLOW_OPEN_ACCESS says it is meant.
 */
function chooseAuthenticator(config: Config): Authenticator {
  const tokens = loadTokens(process.env);
  if (tokens.length > 0) return new BearerTokens(tokens);
  if (!isLoopback(config.host) && !config.allowOpenAccess) {
    throw new ConfigError('HOST', `no tokens are configured, so the service would be open to everyone on ${config.host}; configure TOPOCAT_TOKENS_FILE or TOPOCAT_TOKENS, or set ALLOW_OPEN_ACCESS=true`);
  }
  return new OpenAccess();
}

async function start(config: Config, logger: Logger): Promise<void> {
  const authenticator = chooseAuthenticator(config);
  const database: Database = await openDatabase({ url: config.databaseUrl, poolMax: config.databasePoolMax, logger });
  await syncFieldIndexes(database, 'resource_current', kinds.flatMap((k) => k.indexes));
  const store = new ResourceStore(database);
  const definitions = config.catalog.definitionsFile ? await loadDefinitions(config.catalog.definitionsFile) : Definitions.none();
  const catalog = createCatalogService({
    store: new CatalogStore(database),
    definitions,
    policy: config.catalog,
    now: Date.now,
    version: (JSON.parse(readFileSync(`${projectRoot}package.json`, 'utf8')) as { version: string }).version,
    startTime: Date.now(),
  });

  const server = createServer({
    requestTimeout: config.timeouts.requestMs,
    headersTimeout: config.timeouts.headersMs,
    keepAliveTimeout: config.timeouts.keepAliveMs,
    // Node checks request and header timeouts on this interval (30 s by default), so a slow
    // client would otherwise hold its connection well past the configured bound.
    connectionsCheckingInterval: Math.max(250, Math.min(1000, config.timeouts.headersMs / 4)),
  });
  const address = await listen(server, config);
  const baseUrl = config.publicUrl ?? `http://${urlHost(config.host)}:${address.port}`;
  const schemaBase = config.schemaBase ?? `${baseUrl}/schema/${canonicalSchemaBase.slice(canonicalSchemaBase.lastIndexOf('/') + 1)}`;
  const app = createApp({ config, logger, store, authenticator, baseUrl, schemaBase, catalog });
  const handle = app.callback();
  let stopping = false;
  server.on('request', (req, res) => {
    if (stopping) res.setHeader('Connection', 'close');
    void handle(req, res);
  });

  if (authenticator.open) {
    logger.warn({ host: config.host }, 'OPEN MODE: no tokens configured, every request may read, write and delete; configure TOPOCAT_TOKENS_FILE to require credentials');
  }
  if (config.catalog.enforceDefinitions && definitions.propertyCount === 0) logger.warn('CATALOG_ENFORCE_DEFINITIONS is on without definitions: every property will be refused');
  logger.info({ url: baseUrl, port: address.port, database: database.dialect.name, kinds: kinds.length, catalog: `${baseUrl}${config.catalog.path}`, catalogProperties: definitions.propertyCount }, 'listening');

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
  if (error instanceof ConfigError || error instanceof TokenConfigError) {
    logger.fatal(`configuration error: ${error.message}`);
    logger.flush(() => process.exit(2));
    return;
  }
  logger.fatal({ err: error }, 'could not start');
  logger.flush(() => process.exit(1));
});
