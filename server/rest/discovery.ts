import { readFileSync } from 'node:fs';
import { servedDescription } from './description.js';
import path from 'node:path';
import type { Router } from '@koa/router';
import type { KindDescriptor } from '../../generated/rest/handler.js';
import { canonicalSchemaBase } from '../../generated/rest/kinds.js';
import { schemaDocuments } from '../../generated/rest/schemas.js';
import { projectRoot } from '../paths.js';
import { version } from '../version.js';
import type { ResourceStore } from '../storage/resource-store.js';
import type { Standbys } from '../storage/contract/standbys.js';
import { onPrimary } from '../storage/on-primary.js';
import { StorageUnavailable } from '../storage/errors.js';
import { HttpError } from '../http/errors.js';
import type { ServiceFacts } from '../storage/service-facts.js';
import { homePage, mountDocs } from './docs.js';
import { mountUi } from './ui.js';
import type { Representations } from '../wire/representation.js';

export interface DiscoveryOptions {
  readonly kinds: readonly KindDescriptor[];
  readonly representations: Representations;
  readonly store: ResourceStore;
  readonly facts: ServiceFacts;
  /** Tokens are configured: the description names the scope of each operation. */
  readonly secured: boolean;
  /** A lookup's place in the hierarchy (docs/federation.md); absent: a leaf, `haschild: false, depth: 0`. */
  readonly about?: () => Promise<{ readonly haschild: boolean; readonly depth: number }>;
  /** This is a lookup (LOOKUP=true): it serves the description whose collections answer its `Redirect`. */
  readonly lookup?: boolean;
  /** With DATABASE_READ_URLS: `/health` asks the primary, and says how each standby is. */
  readonly standbys?: Standbys;
}

/**
 * What a client needs to find its way (docs/rest-interface.md): the collections in UNIS's shape
 * (`GET /`), the service's identity (`GET /about`), the health of the storage (`GET /health`),
 * the API description (`GET /openapi.json`; a lookup's is generated/openapi-lookup.json) and
 * each schema at its address when that address lies under the service's own base URL.
 */
export function mountDiscovery(router: Router, { kinds, representations, store, facts, secured, about, lookup = false, standbys }: DiscoveryOptions): void {
  const { baseUrl, schemaBase } = representations.addresses;
  // UNIS clients discover the service from this list: UNISrt reads each `href` and
  // `targetschema.items.href` (oal.py), so it keeps UNIS's exact shape.
  const entries = kinds.map((k) => ({ href: `${baseUrl}/${k.collection}`, schema: representations.schemaAddress(k) }));
  const collections = JSON.stringify(entries.map(({ href, schema }) => ({ href, rel: 'full', targetschema: { type: 'array', items: { rel: 'full', href: schema } } })));
  const page = homePage(entries);
  router.get('/', (ctx) => {
    // A browser (which prefers HTML) gets a page linking the API reference; every other client the list.
    if (ctx.accepts('application/json', 'text/html') === 'text/html') {
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = page;
      return;
    }
    ctx.type = 'application/json';
    ctx.body = collections;
  });

  // UNIS HEAD's answer, which UNISrt needs before anything else.
  router.get('/about', async (ctx) => {
    ctx.body = { uid: await facts.uid(), ...(about ? await about() : { haschild: false, depth: 0 }), version };
  });

  mountDocs(router);
  mountUi(router);

  // Readiness: the primary answers and takes writes (rest-contract §16), else 503 with what is
  // wrong, so that a load balancer stops sending traffic; each standby's state is a detail, never
  // a failure: reads go around a standby that fails (rest-contract §15).
  router.get('/health', async (ctx) => {
    try {
      await onPrimary(standbys, () => store.ping());
    } catch (error) {
      if (!(error instanceof StorageUnavailable)) throw error;
      // NoWritableHost words what each host answered; any other cause is a driver's (never shown).
      const cause = error.cause as { name?: unknown; why?: unknown } | undefined;
      const why = cause?.name === 'NoWritableHost' && typeof cause.why === 'string' ? cause.why : 'the database does not answer';
      throw new HttpError(503, 'not ready: the database takes no writes; retry shortly', [{ path: 'database', message: why }], { 'Retry-After': '1' });
    }
    const details = standbys?.states().map(({ name, up, lagBytes, lagSeconds }) => ({ name, status: up ? 'ok' : 'unavailable', lagBytes, lagSeconds }));
    ctx.body = details ? { status: 'ok', version, standbys: details } : { status: 'ok', version };
  });

  // Liveness: the process itself is up and serving, whatever its database does (a failover is no
  // reason to restart it).
  router.get('/health/live', (ctx) => {
    ctx.body = { status: 'ok', version };
  });

  // Only a lookup's reads answer a Redirect, and only its description says so (generator/emit/openapi/).
  const openapi = JSON.parse(readFileSync(path.join(projectRoot, lookup ? 'generated/openapi-lookup.json' : 'generated/openapi.json'), 'utf8')) as Record<string, unknown>;
  const description = JSON.stringify(servedDescription(openapi, { baseUrl, secured }));
  router.get('/openapi.json', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = description;
  });

  if (schemaBase.startsWith(`${baseUrl}/`)) {
    // Every address in the documents (ids, $refs) moves from the canonical base to ours.
    const served = new Map(Object.entries(schemaDocuments).map(([slug, schema]) => [slug, JSON.stringify(schema).split(canonicalSchemaBase).join(schemaBase)]));
    router.get(`${schemaBase.slice(baseUrl.length)}/:slug`, (ctx) => {
      const schema = served.get(ctx.params.slug!);
      if (schema === undefined) return;
      ctx.type = 'application/schema+json';
      ctx.body = schema;
    });
  }
}
