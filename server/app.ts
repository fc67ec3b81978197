import type { IncomingMessage, ServerResponse } from 'node:http';
import Koa from 'koa';
import { Router } from '@koa/router';
import { kinds } from '../generated/rest/kinds.js';
import { mountRoutes } from '../generated/rest/routes/index.js';
import { createDispatcher, type CatalogService } from '../generated/soap/service.js';
import { authentication, type Authenticator } from './auth.js';
import type { CatalogCall } from './catalog/context.js';
import { mountServerCollections } from './collections.js';
import { catalogRejection } from './catalog/rejection.js';
import type { Config } from './config.js';
import { federate } from './federation/federate.js';
import { lookupDepth, lookupMode } from './federation/lookup.js';
import type { Registry } from './federation/registry.js';
import { accessLine } from './http/access-line.js';
import { consistencyToken, CONSISTENCY_TOKEN } from './http/consistency-token.js';
import { corsPolicy } from './http/cors.js';
import { errorHandler } from './http/error-handler.js';
import { hotRead } from './rest/operations/hot-read.js';
import { requestContext } from './http/request-context.js';
import type { Logger } from './log.js';
import type { Metrics } from './metrics/metrics.js';
import { mountMetrics } from './metrics/route.js';
import { mountDiscovery } from './rest/discovery.js';
import { createRestHandlers } from './rest/handlers.js';
import type { Representations } from './wire/representation.js';
import { loadServiceDescription } from './soap/description.js';
import { directSoap } from './soap/direct.js';
import { mountResultRoute } from './soap/result-route.js';
import type { ResultStreamStore } from './storage/catalog/result-streams.js';
import { mountSoapEndpoint, soapExchange, type SoapEndpointOptions } from './soap/endpoint.js';
import type { MeasurementStore } from './storage/measurements/store.js';
import type { ResourceStore } from './storage/resource-store.js';
import type { Standbys } from './storage/contract/standbys.js';
import type { ServiceFacts } from './storage/service-facts.js';
import type { EventStreamOptions } from './subscriptions/event-stream.js';
import { serviceStream } from './subscriptions/service-stream.js';

/** What a response's stream fails with when the client closed its connection first. */
const CLIENT_GONE = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_DESTROYED']);

function clientWentAway(error: unknown): boolean {
  return CLIENT_GONE.has(String((error as { code?: unknown } | null)?.code));
}

export interface AppDependencies {
  readonly config: Config;
  readonly logger: Logger;
  readonly store: ResourceStore;
  /** UNIS's measurement store: `/events` and `/data`. */
  readonly measurements: MeasurementStore;
  readonly facts: ServiceFacts;
  readonly authenticator: Authenticator;
  /** The wire form of resources, from this process's addresses (configuration, or defaults after listen). */
  readonly representations: Representations;
  /** Where event-stream reads go. */
  readonly events: EventStreamOptions;
  /** The SOAP catalog's operations, served at `config.catalog.path`. */
  readonly catalog: CatalogService<CatalogCall>;
  /** This process's metrics, and the scrape /metrics answers (a cluster's: every worker's); none with METRICS=false. */
  readonly metrics?: { readonly own: Metrics; scrape(): Promise<{ text: string; contentType: string }> } | undefined;
  /** In lookup mode (LOOKUP=true): the registrations the collections are answered from. */
  readonly registry?: Registry;
  /** Where the catalog's STREAMING results are kept; without it no result route is served. */
  readonly catalogResults?: ResultStreamStore;
  /** With DATABASE_READ_URLS: the standbys that serve reads (rest-contract §15). */
  readonly standbys?: Standbys;
}

/**
 * The Koa application: request id and access log, the one error shape, authentication, then
 * discovery and the generated routes of every collection, and the SOAP catalog endpoint.
 */
export function createApp({ config, logger, store, measurements, facts, authenticator, representations, events, catalog, catalogResults, metrics, registry, standbys }: AppDependencies): Koa {
  const app = new Koa({ proxy: false });
  // Errors in streamed bodies surface here after the status line is sent; the connection is cut.
  // A client that goes away (an event stream closed, a download cut short) is normal use: debug.
  app.on('error', (error: unknown, ctx?: Koa.Context) => {
    if (clientWentAway(error)) logger.debug({ requestId: ctx?.state.requestId, code: (error as { code?: unknown }).code }, 'client went away');
    else logger.error({ err: error, requestId: ctx?.state.requestId }, 'response failed');
  });

  app.use(requestContext(logger, metrics?.own));
  const cors = corsPolicy(config.corsOrigins);
  if (cors) app.use(cors);
  app.use(errorHandler(logger));
  app.use(authentication(authenticator));
  if (standbys) app.use(consistencyToken(standbys));
  if (registry) app.use(lookupMode({ kinds, registry, limits: config.limits, federate: federate({ timeoutMs: config.federation.federateTimeoutMs, maxParameters: config.limits.queryParameters }) }));

  const router = new Router();
  // `GET /` as an event stream: every collection's changes in one stream; otherwise discovery.
  router.get('/', serviceStream(kinds, events));
  const lookup = registry ? { lookup: true, about: async () => ({ haschild: true, depth: await lookupDepth(registry) }) } : {};
  mountDiscovery(router, { kinds, representations, store, facts, secured: !authenticator.open, ...(standbys ? { standbys } : {}), ...lookup });
  if (metrics) mountMetrics(router, metrics.scrape);

  // Discovery and the collections share one router, so a request is routed once; the
  // collection handlers check the scope of their method, and discovery stays open.
  const handlers = createRestHandlers({ store, representations, limits: config.limits, events });
  mountRoutes(router, handlers);
  // `/events`, `/data` and `/register` (server/collections.ts).
  mountServerCollections(router, { handlers, measurements: { measurements, store, representations, limits: config.limits, events } });

  // The SOAP catalog: its own faults and statuses, never the REST error shape.
  const soap = new Router();
  mountSoapEndpoint(soap, {
    path: config.catalog.path,
    description: loadServiceDescription(`${representations.addresses.baseUrl}${config.catalog.path}`),
    ...soapCalls({ config, logger, authenticator, catalog }),
  });
  if (catalogResults) mountResultRoute(soap, { path: config.catalog.path, store: catalogResults, open: authenticator.open, adminDns: config.catalog.adminDns, now: Date.now });

  app.use(router.routes());
  app.use(soap.routes());
  app.use(router.allowedMethods());
  app.use(soap.allowedMethods());
  return app;
}

/** How the SOAP endpoint answers a call, in Koa and before it. */
function soapCalls({ config, logger, authenticator, catalog }: Pick<AppDependencies, 'config' | 'logger' | 'authenticator' | 'catalog'>): Omit<SoapEndpointOptions, 'path' | 'description'> {
  return { dispatcher: createDispatcher(catalog, catalogRejection(logger)), limits: config.limits, logger, open: authenticator.open, adminDns: config.catalog.adminDns };
}

/**
 * What the HTTP server calls: SOAP calls (soap/direct.ts) and the hot read (rest/operations/hot-read.ts)
 * for a plain GET of one resource in memory, Koa for everything else. With CORS configured
 * every request goes to Koa, whose policy adds its headers.
 */
export function requestHandler(dependencies: AppDependencies): (req: IncomingMessage, res: ServerResponse) => void {
  const handle = servedHandler(dependencies);
  const { standbys } = dependencies;
  if (!standbys) return handle;
  const catalogPath = dependencies.config.catalog.path;
  // Reads (and SOAP calls, whose writes go to the primary whatever the context) may be served by standbys.
  return (req, res) => {
    if (req.method === 'GET' || req.method === 'HEAD' || (req.method === 'POST' && req.url?.startsWith(catalogPath) === true)) {
      const token = req.headers[CONSISTENCY_TOKEN];
      standbys.reading(typeof token === 'string' ? token : undefined, () => handle(req, res));
    } else handle(req, res);
  };
}

function servedHandler(dependencies: AppDependencies): (req: IncomingMessage, res: ServerResponse) => void {
  const koa = createApp(dependencies).callback();
  // With CORS, and on a lookup (whose collections redirect), every request goes to Koa.
  if (corsPolicy(dependencies.config.corsOrigins) || dependencies.registry) return (req, res) => void koa(req, res);
  const { store, representations, authenticator, logger, config } = dependencies;
  const access = accessLine(logger, dependencies.metrics?.own);
  const hot = hotRead({ kinds, store, representations, authenticator, access });
  const soap = directSoap({ path: config.catalog.path, exchange: soapExchange(soapCalls(dependencies)), authenticator, access });
  return (req, res) => {
    if (soap(req, res)) return;
    const answered = hot(req, res);
    if (answered === false) void koa(req, res);
    else if (answered !== true) {
      void answered.then((done) => {
        if (!done) void koa(req, res);
      });
    }
  };
}
