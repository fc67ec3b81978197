import type { Middleware } from 'koa';
import { CONSISTENCY_TOKEN_HEADER } from '../../generated/rest/contract.js';
import type { Standbys } from '../storage/contract/standbys.js';

/** The request header that sends a consistency token back, as Node names it (lower case). */
export const CONSISTENCY_TOKEN = CONSISTENCY_TOKEN_HEADER.toLowerCase();

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Every answer to a write carries the consistency token (rest-contract §15): the primary's
 * position asked once the write was acknowledged (one question for the writes answered together,
 * shared with the reads'), which a client sends back so that its reads need no question to the
 * primary. A primary that cannot say leaves the answer without one: the write stands.
 */
export function consistencyToken(standbys: Standbys): Middleware {
  return async (ctx, next) => {
    await next();
    if (READS.has(ctx.method) || ctx.status >= 500) return;
    try {
      ctx.set(CONSISTENCY_TOKEN_HEADER, await standbys.token());
    } catch {
      // Without a token the client's next read asks the primary, as any read without one does.
    }
  };
}
