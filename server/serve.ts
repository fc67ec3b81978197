/**
 * One complete server: storage, the application, the HTTP listener and its graceful stop. It
 * runs alone (`npm start`) or as one of the workers of server/cluster.ts; the caller decides
 * which signals stop it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { kinds } from '../generated/rest/kinds.js';
import { requestHandler } from './app.js';
import { storedKinds } from './kinds/stored-kinds.js';
import { startReporting } from './federation/reporter.js';
import { lookupDepth } from './federation/lookup.js';
import { Registry } from './federation/registry.js';
import { Manifests } from './storage/manifests.js';
import { ManifestUpkeep } from './storage/manifest-upkeep.js';
import { BearerTokens, isLoopback, OpenAccess, type Authenticator } from './auth.js';
import { Definitions, loadDefinitions } from './catalog/definitions.js';
import { Drain } from './http/drain.js';
import { StartGate } from './http/start-gate.js';
import { withResultStreams } from './catalog/result-streams.js';
import { PropertyTreeCache } from './catalog/property-trees.js';
import { createCatalogService } from './catalog/service.js';
import { baseUrlOf, ConfigError, type Config } from './config.js';
import type { Logger } from './log.js';
import { reportLoopDelay } from './loop-delay.js';
import { ResultStreamStore } from './storage/catalog/result-streams.js';
import { CatalogStore } from './storage/catalog/store.js';
import { openDatabase } from './storage/database.js';
import type { Database } from './storage/contract/database.js';
import { syncFieldIndexes } from './storage/indexes.js';
import { MeasurementStore } from './storage/measurements/store.js';
import { keepStatistics } from './storage/statistics.js';
import { CurrentCache } from './storage/current-cache.js';
import { watchOutsideWrites } from './storage/outside-writes.js';
import { ResourceStore } from './storage/resource-store.js';
import { ServiceFacts } from './storage/service-facts.js';
import { StartLock } from './storage/start-lock.js';
import { OwnAddresses } from './wire/addresses.js';
import { Representations } from './wire/representation.js';
import { dataPublication } from './measurements/kind.js';
import { keepPruning } from './measurements/pruning.js';
import { startSubscriptions, type Subscriptions } from './subscriptions/service.js';
import { loadTokens } from './tokens.js';
import { workerScrape } from './metrics/cluster.js';
import { Metrics } from './metrics/metrics.js';
import { lookAlikes } from './settings.js';
import { describeDatabase } from './storage/dialects/urls.js';
import { startStoredDataCheck } from './schema-check/at-start.js';
import { version } from './version.js';

/** `single`: the only process. `worker`: one of several; its primary prepared the database. */
export type Role = 'single' | 'worker';

export interface RunningServer {
  readonly port: number;
  /** Stop accepting connections, let requests in flight finish, close the database, exit 0. */
  stop(reason: string): void;
}

/** What a started service reports about itself in its `listening` line. */
export interface StartFacts {
  readonly catalogProperties: number;
}

function listen(server: Server, config: Config): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve(server.address() as AddressInfo));
  });
}

/** The fields of the `listening` line, the same whether one process or a cluster primary logs it. */
export function listeningFields(config: Config, port: number, facts: StartFacts): Record<string, unknown> {
  const baseUrl = baseUrlOf(config, port);
  return {
    version,
    url: baseUrl,
    port,
    database: describeDatabase(config.databaseUrl),
    mode: config.workers > 1 ? `${config.workers} workers` : 'single process',
    kinds: kinds.length,
    catalog: `${baseUrl}${config.catalog.path}`,
    catalogProperties: facts.catalogProperties,
  };
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

/** Said once per service, by whichever process logs its `listening` line. */
function warnAboutSettings(config: Config, logger: Logger, authenticator: Authenticator, definitions: Definitions): void {
  if (authenticator.open) {
    logger.warn({ host: config.host }, 'OPEN MODE: no tokens configured, every request may read, write and delete; configure TOPOCAT_TOKENS_FILE to require credentials');
  }
  for (const { variable, meant } of lookAlikes(process.env)) {
    logger.warn({ variable, meant }, `${variable} is not a setting of topocat (ignored); did you mean ${meant}?`);
  }
  if (config.catalog.enforceDefinitions && definitions.propertyCount === 0) logger.warn('CATALOG_ENFORCE_DEFINITIONS is on without definitions: every property will be refused');
}

async function loadCatalogDefinitions(config: Config): Promise<Definitions> {
  return config.catalog.definitionsFile ? loadDefinitions(config.catalog.definitionsFile) : Definitions.none();
}

/**
 * For a cluster primary, before it forks: every check a server makes at start (tokens,
 * definitions, the database), so a bad setting stops the service once, with its own exit code,
 * instead of killing each worker in turn; and the migrations and `x-index` changes, done here by
 * one process so that workers starting together never race at them (see the SQLite dialect's
 * `exclusive`). The database is closed again: workers open pools of their own.
 */
export async function prepare(config: Config, logger: Logger): Promise<StartFacts> {
  const authenticator = chooseAuthenticator(config);
  const definitions = await loadCatalogDefinitions(config);
  const startLock = new StartLock(config.timeouts.startLockMs, logger);
  const database = await openDatabase({ url: config.databaseUrl, poolMax: config.databasePoolMax, logger, startLock });
  try {
    await startLock.run(database.dialect.driver.errors, 'indexes', () => syncFieldIndexes(database, 'resource_current', kinds.flatMap((k) => k.indexes)));
    await settleManifests(database, config, logger, startLock);
  } finally {
    await database.close();
  }
  warnAboutSettings(config, logger, authenticator, definitions);
  return { catalogProperties: definitions.propertyCount };
}

/**
 * A process that does not report upstream turns the manifests' upkeep off, unless another
 * process of its database reports (storage/manifest-upkeep.ts); one that reports turns it on
 * with its first report. A lookup that does not report leaves it as it is: it refuses writes to
 * the summarised collections, so the upkeep costs it nothing either way.
 */
async function settleManifests(database: Database, config: Config, logger: Logger, startLock: StartLock): Promise<void> {
  if (config.federation.registerUrls.length > 0 || config.federation.lookup) return;
  await startLock.run(database.dialect.driver.errors, 'manifests', () => new ManifestUpkeep(database, logger).settleUnreported());
}

/**
 * A worker's commits reach the subscribers of every worker on the same SQLite file through the
 * primary (server/cluster.ts), which has no database of its own: each worker tells it that it
 * committed, and it tells the others, who read the event log.
 */
function relayChanges(store: ResourceStore, subscriptions: Subscriptions): void {
  let told = false;
  store.onCommitted(() => {
    // Once per turn of the event loop, however many writes it committed.
    if (told) return;
    told = true;
    setImmediate(() => {
      told = false;
      process.send?.({ topocat: 'committed' });
    });
  });
  process.on('message', (message: unknown) => {
    if ((message as { topocat?: unknown } | null)?.topocat === 'committed') subscriptions.poke();
  });
}

/**
 * The read cache of this process (see CurrentCache): kept by a process that is its database's
 * only writer (Connections.aloneMeansSoleWriter: SQLite), by cluster workers while nobody
 * commits (where KeyReader.commits can tell), and on PostgreSQL while this process holds the
 * read lease (Pools.lease: no other process writes meanwhile); none with READ_CACHE_MB=0.
 */
function readCache(database: Database, config: Config, role: Role): { cache?: CurrentCache; stop(): void } {
  const budget = config.readCacheMb * 1024 * 1024;
  if (budget === 0) return { stop: () => undefined };
  const lease = database.lease;
  if (lease) {
    // Other servers may write the same database (PostgreSQL): the cache answers while this
    // process holds the read lease, during which nobody else writes; an import says when it wrote.
    // A read served at a client's consistency token may be older than others' writes: never kept.
    const standbys = database.standbys;
    const cache = new CurrentCache(budget, () => lease.held(), standbys ? () => !standbys.fromToken() : undefined);
    return { cache, stop: watchOutsideWrites(database, () => cache.dropAll()) };
  }
  if (role === 'single') {
    if (!database.dialect.driver.connections.aloneMeansSoleWriter) return { stop: () => undefined };
    // The only writer but for an import (npm run import): it says when it wrote.
    const cache = new CurrentCache(budget);
    return { cache, stop: watchOutsideWrites(database, () => cache.dropAll()) };
  }
  const keys = database.keys;
  return keys.commits ? { cache: new CurrentCache(budget, () => keys.commits!()), stop: () => undefined } : { stop: () => undefined };
}

/** This process's metrics; a worker's scrape answers for the whole cluster (metrics/cluster.ts). */
function processMetrics(database: Database, subscriptions: Subscriptions, trees: PropertyTreeCache, role: Role): { own: Metrics; scrape(): Promise<{ text: string; contentType: string }> } {
  const own = new Metrics({ storage: () => database.gauges(), subscriptions: () => subscriptions.gauges(), catalogTrees: () => trees.gauges() });
  return { own, scrape: role === 'worker' ? workerScrape(own.registry) : () => own.scrape() };
}

export async function serve(config: Config, logger: Logger, role: Role): Promise<RunningServer> {
  const authenticator = chooseAuthenticator(config);
  const startLock = new StartLock(config.timeouts.startLockMs, logger);
  const database: Database = await openDatabase({
    url: config.databaseUrl,
    poolMax: config.databasePoolMax,
    ...(config.databaseReadUrls.length > 0 ? { standbys: { urls: config.databaseReadUrls, waitMs: config.readWaitMs } } : {}),
    logger,
    migrations: role === 'worker' ? 'verify' : 'run',
    startLock,
  });
  if (role === 'single') {
    await startLock.run(database.dialect.driver.errors, 'indexes', () => syncFieldIndexes(database, 'resource_current', kinds.flatMap((k) => k.indexes)));
    await settleManifests(database, config, logger, startLock);
  }
  const stopStatistics = config.statisticsIntervalMs > 0 ? keepStatistics(database, config.statisticsIntervalMs, logger) : async () => {};
  const stopLoopDelay = reportLoopDelay(logger);
  const cached = readCache(database, config, role);
  const store = new ResourceStore(database, cached.cache);
  const measurements = new MeasurementStore(database, store);
  const stopPruning = config.measurementPruneIntervalMs > 0 ? keepPruning(measurements, config.measurementPruneIntervalMs, logger) : async () => {};
  const definitions = await loadCatalogDefinitions(config);
  const trees = new PropertyTreeCache(config.catalog.cacheMb * 1024 * 1024);
  const catalog = createCatalogService({
    store: new CatalogStore(database),
    definitions,
    policy: config.catalog,
    trees,
    now: Date.now,
    version,
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
  // Answers 503 from the moment the port is open until the handlers below are attached.
  const gate = new StartGate(server);
  const drain = new Drain(server);
  const address = await listen(server, config);
  const serviceFacts = new ServiceFacts(database);
  const addresses = OwnAddresses.of(serviceFacts, config, address.port);
  const baseUrl = addresses.baseUrl;
  await startLock.run(database.dialect.driver.errors, 'addresses', () => addresses.start());
  const representations = new Representations(storedKinds, addresses);
  const subscriptions = await startSubscriptions({ database, store, representations, kinds, authenticator, limits: config.subscriptions, logger, outside: [dataPublication(measurements)] });
  if (role === 'worker' && !database.dialect.adapter.announcements.reachOtherProcesses) relayChanges(store, subscriptions);
  const metrics = config.metrics ? processMetrics(database, subscriptions, trees, role) : undefined;
  const registry = config.federation.lookup ? new Registry(store) : undefined;
  const catalogResults = new ResultStreamStore(database);
  const streamingCatalog = withResultStreams(catalog, {
    store: catalogResults,
    urlOf: (id) => `${baseUrl}${config.catalog.path}/results/${id}`,
    ttlMs: config.catalog.resultTtlS * 1000,
    now: Date.now,
  });
  const handle = requestHandler({
    config,
    logger,
    store,
    measurements,
    facts: serviceFacts,
    authenticator,
    representations,
    events: subscriptions.events,
    catalog: streamingCatalog,
    catalogResults,
    metrics,
    ...(registry ? { registry } : {}),
    ...(database.standbys ? { standbys: database.standbys } : {}),
  });
  let stopping = false;
  // In one turn: no request or upgrade can arrive between the gate's handlers and the service's.
  gate.open();
  subscriptions.attach(server);
  server.on('request', (req, res) => {
    if (stopping) res.setHeader('Connection', 'close');
    handle(req, res);
  });

  const manifests = new Manifests(database);
  await manifests.setLimit(config.federation.manifestLimit);
  const stopReporting =
    config.federation.registerUrls.length > 0
      ? startReporting({ config: config.federation, logger, manifests, upkeep: new ManifestUpkeep(database, logger), accessPoint: baseUrl, depth: async () => (registry ? lookupDepth(registry) : 0) })
      : async () => {};

  const facts: StartFacts = { catalogProperties: definitions.propertyCount };
  /** A cluster's primary checks the stored data (server/cluster.ts); a single server, here. */
  let stopCheck = (): void => undefined;
  if (role === 'single') {
    warnAboutSettings(config, logger, authenticator, definitions);
    logger.info(listeningFields(config, address.port, facts), 'listening');
    // After the listening line: the service answers while it runs.
    stopCheck = startStoredDataCheck(database, storedKinds, logger);
  } else {
    // Not 'listening': that line is the primary's, once every worker listens.
    logger.info({ port: address.port }, 'worker listening');
  }

  const stop = (reason: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ reason }, 'shutting down: no new connections, finishing requests in flight');
    stopCheck();
    const force = setTimeout(() => {
      logger.warn('shutdown timeout: closing remaining connections');
      server.closeAllConnections();
    }, config.timeouts.shutdownMs);
    force.unref();
    drain.stop(async () => {
      clearTimeout(force);
      await stopReporting();
      await stopStatistics();
      await stopPruning();
      stopLoopDelay();
      cached.stop();
      await subscriptions.close().catch((error: unknown) => logger.error({ err: error }, 'closing the subscriptions failed'));
      await database.close().catch((error: unknown) => logger.error({ err: error }, 'closing the database failed'));
      logger.info('stopped');
      logger.flush(() => process.exit(0));
    });
    // Subscribers would hold their connections open until the timeout: they reconnect elsewhere.
    void subscriptions.close();
  };
  return { port: address.port, stop };
}
