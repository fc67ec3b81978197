import type { RouterContext, RouterMiddleware } from '@koa/router';
import { authorize } from '../auth.js';
import { badRequest, notFound, type ErrorDetail } from '../http/errors.js';
import { readJsonBody } from '../wire/body.js';
import { chosenReading, readingsOf, selfRefSegment } from '../storage/id-segment.js';
import { QueryError } from '../query/errors.js';
import { parseQuery } from '../query/parse.js';
import { contentTypeHeader, requestProfile, responseType } from '../wire/media.js';
import { requireObject } from '../rest/request.js';
import type { Series } from '../storage/measurements/store.js';
import { dataAddress, pathSeries, plausibleMid, type MeasurementContext } from './context.js';

/** The largest cap a series may have (UNIS's BLiPP asks for 10,000,000). */
const MAX_COLLECTION_SIZE = 1_000_000_000;
const NUMBER = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Bounds on `ts` that `GET /events` counts within (`ts=gte=…`, `ts=lte=…`, also gt and lt). */
interface Range {
  gte?: number;
  lte?: number;
}

/**
 * The metadata ids a `metadata_URL` can name (its last two path segments are `metadata/<id>`),
 * in order of precedence, as a REST path names them (storage/id-segment.ts readingsOf).
 */
function metadataIdsOf(url: string): string[] | undefined {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const segments = path.split('/');
  const id = segments.at(-1);
  if (segments.at(-2) !== 'metadata' || id === undefined || id === '') return undefined;
  const readings = readingsOf(id).filter(plausibleMid);
  return readings.length === 0 ? undefined : readings;
}

/** What `POST /events` answers and `GET /events` lists for one series. */
function registrationBody(context: MeasurementContext, series: Series): Record<string, unknown> {
  return {
    id: series.mid,
    selfRef: `${context.representations.addresses.baseUrl}/events/${selfRefSegment(series.mid)}`,
    metadata_URL: series.metadataUrl,
    collection_size: series.collectionSize,
    ttl: series.ttl,
    ts: series.ts,
    data: dataAddress(context.representations, series.mid),
  };
}

/**
 * `POST /events {metadata_URL, collection_size, ttl}` (BLiPP's `ms_client.post_events`): register
 * the series of a metadata resource of this service, whose id becomes the series' mid. 201 with
 * `Location: {base}/data/<mid>`; a second POST for the same metadata changes the cap and ttl (200).
 */
export function registerSeries(context: MeasurementContext): RouterMiddleware {
  return async (ctx) => {
    authorize(ctx, 'create');
    requestProfile(ctx, { mergePatch: false });
    const type = responseType(ctx);
    const body = requireObject(await readJsonBody(ctx, context.limits), 'the body');
    const issues: ErrorDetail[] = [];
    const url = body.metadata_URL;
    const metadataIds = typeof url === 'string' ? metadataIdsOf(url) : undefined;
    if (typeof url !== 'string') issues.push({ path: '/metadata_URL', message: 'is required: the address of a metadata resource of this service' });
    else if (metadataIds === undefined) issues.push({ path: '/metadata_URL', message: 'must be the address of a metadata resource ({base}/metadata/<id>)' });
    const size = body.collection_size;
    if (!Number.isSafeInteger(size) || (size as number) < 1 || (size as number) > MAX_COLLECTION_SIZE) {
      issues.push({ path: '/collection_size', message: `is required: the most points the series keeps, an integer from 1 to ${MAX_COLLECTION_SIZE}` });
    }
    const ttl = body.ttl ?? 0;
    if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl < 0) issues.push({ path: '/ttl', message: 'must be a number of seconds a point lives, 0 for ever' });
    if (issues.length > 0) throw badRequest('the series registration failed validation', issues);

    const metadataId = await chosenReading(metadataIds!, (id) => context.store.known('metadata', id));
    const metadata = await context.store.current('metadata', metadataId);
    if (!metadata) throw badRequest('metadata_URL names no metadata resource of this service', [{ path: '/metadata_URL', message: `no metadata with id "${metadataId.slice(0, 200)}"` }]);
    const datumSchema = (JSON.parse(metadata.doc) as { parameters?: { datumSchema?: unknown } }).parameters?.datumSchema;
    const { series, created } = await context.measurements.register({
      mid: metadataId,
      metadataUrl: url as string,
      collectionSize: size as number,
      ttl: ttl as number,
      datumSchema: typeof datumSchema === 'string' ? datumSchema : null,
    });
    ctx.set('Location', dataAddress(context.representations, series.mid));
    ctx.set('Content-Type', contentTypeHeader(type, undefined));
    ctx.status = created ? 201 : 200;
    ctx.body = JSON.stringify(registrationBody(context, series));
  };
}

/** `ts=gte=…` and the like; every other condition is a 400 that names its parameter. */
function rangeAndMids(ctx: RouterContext, context: MeasurementContext): { readonly range: Range; readonly mids?: string[] } {
  const range: Range = {};
  let mids: string[] | undefined;
  const query = parseQuery(ctx.querystring, context.limits.queryParameters);
  // The past of series is not kept as versions (docs/time.md covers resources).
  if (query.at !== undefined || query.changes) throw new QueryError(query.at !== undefined ? 'at' : 'since', '/events takes mids=a,b and ts=gte=…/ts=lte=… (also gt, lt)');
  for (const condition of query.conditions) {
    const [term, ...others] = condition.terms;
    const field = term!.field.join('.');
    if (others.length > 0) throw new QueryError(term!.parameter, `"${term!.parameter}": no | alternatives here`);
    if (field === 'mids' && term!.operator === 'eq') {
      mids = [...(mids ?? []), ...term!.values.map((v) => String(v.value)).filter((v) => v !== '')];
    } else if (field === 'ts' && (term!.operator === 'gte' || term!.operator === 'gt' || term!.operator === 'lte' || term!.operator === 'lt')) {
      const text = String(term!.values[0]!.value);
      if (!NUMBER.test(text)) throw new QueryError(term!.parameter, `"${term!.parameter}": ts compares as a number; "${text.slice(0, 40)}" is not one`);
      const value = Number(text);
      // gt and lt as the nearest bounds a double can express.
      if (term!.operator === 'gte' || term!.operator === 'gt') range.gte = Math.max(range.gte ?? -Infinity, term!.operator === 'gt' ? nextUp(value) : value);
      else range.lte = Math.min(range.lte ?? Infinity, term!.operator === 'lt' ? nextDown(value) : value);
    } else {
      throw new QueryError(term!.parameter, `"${term!.parameter}": /events takes mids=a,b and ts=gte=…/ts=lte=… (also gt, lt)`);
    }
  }
  return { range, ...(mids !== undefined ? { mids } : {}) };
}

function nextUp(value: number): number {
  return value + Math.max(Number.MIN_VALUE, Math.abs(value) * Number.EPSILON);
}
function nextDown(value: number): number {
  return value - Math.max(Number.MIN_VALUE, Math.abs(value) * Number.EPSILON);
}

/** One series as `GET /events` describes it: UNIS's `mid`, `generic` and `queried`, and its live points' count, first and last `ts`. */
async function summaryBody(context: MeasurementContext, series: Series, range: Range): Promise<Record<string, unknown>> {
  const all = await context.measurements.summary(series, {});
  const ranged = range.gte === undefined && range.lte === undefined ? all : await context.measurements.summary(series, range);
  return {
    mid: series.mid,
    ...registrationBody(context, series),
    count: ranged.count,
    first: ranged.first,
    last: ranged.last,
    generic: { count: all.count, capped: 'Yes', max: series.collectionSize },
    queried: { ...(range.gte !== undefined ? { startTime: range.gte } : {}), ...(range.lte !== undefined ? { endTime: range.lte } : {}), numRecords: ranged.count },
  };
}

/**
 * `GET /events` (BLiPP: `/events?mids=<mid>` before it registers): every series, or those of
 * `mids`, each with its count of live points and its first and last `ts` (within `ts=gte=`,
 * `ts=lte=`). A mid with no series is left out, so BLiPP's empty answer means "register it".
 */
export function listSeries(context: MeasurementContext): RouterMiddleware {
  return async (ctx) => {
    authorize(ctx, 'read');
    const type = responseType(ctx);
    const { range, mids } = rangeAndMids(ctx, context);
    const found = await context.measurements.list(mids?.filter(plausibleMid));
    const bodies = [];
    for (const series of found) bodies.push(await summaryBody(context, series, range));
    ctx.set('Content-Type', contentTypeHeader(type, undefined));
    ctx.body = JSON.stringify(bodies);
  };
}

/** `GET /events/<mid>`: one series as `GET /events` lists it. */
export function readSeries(context: MeasurementContext): RouterMiddleware {
  return async (ctx) => {
    authorize(ctx, 'read');
    const type = responseType(ctx);
    const { range, mids } = rangeAndMids(ctx, context);
    if (mids !== undefined) throw badRequest('malformed query: mids lists series of /events, not of one', [{ path: 'mids', message: 'not here' }]);
    const series = await pathSeries(ctx, context.measurements);
    ctx.set('Content-Type', contentTypeHeader(type, undefined));
    ctx.body = JSON.stringify(await summaryBody(context, series, range));
  };
}

/** `DELETE /events/<mid>` and `DELETE /data/<mid>`: the series, its points and its registration. */
export function removeSeries(context: MeasurementContext): RouterMiddleware {
  return async (ctx) => {
    authorize(ctx, 'delete');
    const mid = ctx.params.mid!;
    if (!plausibleMid(mid) || !(await context.measurements.remove(mid))) throw notFound(`no measurement series "${mid.slice(0, 200)}"`);
    ctx.status = 204;
  };
}
