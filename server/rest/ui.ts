import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Router } from '@koa/router';
import { HttpError } from '../http/errors.js';
import { projectRoot } from '../paths.js';

/** The page's files as `npm run build` writes them (tools/build-ui.ts), with their media types. */
const FILES: Readonly<Record<string, string>> = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
  'layout.js': 'text/javascript; charset=utf-8',
};

/**
 * Everything from this server: the script, the layout worker's, its styles (Cytoscape.js sets element styles from
 * script), the event stream and the REST calls; nothing from anywhere else, and no framing.
 */
const POLICY = "default-src 'none'; script-src 'self'; worker-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

interface Asset {
  readonly type: string;
  readonly body: Buffer;
  readonly etag: string;
}

/**
 * `/ui`: a live picture of the topology (docs/ui.md), served from the assets the build made.
 * Each answer carries a strong ETag of its bytes, so a reload costs a 304. A server started
 * without a build of the page says so instead of serving nothing.
 */
export function mountUi(router: Router): void {
  const folder = path.join(projectRoot, 'dist/ui');
  const assets = new Map<string, Asset>();
  for (const [name, type] of Object.entries(FILES)) {
    const file = path.join(folder, name);
    if (!existsSync(file)) continue;
    const body = readFileSync(file);
    assets.set(name, { type, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` });
  }
  const serve = (name: string): Parameters<Router['get']>[1] => (ctx) => {
    const asset = assets.get(name);
    if (!asset) throw new HttpError(503, 'the page is not built: run npm run build', [{ path: ctx.path, message: `dist/ui/${name} is missing` }]);
    ctx.set('Content-Security-Policy', POLICY);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('ETag', asset.etag);
    ctx.type = asset.type;
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.body = asset.body;
  };
  router.get('/ui', serve('index.html'));
  router.get('/ui/app.js', serve('app.js'));
  router.get('/ui/app.css', serve('app.css'));
  router.get('/ui/layout.js', serve('layout.js'));
}
