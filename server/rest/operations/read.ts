import type { RouterMiddleware } from '@koa/router';
import type { KindDescriptor } from '../../../generated/rest/handler.js';
import { notFound } from '../../http/errors.js';
import type { Selection } from '../../storage/resource-store.js';
import { responseType } from '../media.js';
import { pastNotFollowed, pathId, requestQuery } from '../request.js';
import { followStream, wantsEventStream } from '../../subscriptions/event-stream.js';
import type { OperationContext } from './context.js';

/**
 * GET /<collection>/<id> (docs/rest-interface.md): the newest representation; `?ts=T` the version with
 * that ts (an object, or 404); with conditions, the matching versions, newest first; `?at=T` all
 * of these as they were at instant T (docs/time.md). With
 * `Accept: text/event-stream`, the resource's changes that match, as they happen.
 */
export function read({ store, representations, limits, respond, events }: OperationContext) {
  return (kind: KindDescriptor): RouterMiddleware =>
    async (ctx) => {
      if (wantsEventStream(ctx)) {
        const { query, selection } = requestQuery(ctx, kind, 'collection', limits, representations);
        pastNotFollowed(query);
        return followStream(ctx, kind, pathId(ctx, kind), query, selection.conditions, events);
      }
      const type = responseType(ctx);
      const { query, selection } = requestQuery(ctx, kind, 'resource', limits, representations);
      const presentation = respond.presentation(kind, type, query);
      const id = pathId(ctx, kind);
      const { at } = query;
      const absent = () => notFound(`no ${kind.name} "${id}"${query.version != null ? ` with ts ${query.version}` : ''}${at !== undefined ? ` at ${at}` : ''}`);

      if (query.version !== undefined) {
        // A ts beyond every integer a version can have selects nothing; nor does one after `at`.
        if (query.version === null || (at !== undefined && query.version > at)) throw absent();
        const version =
          query.conditions.length === 0
            ? await store.version(kind.collection, id, query.version)
            : await first(store.versions(kind.collection, id, atVersion(selection, query.version)));
        if (!version) throw absent();
        return respond.one(ctx, presentation, version);
      }
      if (query.conditions.length > 0) {
        if (!(await store.known(kind.collection, id, at))) throw absent();
        return respond.list(ctx, presentation, store.versions(kind.collection, id, selection));
      }
      const current = at === undefined ? await store.current(kind.collection, id) : await store.at(kind.collection, id, at);
      if (!current) throw absent();
      await respond.one(ctx, presentation, current);
    };
}

/** The query's conditions and the version `ts`: that version, if it matches them. */
function atVersion(selection: Selection, ts: number): Selection {
  const version = { target: { kind: 'column', column: 'ts' }, comparison: '=', type: 'number', values: [ts] } as const;
  return { ...selection, conditions: [...selection.conditions, { anyOf: [version] }], limit: 1 };
}

async function first<T>(rows: AsyncIterable<T>): Promise<T | undefined> {
  for await (const row of rows) return row;
  return undefined;
}
