import type { Middleware } from 'koa';
import type { KindDescriptor } from '../../generated/rest/handler.js';
import { authorize } from '../auth.js';
import type { Limits } from '../config.js';
import { HttpError } from '../http/errors.js';
import { parseQuery } from '../query/parse.js';
import { redirectTargets } from './redirect.js';
import type { Registry } from './registry.js';

export interface LookupDependencies {
  readonly kinds: readonly KindDescriptor[];
  readonly registry: Registry;
  readonly limits: Limits;
  /** `federate=true`: the query answered over the instances (federate.ts); absent: redirects only. */
  readonly federate?: (ctx: Parameters<Middleware>[0], kind: KindDescriptor, instances: readonly string[]) => Promise<void>;
}

const READS = new Set(['GET', 'HEAD']);

/**
 * Lookup mode (LOOKUP=true, rest-contract §13): the resource collections answer with the
 * instances that may hold a match, as UNIS does (`{"redirect": true, "instances": [...]}`, `[]`
 * when nothing is registered), or with the query run on them (`federate=true`); writes to them
 * are 405. `/register`, discovery and the measurement store are served as everywhere.
 */
export function lookupMode({ kinds, registry, limits, federate }: LookupDependencies): Middleware {
  const byCollection = new Map(kinds.map((k) => [k.collection, k]));
  return async (ctx, next) => {
    const match = /^\/([^/]+)(?:\/([^/]+))?\/?$/.exec(ctx.path);
    const kind = match ? byCollection.get(match[1]!) : undefined;
    if (!kind) return next();
    if (!READS.has(ctx.method)) throw new HttpError(405, `this instance is a lookup: ${kind.collection} are written at the instances it names`, [], { Allow: 'GET, HEAD' });
    authorize(ctx, 'read');
    // A malformed query is the 400 of the error table (http/error-handler.ts).
    const { conditions } = parseQuery(ctx.querystring, limits.queryParameters, match![2] === undefined ? 'collection' : 'resource');
    const federated = /(^|&)federate=(true|1)(&|$)/i.test(ctx.querystring);
    const registrations = await registry.unexpired();
    // One resource (its id) may be anywhere: every unexpired instance is named.
    const instances = match![2] === undefined ? redirectTargets(registrations, kind.collection, conditions) : registrations.map((r) => r.accessPoint);
    if (federated && federate && match![2] === undefined) return federate(ctx, kind, instances);
    ctx.type = 'application/json';
    ctx.body = (await registry.all()).length === 0 ? [] : { redirect: true, instances };
  };
}

/** `/about` of a lookup: it has children, and its depth is one more than the deepest of them. */
export async function lookupDepth(registry: Registry): Promise<number> {
  const registrations = await registry.unexpired();
  return registrations.length === 0 ? 1 : 1 + Math.max(...registrations.map((r) => r.depth));
}
