import type { RouterContext } from '@koa/router';
import type { Limits } from '../config.js';
import { notFound, type HttpError } from '../http/errors.js';
import { selfRefSegment } from '../storage/id-segment.js';
import type { Representations } from '../wire/representation.js';
import { possibleId } from '../rest/request.js';
import type { MeasurementStore, Series } from '../storage/measurements/store.js';
import type { ResourceStore } from '../storage/resource-store.js';
import type { EventStreamOptions } from '../subscriptions/event-stream.js';

/** What the measurement store's operations share. */
export interface MeasurementContext {
  readonly measurements: MeasurementStore;
  /** Where the metadata a series belongs to is looked up. */
  readonly store: ResourceStore;
  readonly representations: Representations;
  readonly limits: Limits;
  /** Where `Accept: text/event-stream` reads of a series go. */
  readonly events: EventStreamOptions;
}

/** A mid that cannot exist (control characters, too long: a mid is the metadata id it is) is refused before storage sees it. */
export function plausibleMid(mid: unknown): mid is string {
  return typeof mid === 'string' && possibleId(mid);
}

/** The series of the path's `:mid`, or 404. */
export async function pathSeries(ctx: RouterContext, measurements: MeasurementStore): Promise<Series> {
  const series = await pathSeriesIfAny(ctx, measurements);
  if (!series) throw seriesNotFound(ctx);
  return series;
}

/**
 * The series of the path's `:mid`, or undefined when none was registered. The mid is read as a
 * REST path's id is (rest/request.ts pathId): a segment with a `%` as sent when a series has it,
 * else decoded.
 */
export async function pathSeriesIfAny(ctx: RouterContext, measurements: MeasurementStore): Promise<Series | undefined> {
  const path = ctx.path.endsWith('/') ? ctx.path.slice(0, -1) : ctx.path;
  const raw = path.slice(path.lastIndexOf('/') + 1);
  const readings = (raw === ctx.params.mid ? [raw] : [raw, ctx.params.mid!]).filter(plausibleMid);
  for (const mid of readings) {
    const series = await measurements.series(mid);
    if (series) return series;
  }
  return undefined;
}

/** The 404 of a mid never registered: it says how to register one. */
export function seriesNotFound(ctx: RouterContext): HttpError {
  return notFound(`no measurement series "${ctx.params.mid!.slice(0, 200)}"; register it with POST /events`);
}

/** Where a series' points are: `{base}/data/<mid>`. */
export function dataAddress(representations: Representations, mid: string): string {
  return `${representations.addresses.baseUrl}/data/${selfRefSegment(mid)}`;
}
