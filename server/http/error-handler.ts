import type { Middleware } from 'koa';
import type { Logger } from '../log.js';
import { QueryError } from '../query/errors.js';
import { QueryTooLarge, StorageUnavailable } from '../storage/errors.js';
import { HttpError, errorBody, isErrorStatus, type ErrorDetail, type ErrorStatus } from './errors.js';

const EMPTY_STATUS_MESSAGES: Readonly<Partial<Record<number, string>>> = {
  404: 'no such collection or path',
  405: 'method not allowed on this path',
  501: 'method not implemented',
};

/** Response headers an error answer keeps. */
const KEPT_ON_ERROR = /^(x-request-id|vary|access-control-.*)$/i;

export interface Presented {
  status: ErrorStatus;
  message: string;
  details: readonly ErrorDetail[];
  headers: Readonly<Record<string, string>>;
}

/** How an error is answered: its status, message, details and extra headers (the one table of it). */
export function present(error: unknown): Presented {
  if (error instanceof HttpError) return error;
  if (error instanceof StorageUnavailable) {
    return { status: 503, message: 'the database is unavailable; retry shortly', details: [], headers: { 'Retry-After': '1' } };
  }
  // A query the language refuses, wherever it is read (collections, a lookup, the measurement store): the parameter named.
  if (error instanceof QueryError) return { status: 400, message: `malformed query: ${error.message}`, details: [{ path: error.parameter, message: error.message }], headers: {} };
  if (error instanceof QueryTooLarge) return { status: 400, message: error.message, details: [{ path: 'query', message: 'too large for the database' }], headers: {} };
  // Koa's own client errors (ctx.throw, http-errors) carry `expose` when their message is safe.
  const status = (error as { status?: unknown }).status;
  if (typeof status === 'number' && status >= 400 && status < 500 && (error as { expose?: boolean }).expose) {
    return { status: isErrorStatus(status) ? status : 400, message: (error as Error).message, details: [], headers: {} };
  }
  return { status: 500, message: 'internal error; the request id identifies it in the server log', details: [], headers: {} };
}

/**
 * Every error leaves as the one error body, with the request id. Unexpected errors are logged
 * with their stack and answered with 500 and no detail: nothing internal leaks to the client.
 */
export function errorHandler(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      const status = ctx.status;
      const message = EMPTY_STATUS_MESSAGES[status];
      if (message !== undefined && isErrorStatus(status) && (ctx.body === undefined || ctx.body === null)) {
        ctx.type = 'application/json';
        ctx.body = errorBody(status, message, [], ctx.state.requestId);
        ctx.state.reason = message;
        // Assigning a body makes Koa's implicit 404 a 200; keep the status.
        ctx.status = status;
      }
    } catch (error) {
      const presented = present(error);
      // The database unavailable is logged once per change of state by the storage (lost,
      // read-only, back after N s; rest-contract §16), not once per request: a failover of 25 s
      // under load wrote thousands of stacks. Each such request keeps its access line.
      if (error instanceof StorageUnavailable && error.reported) logger.debug({ requestId: ctx.state.requestId, err: error }, 'request failed: the database is unavailable');
      // A 503 of the service's own making (/health while not ready) is an answer, not a fault.
      else if (presented.status >= 500 && !(error instanceof HttpError && presented.status === 503)) logger.error({ requestId: ctx.state.requestId, err: error }, 'request failed');
      // Headers set for a success (ETag, Location, Content-Type) do not belong on the error; the
      // request id and the CORS headers (set before the request was handled) do.
      for (const name of Object.keys(ctx.response.headers)) if (!KEPT_ON_ERROR.test(name)) ctx.remove(name);
      for (const [name, value] of Object.entries(presented.headers)) ctx.set(name, value);
      ctx.status = presented.status;
      ctx.type = 'application/json';
      ctx.body = errorBody(presented.status, presented.message, presented.details, ctx.state.requestId);
      // For the access log line: what was wrong, and where (the first detail's pointer or parameter).
      const first = presented.details[0];
      ctx.state.reason = first ? `${presented.message} (${first.path}: ${first.message})` : presented.message;
    }
  };
}
