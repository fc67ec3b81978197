import type { RouterContext, RouterMiddleware } from '@koa/router';
import { authorize } from '../auth.js';
import { HttpError, badRequest, notFound, type ErrorDetail } from '../http/errors.js';
import { QueryError } from '../query/errors.js';
import { parseQuery } from '../query/parse.js';
import type { ParsedQuery } from '../query/syntax.js';
import { typeConditions } from '../query/typing.js';
import { readJsonBody } from '../wire/body.js';
import { contentTypeHeader, requestProfile, responseType, typedRequest } from '../wire/media.js';
import { storageOutcome } from '../rest/request.js';
import { streamArray } from '../wire/json-array.js';
import { NEWEST_MAX, PAGE_MAX, type PointBatch, type Series } from '../storage/measurements/store.js';
import { followStream, wantsEventStream } from '../subscriptions/event-stream.js';
import { checkPoints, datumRule } from './datum.js';
import { pathSeries, pathSeriesIfAny, plausibleMid, seriesNotFound, type MeasurementContext } from './context.js';
import { dataKind } from './kind.js';

/** Points in one answer unless `limit` says otherwise (UNIS answered 10⁹; dlt-web asks for 300). */
export const DEFAULT_PAGE = 1_000;
/** What a query on points may name. */
const POINT_FIELDS = new Set(['ts', 'value']);

/** One `{mid, data}` of a request body, where it is, and its points once checked. */
interface Posted {
  readonly pointer: string;
  readonly mid: string;
  readonly data: unknown;
}

/**
 * The batches of a `POST /data` or `POST /data/<mid>` body: `[{mid, data}, …]` or one
 * `{mid, data}`, UNIS's forms (rest-contract §14); under `/data/<mid>` each `mid` may be left
 * out, and one that names another series is a 400 naming it (`/0/mid`).
 */
function postedBatches(body: unknown, pathMid: string | undefined, issues: ErrorDetail[]): Posted[] {
  const many = Array.isArray(body);
  const items: unknown[] = many ? (body as unknown[]) : [body];
  const posted: Posted[] = [];
  items.forEach((item, i) => {
    const pointer = many ? `/${i}` : '';
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      issues.push({ path: pointer, message: pathMid === undefined ? 'must be an object {mid, data}' : 'must be an object {data}' });
      return;
    }
    const { mid, data } = item as { mid?: unknown; data?: unknown };
    if (pathMid !== undefined && mid !== undefined && mid !== pathMid) issues.push({ path: `${pointer}/mid`, message: 'differs from the mid of the address' });
    const chosen = pathMid ?? mid;
    if (!plausibleMid(chosen)) {
      issues.push({ path: `${pointer}/mid`, message: 'is required: the mid of a registered series (a string)' });
      return;
    }
    if (data === undefined) {
      issues.push({ path: `${pointer}/data`, message: 'is required: an array of data points' });
      return;
    }
    posted.push({ pointer, mid: chosen, data });
  });
  return posted;
}

/**
 * `POST /data [{mid, data: [{ts, value}, …]}, …]` (BLiPP's `ms_client.post_data`) and
 * `POST /data/<mid> {"data": [...]}` (or `{mid, data}`, or an array of them: UNIS's forms):
 * append points to registered series, all or nothing. Each
 * point is checked against the `datumSchema` of the series' metadata (datum.ts); a mid with no
 * series is a 404 that names it. A point whose (mid, ts) is stored already is ignored, so a
 * client may re-send a batch it is unsure of. 201 with what was stored per series.
 */
export function appendData(context: MeasurementContext): RouterMiddleware {
  return async (ctx) => {
    authorize(ctx, 'create');
    requestProfile(ctx, { mergePatch: false });
    const type = responseType(ctx);
    const pathMid = ctx.params.mid;
    if (pathMid !== undefined && !plausibleMid(pathMid)) throw notFound('no measurement series with that mid');
    const body = await readJsonBody(ctx, context.limits);
    const issues: ErrorDetail[] = [];
    if (Array.isArray(body) && body.length > context.limits.arrayItems) throw new HttpError(413, `array of ${body.length} batches; at most ${context.limits.arrayItems} are accepted`);
    const posted = postedBatches(body, pathMid, issues);
    const total = posted.reduce((sum, p) => sum + (Array.isArray(p.data) ? p.data.length : 0), 0);
    if (total > context.limits.arrayItems) throw new HttpError(413, `${total} data points; at most ${context.limits.arrayItems} are accepted in one request`);

    const series = new Map<string, Series | undefined>();
    for (const { mid } of posted) if (!series.has(mid)) series.set(mid, await context.measurements.series(mid));
    const missing = posted.filter((p) => !series.get(p.mid));
    if (missing.length > 0) {
      throw new HttpError(404, `no measurement series "${missing[0]!.mid.slice(0, 200)}"; register it with POST /events`, pathMid === undefined ? missing.map((p) => ({ path: `${p.pointer}/mid`, message: 'no series with this mid' })) : []);
    }
    const isSchemaBase = (base: string) => context.representations.addresses.isSchemaBase(base);
    const batches: PointBatch[] = posted.map((p) => ({ mid: p.mid, points: checkPoints(p.data, `${p.pointer}/data`, datumRule(series.get(p.mid)!.datumSchema, isSchemaBase), issues) }));
    if (issues.length > 0) throw badRequest('data points failed validation', issues);

    const appended = await storageOutcome(
      () => context.measurements.append(batches),
      (index) => posted[index ?? 0]?.pointer ?? '',
    );
    ctx.set('Content-Type', contentTypeHeader(type, undefined));
    ctx.status = 201;
    ctx.body = JSON.stringify({ stored: appended.reduce((sum, a) => sum + a.stored, 0), series: appended });
  };
}

/** The query of a points read: conditions on `ts` and `value` only, the query language otherwise. */
function pointQuery(ctx: RouterContext, context: MeasurementContext): ParsedQuery {
  const query = parseQuery(ctx.querystring, context.limits.queryParameters);
  for (const condition of query.conditions) {
    for (const term of condition.terms) {
      if (!POINT_FIELDS.has(term.field[0]!)) throw new QueryError(term.parameter, `"${term.parameter}": data points are queried by ts and value`);
    }
  }
  for (const key of query.sort) if (!POINT_FIELDS.has(key.field[0]!)) throw new QueryError('sort', '"sort": data points sort by ts or value');
  if (query.fields) throw new QueryError('fields', '"fields": data points are answered whole');
  if (query.unique || query.expand) throw new QueryError(query.unique ? 'unique' : 'expand', 'data points have no versions and no references');
  if (query.at !== undefined || query.changes) throw new QueryError(query.at !== undefined ? 'at' : 'since', 'data points have no versions to read as of an instant: ask for ts=lte=…');
  return query;
}

/**
 * `GET /data/<mid>` (dlt-web: `?limit=300`, `?limit=1`): the live points of a series that the
 * query selects, newest first unless `sort` says otherwise, at most `limit` (default 1,000); in
 * UNIS form (see typedRequest) without `sort`, those newest points oldest first, as UNIS ordered them.
 * With `Accept: text/event-stream`: the points of every later append, as they are committed
 * (`{"<mid>": [points]}` per append), resumable with `Last-Event-ID`.
 */
export function readData(context: MeasurementContext): RouterMiddleware {
  return async (ctx) => {
    authorize(ctx, 'read');
    if (wantsEventStream(ctx)) {
      const query = pointQuery(ctx, context);
      if (query.conditions.length > 0) throw badRequest('malformed query: the event stream of a series sends every appended point', [{ path: query.conditions[0]!.terms[0]!.parameter, message: 'no conditions on an event stream of data' }]);
      const series = await pathSeries(ctx, context.measurements);
      return followStream(ctx, dataKind, series.mid, query, [], context.events);
    }
    const type = responseType(ctx);
    const query = pointQuery(ctx, context);
    const series = await pathSeriesIfAny(ctx, context.measurements);
    if (!series) {
      // A mid never registered (rest-contract §14, revised 2026-11-29): UNIS HEAD's `200 []` in
      // UNIS form; typed requests get the 404 that says how to register it.
      if (typedRequest(ctx.get('accept'))) throw seriesNotFound(ctx);
      ctx.set('Content-Type', contentTypeHeader(type, undefined));
      ctx.body = ctx.method === 'HEAD' ? '' : '[]';
      return;
    }
    const conditions = typeConditions(query.conditions, dataKind.fields, { integralTs: false });
    // In UNIS form without `sort`, the newest points oldest first (rest-contract §14): UNIS
    // answered every point in insertion order, and clients take the last element as the newest.
    const oldestFirst = query.sort.length === 0 && !typedRequest(ctx.get('accept'));
    const selection = { conditions, sort: query.sort, limit: query.limit ?? DEFAULT_PAGE, oldestFirst, ...(query.skip !== undefined ? { skip: query.skip } : {}) };
    if (conditions.length === 0 && query.sort.length === 0 && query.skip === undefined && selection.limit <= NEWEST_MAX) {
      const body = await context.measurements.newest(series, selection.limit, oldestFirst);
      ctx.set('Content-Type', contentTypeHeader(type, undefined));
      ctx.body = ctx.method === 'HEAD' ? '' : body;
      return;
    }
    if (selection.limit <= PAGE_MAX) {
      // A page is one aggregate's text: one row from the database, nothing parsed or joined here.
      const body = await context.measurements.page(series, selection);
      ctx.set('Content-Type', contentTypeHeader(type, undefined));
      ctx.body = ctx.method === 'HEAD' ? '' : body;
      return;
    }
    await streamArray(ctx, context.measurements.points(series, selection), (point) => point, () => {
      ctx.set('Content-Type', contentTypeHeader(type, undefined));
      ctx.status = 200;
    });
  };
}
