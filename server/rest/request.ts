import type { RouterContext } from '@koa/router';
import type { KindDescriptor } from '../../generated/rest/handler.js';
import type { Limits } from '../config.js';
import { HttpError, badRequest, notFound, type ErrorDetail } from '../http/errors.js';
import { PreconditionFailed, ResourceConflict, ResourceMissing, SeriesMissing } from '../storage/errors.js';
import { parseQuery } from '../query/parse.js';
import type { ParsedQuery, QueryScope } from '../query/syntax.js';
import { typeConditions } from '../query/typing.js';
import type { ResourceStore, Selection } from '../storage/resource-store.js';
import { readJsonBody } from '../wire/body.js';
import { resolveDerived } from './derived-query.js';
import { chosenReading, MAX_ID_BYTES } from '../storage/id-segment.js';
import { requestProfile } from '../wire/media.js';
import type { Representations } from '../wire/representation.js';

/** What every operation reads from the request, with the client's mistakes as HTTP errors. */

/** A request's query: what it says, and the selection of resources it makes for the kind. */
export interface RequestQuery {
  readonly query: ParsedQuery;
  readonly selection: Selection;
}

/**
 * The query of the request: parsed, conditions on derived members (`selfRef`, `$schema`)
 * resolved, typed by the kind's fields. A malformed one is a 400 that names the parameter.
 */
export function requestQuery(ctx: RouterContext, kind: KindDescriptor, scope: QueryScope, limits: Limits, representations: Representations, purpose: 'read' | 'stream' = 'read'): RequestQuery {
  // A QueryError is the 400 of the error table (http/error-handler.ts present).
  const query = resolveDerived(parseQuery(ctx.querystring, limits.queryParameters, scope), kind, representations);
  const { limit, skip, sort, unique, at } = query;
  const conditions = typeConditions(query.conditions, kind.fields, { collection: kind.collection, inMemory: purpose === 'stream' });
  return {
    query,
    selection: { conditions, sort, unique, ...(limit !== undefined ? { limit } : {}), ...(skip !== undefined ? { skip } : {}), ...(at !== undefined ? { at } : {}) },
  };
}

/** An event stream follows changes as they happen: `at`, `since` and `until` ask about the past (docs/time.md). */
export function pastNotFollowed(query: ParsedQuery): void {
  const parameter = query.at !== undefined ? 'at' : query.changes ? 'since' : undefined;
  if (parameter) throw badRequest(`malformed query: "${parameter}" reads the past; an event stream (Accept: text/event-stream) follows changes from now`, [{ path: parameter, message: 'not with an event stream' }]);
}

/**
 * The id the path names (rest-contract §3, revised 2026-11-29). The router decodes the segment;
 * a segment with a `%` is also read as sent (storage/id-segment.ts readingsOf): an id may hold `%`
 * (unisencoder's `VM-0%3Aif0`), and UNIS clients join ids into addresses unencoded, as `selfRef`
 * writes them. The reading as sent wins when that id was ever stored in the collection, else the
 * decoded one is meant. An id that cannot exist (control characters, too long: possibleId) is a
 * 404 before any database sees it.
 */
export async function pathId(ctx: RouterContext, kind: KindDescriptor, store: ResourceStore): Promise<string> {
  const readings = pathReadings(ctx).filter(possibleId);
  if (readings.length === 0) throw notFound(`no ${kind.name} with that id`);
  return readings.length === 1 ? readings[0]! : chosenReading(readings, (id) => store.known(kind.collection, id));
}

/** The readings of the path's `:id` (see readingsOf): the raw last segment, and the router's decoding of it. */
function pathReadings(ctx: RouterContext): string[] {
  const decoded = ctx.params.id!;
  // Koa's ctx.path is the request's path as sent; `:id` is its last segment (a trailing slash is accepted).
  const path = ctx.path.endsWith('/') ? ctx.path.slice(0, -1) : ctx.path;
  const raw = path.slice(path.lastIndexOf('/') + 1);
  return raw === decoded ? [raw] : [raw, decoded];
}

/** Whether a decoded path id may name a stored resource (pathId; the fast path, operations/hot-read.ts). */
export function possibleId(id: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are what it looks for
  return id !== '' && id.length <= MAX_ID_BYTES && !/[\u0000-\u001f\u007f]/.test(id) && (id.length * 3 <= MAX_ID_BYTES || Buffer.byteLength(id) <= MAX_ID_BYTES);
}

export function requireObject(value: unknown, what: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw badRequest(`${what} must be a JSON object`, [{ path: '', message: 'must be an object' }]);
  return value as Record<string, unknown>;
}

/** A `ts` the client sent, which a write must not replay (docs/rest-interface.md). */
export function clientTs(body: Record<string, unknown>): number | undefined {
  return typeof body.ts === 'number' && Number.isSafeInteger(body.ts) ? body.ts : undefined;
}

/**
 * The storage outcomes a client causes, as HTTP errors: the one place that maps them.
 * `pointer` places an error of the n-th stored item in the request body.
 */
export async function storageOutcome<T>(work: () => Promise<T>, pointer: (index: number | undefined) => string = () => ''): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ResourceMissing) throw notFound('no resource with that id');
    if (error instanceof PreconditionFailed) {
      const message = error.index === undefined ? 'If-Match does not match the newest representation' : `If-None-Match: * but ${error.message}`;
      throw new HttpError(412, message, error.index === undefined ? [] : [{ path: `${pointer(error.index)}/id`, message: error.message }]);
    }
    if (error instanceof ResourceConflict) throw new HttpError(409, error.message, [{ path: `${pointer(error.index)}/ts`, message: error.message }]);
    if (error instanceof SeriesMissing) throw new HttpError(404, error.message, error.index === undefined ? [] : [{ path: `${pointer(error.index)}/mid`, message: error.message }]);
    throw error;
  }
}

/**
 * Run a check of the addresses a request names; when it met a schema base this process does not
 * know and another process has recorded new bases since, run it once more with them.
 */
export async function withKnownBases<T extends { readonly unknownBase: boolean }>(representations: Representations, check: () => T): Promise<T> {
  const first = check();
  if (!first.unknownBase || !(await representations.addresses.refresh())) return first;
  return check();
}

/**
 * The JSON body of a write, its Content-Type checked first: a type the operation does not take
 * is a 415 before any byte of the body is read (rest-contract §2), never the 400 of a body that
 * is not JSON. `mergePatch`: PATCH, which also takes application/merge-patch+json.
 */
export async function readWriteBody(ctx: RouterContext, limits: Limits, mergePatch: boolean): Promise<unknown> {
  requestProfile(ctx, { mergePatch });
  return readJsonBody(ctx, limits);
}

/** The `profile` of the request's Content-Type, checked against the kind (415 for a bad type). */
export function profileProblem(ctx: RouterContext, kind: KindDescriptor, representations: Representations, mergePatch: boolean): { readonly issues: readonly ErrorDetail[]; readonly unknownBase: boolean } {
  const profile = requestProfile(ctx, { mergePatch });
  const problem = profile === undefined ? undefined : representations.schemaProblem(kind, profile, 'Content-Type');
  return problem ? { issues: [{ path: problem.path, message: `profile ${problem.message}` }], unknownBase: problem.unknownBase } : { issues: [], unknownBase: false };
}
