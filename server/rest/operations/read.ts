import type { RouterMiddleware } from '@koa/router';
import type { KindDescriptor } from '../../../generated/rest/handler.js';
import { notFound } from '../../http/errors.js';
import type { Selection } from '../../storage/resource-store.js';
import { responseType, typedRequest } from '../../wire/media.js';
import { pastNotFollowed, pathId, requestQuery } from '../request.js';
import { followStream, wantsEventStream } from '../../subscriptions/event-stream.js';
import type { OperationContext } from './context.js';

/**
 * GET /<collection>/<id> (docs/rest-interface.md): the newest representation; `?ts=T` the version with
 * that ts (an object, or the answer to an unknown id); with conditions, the matching versions, newest first; `?at=T` all
 * of these as they were at instant T (docs/time.md). With
 * `Accept: text/event-stream`, the resource's changes that match, as they happen.
 */
export function read({ store, representations, limits, respond, events }: OperationContext) {
  return (kind: KindDescriptor): RouterMiddleware =>
    async (ctx) => {
      if (wantsEventStream(ctx)) {
        const { query, selection } = requestQuery(ctx, kind, 'collection', limits, representations, 'stream');
        pastNotFollowed(query);
        return followStream(ctx, kind, await pathId(ctx, kind, store), query, selection.conditions, events);
      }
      const type = responseType(ctx);
      const { query, selection } = requestQuery(ctx, kind, 'resource', limits, representations);
      const presentation = respond.presentation(kind, type, query);
      const id = await pathId(ctx, kind, store);
      const { at } = query;
      // An unknown id (rest-contract §3, revised 2026-11-26): 404 to a typed request, UNIS HEAD's
      // `200 []` to a UNIS-form one (dlt-web reads an array as "no longer exists").
      const absent = (): Promise<void> => {
        if (!typedRequest(ctx.get('accept'))) return respond.list(ctx, presentation, NOTHING);
        throw notFound(`no ${kind.name} "${id}"${query.version != null ? ` with ts ${query.version}` : ''}${at !== undefined ? ` at ${at}` : ''}`);
      };

      if (query.version !== undefined) {
        // A ts beyond every integer a version can have selects nothing; nor does one after `at`.
        if (query.version === null || (at !== undefined && query.version > at)) return absent();
        const version =
          query.conditions.length === 0
            ? await store.version(kind.collection, id, query.version)
            : await first(store.versions(kind.collection, id, atVersion(selection, query.version)));
        if (!version) return absent();
        return respond.one(ctx, presentation, version);
      }
      if (query.conditions.length > 0) {
        if (!(await store.known(kind.collection, id, at))) return absent();
        return respond.list(ctx, presentation, store.versions(kind.collection, id, selection));
      }
      const current = at === undefined ? await store.current(kind.collection, id) : await store.at(kind.collection, id, at);
      if (!current) return absent();
      // `fields=` in UNIS form (rest-contract §3, revised 2026-11-29): a one-element array, as UNIS
      // answered any query on one resource; typed requests get the projected object.
      if (query.fields && !typedRequest(ctx.get('accept'))) return respond.list(ctx, presentation, only(current));
      await respond.one(ctx, presentation, current);
    };
}

const NOTHING: AsyncIterable<never> = { [Symbol.asyncIterator]: () => ({ next: () => Promise.resolve({ done: true, value: undefined }) }) };

/** The query's conditions and the version `ts`: that version, if it matches them. */
function atVersion(selection: Selection, ts: number): Selection {
  const version = { target: { kind: 'column', column: 'ts' }, comparison: '=', type: 'number', values: [ts] } as const;
  return { ...selection, conditions: [...selection.conditions, { anyOf: [version] }], limit: 1 };
}

async function* only<T>(item: T): AsyncIterable<T> {
  yield item;
}

async function first<T>(rows: AsyncIterable<T>): Promise<T | undefined> {
  for await (const row of rows) return row;
  return undefined;
}
