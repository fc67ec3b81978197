import type { Router } from '@koa/router';
import { authorize } from '../auth.js';

/** `GET /metrics`: the Prometheus text format; with tokens, only for credentials with the `metrics` scope. */
export function mountMetrics(router: Router, scrape: () => Promise<{ text: string; contentType: string }>): void {
  router.get('/metrics', async (ctx) => {
    authorize(ctx, 'metrics');
    const { text, contentType } = await scrape();
    ctx.set('Cache-Control', 'no-store');
    ctx.type = contentType;
    ctx.body = text;
  });
}
