import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Middleware } from 'koa';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics/metrics.js';
import { accessLine, type Access } from './access-line.js';

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Query parameters whose values are credentials, and values that look like this service's tokens. */
const SECRET_PARAMETER = /(^|&)([^=&]*(?:token|key|secret|password|passwd|auth|signature)[^=&]*)=[^&]*/gi;
const TOKEN_VALUE = /tc_[A-Za-z0-9_-]{16,}/g;
const MAX_LOGGED = 512;

function shorten(text: string): string {
  return text.length > MAX_LOGGED ? `${text.slice(0, MAX_LOGGED)}…` : text;
}

/** The query string as logged: credentials masked, cut at 512 characters. */
export function loggedQuery(query: string): string {
  return shorten(query.replace(SECRET_PARAMETER, '$1$2=***').replace(TOKEN_VALUE, '***'));
}

/** The request's id: the client's `X-Request-Id` when it is sane, else a new one. */
export function requestIdOf(offered: string | readonly string[] | undefined): string {
  return typeof offered === 'string' && CLIENT_REQUEST_ID.test(offered) ? offered : randomUUID();
}

/** The status an access line gives a closed response: 499 when it was cut before it was all sent. */
export function closedStatus(res: ServerResponse, status: number): number {
  return res.writableFinished ? status : 499;
}

/**
 * Gives every request an id (the client's `X-Request-Id` when it is sane) and writes one access
 * log line when the response is done, including streamed and aborted ones.
 */
export function requestContext(logger: Logger, metrics?: Metrics): Middleware {
  const access = accessLine(logger, metrics);
  return async (ctx, next) => {
    const started = performance.now();
    const requestId = requestIdOf(ctx.get('x-request-id'));
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    ctx.res.once('close', () => {
      access(
        closedAccess(ctx.res, started, {
          requestId,
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          querystring: ctx.querystring,
          reason: ctx.state.reason,
          operation: ctx.state.operation,
          // The router's template (`/nodes/:id`); a path no route matched is counted as one.
          route: typeof ctx._matchedRoute === 'string' ? ctx._matchedRoute : 'unmatched',
        }),
      );
    });
    await next();
  };
}

/** What a request's access line is made from once its response closed. */
export interface Answered {
  readonly requestId: string;
  readonly method: string;
  readonly path: string;
  /** The status answered (499 in the line when the response was cut). */
  readonly status: number;
  readonly route: string;
  readonly querystring?: string;
  readonly reason?: unknown;
  readonly operation?: unknown;
}

/** The access line of a closed response, as Koa's path (requestContext) and the fast read path (rest/operations/hot-read.ts) write it. */
export function closedAccess(res: ServerResponse, started: number, answered: Answered): Access {
  const status = closedStatus(res, answered.status);
  const { querystring, reason, operation } = answered;
  // A client's mistake is found from the log alone: the query it sent and what was wrong.
  const mistake = status >= 400 && status < 500 && status !== 499;
  return {
    requestId: answered.requestId,
    method: answered.method,
    path: shorten(answered.path),
    status,
    query: mistake && querystring !== undefined && querystring !== '' ? loggedQuery(querystring) : undefined,
    reason: mistake && typeof reason === 'string' ? shorten(reason) : undefined,
    operation: typeof operation === 'string' && operation !== '' ? operation : undefined,
    ms: Math.round((performance.now() - started) * 100) / 100,
    route: answered.route,
  };
}
