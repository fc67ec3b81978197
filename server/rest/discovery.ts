import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Router } from '@koa/router';
import type { KindDescriptor } from '../../generated/rest/handler.js';
import { schemaDocuments } from '../../generated/rest/schemas.js';
import { projectRoot } from '../paths.js';
import type { ResourceStore } from '../storage/resource-store.js';
import type { Representations } from './representation.js';

export interface DiscoveryOptions {
  readonly kinds: readonly KindDescriptor[];
  readonly representations: Representations;
  readonly store: ResourceStore;
  readonly baseUrl: string;
  readonly schemaBase: string;
}

/**
 * What a client needs to find its way: the collections (`GET /`), the health of the storage
 * (`GET /health`), the API description (`GET /openapi.json`) and each kind's schema at its
 * `$schema` address when that address lies under the service's own base URL.
 */
export function mountDiscovery(router: Router, { kinds, representations, store, baseUrl, schemaBase }: DiscoveryOptions): void {
  const collections = {
    collections: kinds.map((k) => ({ name: k.collection, href: `${baseUrl}/${k.collection}`, schema: representations.schemaAddress(k) })),
  };
  router.get('/', (ctx) => {
    ctx.body = collections;
  });

  router.get('/health', async (ctx) => {
    await store.ping();
    ctx.body = { status: 'ok' };
  });

  const openapi = JSON.parse(readFileSync(path.join(projectRoot, 'generated/openapi.json'), 'utf8')) as Record<string, unknown>;
  const description = JSON.stringify({ ...openapi, servers: [{ url: baseUrl }] });
  router.get('/openapi.json', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = description;
  });

  if (schemaBase.startsWith(`${baseUrl}/`)) {
    const served = new Map(
      Object.entries(schemaDocuments).map(([slug, schema]) => [slug, JSON.stringify({ ...schema, $id: `${schemaBase}/${slug}` })]),
    );
    router.get(`${schemaBase.slice(baseUrl.length)}/:slug`, (ctx) => {
      const schema = served.get(ctx.params.slug!);
      if (schema === undefined) return;
      ctx.type = 'application/schema+json';
      ctx.body = schema;
    });
  }
}
