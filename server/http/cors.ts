import cors from '@koa/cors';
import type { Middleware } from 'koa';

/** Response headers a browser page may read: the validators, where a resource went, the request id, retry hints. */
const EXPOSED = ['ETag', 'Last-Modified', 'Location', 'X-Request-Id', 'Retry-After', 'WWW-Authenticate', 'Content-Type'];

/**
 * Cross-origin requests from the configured origins (CORS_ORIGINS): a browser page there may
 * call the REST interface, send `Authorization`, `If-Match` and the rest, and read the headers
 * above. Other origins get no CORS headers, so browsers keep their pages out. Nothing is
 * allowed by default.
 */
export function corsPolicy(origins: readonly string[]): Middleware | undefined {
  if (origins.length === 0) return undefined;
  const any = origins.includes('*');
  const allowed = new Set(origins);
  return cors({
    origin: (ctx) => {
      const origin = ctx.get('Origin');
      return any || allowed.has(origin) ? origin : '';
    },
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    exposeHeaders: EXPOSED,
    maxAge: 600,
  });
}
