import type { RouterContext } from '@koa/router';
import type { Limits } from '../config.js';
import { notFound, type HttpError } from '../http/errors.js';
import type { Representations } from '../wire/representation.js';
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

/** Most characters of a mid: the metadata id it is (ids are at most 256). */
const MAX_MID = 256;

/** A mid that cannot exist (control characters, too long) is refused before storage sees it. */
export function plausibleMid(mid: unknown): mid is string {
  // eslint-disable-next-line no-control-regex -- control characters are what it looks for
  return typeof mid === 'string' && mid !== '' && mid.length <= MAX_MID && !/[\u0000-\u001f\u007f]/.test(mid);
}

/** The series of the path's `:mid`, or 404. */
export async function pathSeries(ctx: RouterContext, measurements: MeasurementStore): Promise<Series> {
  const series = await pathSeriesIfAny(ctx, measurements);
  if (!series) throw seriesNotFound(ctx);
  return series;
}

/** The series of the path's `:mid`, or undefined when none was registered. */
export async function pathSeriesIfAny(ctx: RouterContext, measurements: MeasurementStore): Promise<Series | undefined> {
  const mid = ctx.params.mid!;
  return plausibleMid(mid) ? measurements.series(mid) : undefined;
}

/** The 404 of a mid never registered: it says how to register one. */
export function seriesNotFound(ctx: RouterContext): HttpError {
  return notFound(`no measurement series "${ctx.params.mid!.slice(0, 200)}"; register it with POST /events`);
}

/** Where a series' points are: `{base}/data/<mid>`. */
export function dataAddress(representations: Representations, mid: string): string {
  return `${representations.addresses.baseUrl}/data/${encodeURIComponent(mid)}`;
}
