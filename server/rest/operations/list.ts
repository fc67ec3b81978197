import type { RouterMiddleware } from '@koa/router';
import type { KindDescriptor } from '../../../generated/rest/handler.js';
import { responseType } from '../../wire/media.js';
import { pastNotFollowed, requestQuery } from '../request.js';
import { followStream, wantsEventStream } from '../../subscriptions/event-stream.js';
import type { OperationContext } from './context.js';

/**
 * GET /<collection>: the newest representation of every live resource that matches, streamed
 * (`at=T`: as they were at instant T; `since`/`until`: what changed between two; docs/time.md);
 * with `Accept: text/event-stream`, the changes of the collection that match, as they happen.
 */
export function list({ representations, limits, respond, events }: OperationContext) {
  return (kind: KindDescriptor): RouterMiddleware =>
    async (ctx) => {
      if (wantsEventStream(ctx)) {
        const { query, selection } = requestQuery(ctx, kind, 'collection', limits, representations, 'stream');
        pastNotFollowed(query);
        return followStream(ctx, kind, undefined, query, selection.conditions, events);
      }
      const type = responseType(ctx);
      const { query, selection } = requestQuery(ctx, kind, 'collection', limits, representations);
      if (query.changes) return respond.changes(ctx, kind, type, query, query.changes.since, query.changes.until ?? Number.MAX_SAFE_INTEGER, selection);
      await respond.current(ctx, respond.presentation(kind, type, query), selection);
    };
}
