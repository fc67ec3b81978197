import type { Router } from '@koa/router';
import { appendData, readData } from './data.js';
import type { MeasurementContext } from './context.js';
import { listSeries, readSeries, registerSeries, removeSeries } from './events.js';

export type { MeasurementContext } from './context.js';

/**
 * UNIS's measurement store (docs/measurements.md) on the REST router, two collections the server
 * owns (server/collections.ts): `/events` registers and describes series, `/data` takes and
 * answers their points. Each operation checks the scope of its method (read, create, delete),
 * like the collections'.
 */
export function mountSeries(router: Router, context: MeasurementContext): void {
  router.post('/events', registerSeries(context));
  router.get('/events', listSeries(context));
  router.get('/events/:mid', readSeries(context));
  router.delete('/events/:mid', removeSeries(context));
}

/** `/data`: the points of the series (see mountSeries). */
export function mountData(router: Router, context: MeasurementContext): void {
  router.post('/data', appendData(context));
  router.post('/data/:mid', appendData(context));
  router.get('/data/:mid', readData(context));
  router.delete('/data/:mid', removeSeries(context));
}
