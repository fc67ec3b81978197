import type { RouterMiddleware } from '@koa/router';
import type { KindDescriptor } from '../../../generated/rest/handler.js';
import { responseType } from '../media.js';
import { requestQuery } from '../request.js';
import type { OperationContext } from './context.js';

/** GET /<collection>: the newest representation of every live resource that matches, streamed. */
export function list({ store, representations, limits, respond }: OperationContext) {
  return (kind: KindDescriptor): RouterMiddleware =>
    async (ctx) => {
      const type = responseType(ctx);
      const { query, selection } = requestQuery(ctx, kind, 'collection', limits, representations);
      await respond.list(ctx, respond.presentation(kind, type, query), store.list(kind.collection, selection));
    };
}
