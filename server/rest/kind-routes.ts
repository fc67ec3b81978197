import type { Router } from '@koa/router';
import type { KindDescriptor, RestHandlers } from '../../generated/rest/handler.js';

/**
 * The six operations of a kind at `/<collection>` and `/<collection>/:id`, as the generated
 * routes bind the schemas' kinds: for a kind of a collection the server owns (`/register`,
 * server/collections.ts).
 */
export function mountKindRoutes(router: Router, handlers: RestHandlers, kind: KindDescriptor): void {
  const collection = `/${kind.collection}`;
  router.post(collection, handlers.create(kind));
  router.get(collection, handlers.list(kind));
  router.get(`${collection}/:id`, handlers.read(kind));
  router.put(`${collection}/:id`, handlers.replace(kind));
  router.patch(`${collection}/:id`, handlers.patch(kind));
  router.delete(`${collection}/:id`, handlers.remove(kind));
}
