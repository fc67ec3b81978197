import { Readable } from 'node:stream';
import type { Context } from 'koa';
import type { KindDescriptor } from '../../generated/rest/handler.js';
import { parseQuery } from '../query/parse.js';
import { PERFSONAR_JSON, responseType } from '../wire/media.js';
import { type InstanceFailure, InstanceList } from './instance-list.js';
import { mergedArray } from './merge.js';
import { keyOrder } from './order.js';

export interface FederateOptions {
  /** Time each instance has for its answer to start, and then for each read (FEDERATE_TIMEOUT_MS). */
  readonly timeoutMs: number;
  readonly maxParameters: number;
}

/**
 * The parameters passed on to each instance: all but `federate`, and `skip`/`limit`, which apply
 * to the merged list (`limit` undefined: none, also for `limit=0`, which the parser reads as none).
 */
export function passedOn(querystring: string, limit: number | undefined, skip: number | undefined): string {
  const kept = querystring.split('&').filter((pair) => pair !== '' && !/^(federate|limit|skip)(=|$)/i.test(pair));
  // Each instance needs at most skip + limit of its own (sorted) list for the merged page.
  if (limit !== undefined) kept.push(`limit=${(skip ?? 0) + limit}`);
  return kept.join('&');
}

/**
 * The headers sent to an instance: UNIS's form (rest-contract §13, revised 2026-11-29), which
 * every instance answers with its list: UNIS HEAD answers `Accept: application/perfsonar+json`
 * (and any type) with a JSON array and `application/json` with a 500; a topocat instance answers a
 * list alike in every form. And the caller's credentials, which the instance checks as its own.
 */
function instanceHeaders(ctx: Context): Record<string, string> {
  const headers: Record<string, string> = { Accept: PERFSONAR_JSON };
  const authorization = ctx.get('authorization');
  if (authorization !== '') headers.Authorization = authorization;
  return headers;
}

/**
 * `federate=true` on a lookup (rest-contract §13, docs/federation.md): the query run on each
 * instance the redirect names, concurrently, each asked for at most `skip + limit` of its own
 * sorted list and read as a stream; the lists merged k-way in their common order (the sort
 * keys, then `ts` and `id` descending: newest first), `skip` and `limit` applied to the merged list, and written out as
 * it goes, every element's bytes as its instance sent them (read and compared without being
 * decoded: array-bytes.ts, sort-key-bytes.ts). Memory holds one chunk per instance.
 *
 * `Federation-Partial` is decided at the first byte: the merge cannot start before every
 * instance has given its first element, ended, failed or run out of time, so every instance
 * that fails before the answer starts is named there. One that fails after (its list breaks
 * off, or a read waits past the budget) cannot be named in a header any more: the answer is
 * then cut off without its closing `]` (the connection is reset), so a client sees an error,
 * never a list silently missing elements.
 */
export function federate(options: FederateOptions) {
  return async (ctx: Context, kind: KindDescriptor, instances: readonly string[]): Promise<void> => {
    const query = parseQuery(ctx.querystring, options.maxParameters);
    const type = responseType(ctx);
    const path = `/${kind.collection}?${passedOn(ctx.querystring, query.limit, query.skip)}`;
    const headers = instanceHeaders(ctx);
    const lists = instances.map((instance) => new InstanceList({ instance, path, headers, timeoutMs: options.timeoutMs, sort: query.sort }));
    const outcomes = await Promise.allSettled(lists.map((list) => list.open()));
    const failed: InstanceFailure[] = [];
    outcomes.forEach((outcome) => {
      if (outcome.status === 'rejected') failed.push(outcome.reason as InstanceFailure);
    });
    const answering = lists.filter((_, i) => outcomes[i]!.status === 'fulfilled');
    ctx.status = 200;
    ctx.set('Content-Type', `${type}; charset=utf-8`);
    if (failed.length > 0) ctx.set('Federation-Partial', failed.map((f) => `${f.instance}; reason="${f.reason}"`).join(', '));
    if (ctx.method === 'HEAD') {
      for (const list of answering) list.cancel();
      // No Content-Length: the list's length is not known without merging it (as wire/json-array.ts).
      ctx.body = Readable.from([]);
      return;
    }
    // Readable.from asks the merge for its next chunk only when the socket has taken the last one.
    ctx.body = Readable.from(mergedArray(answering, keyOrder(query.sort), { skip: query.skip ?? 0, limit: query.limit }), { objectMode: false });
  };
}
