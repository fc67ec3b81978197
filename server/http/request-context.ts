import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '../log.js';

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives every request an id (the client's `X-Request-Id` when it is sane) and writes one access
 * log line when the response is done, including streamed and aborted ones.
 */
export function requestContext(logger: Logger): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    const offered = ctx.get('x-request-id');
    const requestId = CLIENT_REQUEST_ID.test(offered) ? offered : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    ctx.res.once('close', () => {
      logger.info(
        {
          requestId,
          method: ctx.method,
          path: ctx.path.length > 512 ? `${ctx.path.slice(0, 512)}…` : ctx.path,
          status: ctx.res.writableFinished ? ctx.status : 499,
          ...(ctx.state.operation ? { operation: ctx.state.operation } : {}),
          ms: Math.round((performance.now() - started) * 100) / 100,
        },
        'request',
      );
    });
    await next();
  };
}
