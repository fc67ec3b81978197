import type { RouterMiddleware } from '@koa/router';
import type { KindDescriptor } from '../../generated/rest/handler.js';
import { authorize } from '../auth.js';
import { HttpError } from '../http/errors.js';
import { openStream, wantsEventStream, type EventStreamOptions } from './event-stream.js';
import { unisFrame } from './frames.js';

/** The parameters the service-wide stream takes (`access_token` is read by authentication). */
const PARAMETERS = new Set(['collections', 'access_token']);

/** The collections `collections=a,b` names; every collection when absent. */
function chosen(value: string | string[] | undefined, kinds: ReadonlyMap<string, KindDescriptor>): KindDescriptor[] {
  if (value === undefined) return [...kinds.values()];
  if (Array.isArray(value)) throw new HttpError(400, 'collections= is given once, as a comma-separated list', [{ path: 'collections', message: 'given more than once' }]);
  const names = value.split(',').map((name) => name.trim()).filter((name) => name !== '');
  const unknown = names.filter((name) => !kinds.has(name));
  if (unknown.length > 0 || names.length === 0) {
    const message = names.length === 0 ? 'names no collection' : `no collection ${unknown.map((n) => JSON.stringify(n.slice(0, 100))).join(', ')}`;
    throw new HttpError(400, `collections= must name collections of this service (${[...kinds.keys()].join(', ')})`, [{ path: 'collections', message }]);
  }
  return [...new Set(names)].map((name) => kinds.get(name)!);
}

/**
 * `GET /` with `Accept: text/event-stream` (docs/subscriptions.md): the changes of every collection,
 * or of those `collections=` names, in one stream, so a browser page that follows the whole
 * topology holds one connection (browsers allow six per host over HTTP/1.1). Each event's data is
 * UNIS's frame (`{"headers": {action, collection, id}, "data"}`), since one stream mixes
 * collections; its id orders every change of the service, and `Last-Event-ID` resumes as on a
 * collection's stream. Any other request for `/` goes on to discovery.
 */
export function serviceStream(kinds: readonly KindDescriptor[], events: EventStreamOptions): RouterMiddleware {
  const byName = new Map(kinds.map((kind) => [kind.collection, kind]));
  return async (ctx, next) => {
    if (!wantsEventStream(ctx)) return next();
    authorize(ctx, 'read');
    const extra = Object.keys(ctx.query).filter((name) => !PARAMETERS.has(name));
    if (extra.length > 0) throw new HttpError(400, 'the service-wide event stream takes only collections=', extra.slice(0, 100).map((name) => ({ path: name, message: 'unknown parameter' })));
    const targets = chosen(ctx.query.collections, byName).map((kind) => ({ kind, conditions: [] }));
    return openStream(ctx, targets, (change) => unisFrame(change), events);
  };
}
