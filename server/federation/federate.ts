import type { Context } from 'koa';
import type { KindDescriptor } from '../../generated/rest/handler.js';
import { parseQuery } from '../query/parse.js';
import type { SortKey } from '../query/syntax.js';

export interface FederateOptions {
  /** Time each instance has to answer (FEDERATE_TIMEOUT_MS). */
  readonly timeoutMs: number;
  readonly maxParameters: number;
}

/** What one instance gave: its list, or why there is none. */
type Outcome = { readonly instance: string; readonly items: unknown[] } | { readonly instance: string; readonly failure: string };

/** The parameters passed on to each instance: all but `federate`, and `skip`/`limit`, which apply to the merged list. */
function passedOn(querystring: string, limit: number | undefined, skip: number | undefined): string {
  const kept = querystring.split('&').filter((pair) => pair !== '' && !/^(federate|limit|skip)(=|$)/i.test(pair));
  // Each instance needs at most skip + limit of its own (sorted) list for the merged page.
  if (limit !== undefined) kept.push(`limit=${(skip ?? 0) + limit}`);
  return kept.join('&');
}

async function askInstance(instance: string, path: string, timeoutMs: number): Promise<Outcome> {
  try {
    const answer = await fetch(`${instance}${path}`, { headers: { Accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
    if (!answer.ok) {
      await answer.arrayBuffer();
      return { instance, failure: `status ${answer.status}` };
    }
    const body = (await answer.json()) as unknown;
    return Array.isArray(body) ? { instance, items: body } : { instance, failure: 'not a list' };
  } catch (error) {
    const name = (error as { name?: string }).name;
    return { instance, failure: name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : 'unreachable' };
  }
}

function valueAt(item: unknown, field: readonly string[]): unknown {
  let value = item;
  for (const segment of field) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[segment] : undefined;
  return value;
}

/** Absent values last, numbers before strings, each in its own order. */
function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === undefined || a === null) return 1;
  if (b === undefined || b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  const [x, y] = [String(a), String(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

function byKeys(sort: readonly SortKey[]): (a: unknown, b: unknown) => number {
  return (a, b) => {
    for (const key of sort) {
      const order = compare(valueAt(a, key.field), valueAt(b, key.field));
      if (order !== 0) return key.descending ? -order : order;
    }
    return 0;
  };
}

/**
 * `federate=true` on a lookup (rest-contract §13): the query run on each instance the redirect
 * names, concurrently, each within the time budget; the lists merged (`sort` over the merged
 * list, then `skip` and `limit`), every element as its instance answered it. The instances that
 * failed or ran out of time are named in `Federation-Partial` (`<accessPoint>; reason="…"`).
 * The lookup only ever asks accessPoints of registrations it stored (http or https).
 */
export function federate(options: FederateOptions) {
  return async (ctx: Context, kind: KindDescriptor, instances: readonly string[]): Promise<void> => {
    const query = parseQuery(ctx.querystring, options.maxParameters);
    const path = `/${kind.collection}?${passedOn(ctx.querystring, query.limit, query.skip)}`;
    const outcomes = await Promise.all(instances.map((instance) => askInstance(instance, path, options.timeoutMs)));
    const failed = outcomes.filter((o): o is Extract<Outcome, { failure: string }> => 'failure' in o);
    let merged = outcomes.flatMap((o) => ('items' in o ? o.items : []));
    if (query.sort.length > 0) merged.sort(byKeys(query.sort));
    const skip = query.skip ?? 0;
    merged = merged.slice(skip, query.limit === undefined ? undefined : skip + query.limit);
    if (failed.length > 0) ctx.set('Federation-Partial', failed.map((f) => `${f.instance}; reason="${f.failure}"`).join(', '));
    ctx.type = 'application/json';
    ctx.body = merged;
  };
}
