import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KindDescriptor } from '../../../generated/rest/handler.js';
import { credentialsOf, scopeOf, scopeRefusal, type Authenticator } from '../../auth.js';
import type { Access } from '../../http/access-line.js';
import { present } from '../../http/error-handler.js';
import { errorBody } from '../../http/errors.js';
import { closedAccess, requestIdOf } from '../../http/request-context.js';
import { StorageUnavailable } from '../../storage/errors.js';
import type { Representation } from '../../storage/contract/representation.js';
import type { ResourceStore } from '../../storage/resource-store.js';
import { etagFor } from '../../wire/conditional.js';
import { negotiatedType } from '../../wire/media.js';
import type { Representations } from '../../wire/representation.js';
import { oneHeaders } from '../respond.js';
import { possibleId } from '../request.js';

export interface HotReadOptions {
  readonly kinds: readonly KindDescriptor[];
  readonly store: ResourceStore;
  readonly representations: Representations;
  readonly authenticator: Authenticator;
  readonly access: (access: Access) => void;
}

/**
 * The most frequent request, `GET /<collection>/<id>`, answered before Koa sees it when the
 * representation is in memory or SQLite's key reader reads it at once (ResourceStore.currentNow):
 * the same status, headers, body and access line as the full path (read.ts through the
 * middleware), which a test compares byte for byte. It is that path with the steps a plain GET
 * leaves empty dropped, each remaining step the same function: the scope decision (auth.ts
 * credentialsOf, scopeRefusal), the media type (negotiatedType), the id's check (possibleId; the
 * segment as sent, which is the id unless it holds a `%`, and then the id when it is found),
 * the Content-Type (Representations.contentType), the headers (oneHeaders), the access line
 * (closedAccess) and the error body (present, errorBody). Anything else goes on to Koa: a query
 * string, a trailing slash, another method, `If-None-Match` or `If-Modified-Since`, an `Accept`
 * that is not plainly a JSON type, credentials that are missing or lack the read scope, a
 * resource that is not there, a failed read. On PostgreSQL, whose reads need a round trip, the
 * representation comes from memory while this process holds the read lease (ReadLease), else
 * the read is awaited here, and a miss or a failure goes on to Koa.
 *
 * Why: on the bench's machine a GET of one node cost 106–115 µs of CPU through Koa with the
 * representation in memory (and the bare-Koa reference 47–60 µs); Koa's context, the four
 * middleware, the router's match over 80 routes and the promises between them were most of the
 * difference. A first read of a resource, read by the key reader here instead of through Koa,
 * cost 67–79 µs instead of 121–131 µs (1,500 GETs/s of distinct nodes of 100,000, scratch).
 * Returns false when the request is not one it answers.
 */
export function hotRead({ kinds, store, representations, authenticator, access }: HotReadOptions): (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean> {
  const byCollection = new Map(kinds.map((kind) => [kind.collection, { kind, route: `/${kind.collection}/:id` }]));
  const scope = scopeOf('GET');

  /** Responder.one's answer: 200 with the representation, the access line once the response closes. */
  const answer = (req: IncomingMessage, res: ServerResponse, kind: KindDescriptor, route: string, type: string, representation: Representation, started: number): true => {
    const requestId = requestIdOf(req.headers['x-request-id']);
    const body = representations.render(kind, representation);
    const headers = oneHeaders(etagFor(representation.ts), representation.ts, representations.contentType(kind, type));
    res.writeHead(200, ['X-Request-Id', requestId, ...headers, 'Content-Length', String(Buffer.byteLength(body))]);
    res.end(body);
    res.once('close', () => access(closedAccess(res, started, { requestId, method: 'GET', path: req.url ?? '', status: 200, route })));
    return true;
  };

  /** The error handler's answer to a read the database could not serve: its error body, 503 with Retry-After. */
  const refuse = (req: IncomingMessage, res: ServerResponse, route: string, error: unknown, started: number): true => {
    const requestId = requestIdOf(req.headers['x-request-id']);
    const presented = present(error);
    const body = JSON.stringify(errorBody(presented.status, presented.message, presented.details, requestId));
    res.writeHead(presented.status, [
      'X-Request-Id', requestId,
      ...Object.entries(presented.headers).flat(),
      'Content-Type', 'application/json; charset=utf-8',
      'Content-Length', String(Buffer.byteLength(body)),
    ]);
    res.end(body);
    res.once('close', () => access(closedAccess(res, started, { requestId, method: 'GET', path: req.url ?? '', status: presented.status, reason: presented.message, route })));
    return true;
  };

  return (req, res) => {
    // The route: the router's `/<collection>/:id`, exactly (no trailing slash, no query string).
    if (req.method !== 'GET') return false;
    const url = req.url ?? '';
    const slash = url.indexOf('/', 1);
    if (slash < 0 || url.indexOf('/', slash + 1) >= 0 || url.includes('?') || slash === url.length - 1) return false;
    const route = byCollection.get(url.slice(1, slash));
    if (!route) return false;
    const headers = req.headers;
    // Conditional requests: Responder.one's 304 is the full path's.
    if (headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined) return false;
    const type = negotiatedType(headers.accept ?? '');
    if (type === undefined) return false;
    // A segment with a `%` is read as sent first (request.ts pathId): answered here only when
    // the id as sent is found; anything else is the full path's to decide.
    const id = url.slice(slash + 1);
    if (id === '' || !possibleId(id)) return false;
    if (!mayRead(authenticator, headers.authorization, scope)) return false;
    const started = performance.now();
    const { kind } = route;
    const found = store.currentSoon(kind.collection, id);
    if (found === undefined) return false;
    if (found instanceof Promise) {
      return found.then(
        (representation) => representation !== undefined && answer(req, res, kind, route.route, type, representation, started),
        // Read again through the full path, the request would wait for the database twice.
        (error: unknown) => error instanceof StorageUnavailable && refuse(req, res, route.route, error, started),
      );
    }
    return answer(req, res, kind, route.route, type, found, started);
  };
}

/** Whether these credentials may read, decided as `authorize` decides; a refusal of any kind is the full path's to answer. */
function mayRead(authenticator: Authenticator, authorization: string | undefined, scope: ReturnType<typeof scopeOf>): boolean {
  try {
    return scopeRefusal(credentialsOf(authenticator, authorization), scope) === undefined;
  } catch {
    return false;
  }
}
