import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Router } from '@koa/router';

/** The files of swagger-ui-dist the page needs, with their media types. */
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/**
 * Scripts and styles only from this server (Swagger UI sets inline styles on its elements);
 * nothing is fetched from anywhere else, and the page may not be framed.
 */
const POLICY = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'";

/** Addresses are relative, so the page works behind a proxy that serves the service under a path prefix. */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>topocat API reference</title>
<link rel="icon" href="docs/favicon-32x32.png">
<link rel="stylesheet" href="docs/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="docs/swagger-ui-bundle.js"></script>
<script src="docs/start.js"></script>
</body>
</html>
`;

/** Swagger UI on the served description; no validator badge (it would call a public service). */
const START = `SwaggerUIBundle({ url: 'openapi.json', dom_id: '#reference', validatorUrl: null, deepLinking: true, tryItOutEnabled: false, displayOperationId: true });
`;

/**
 * `/docs`: an interactive reference of `openapi.json` (Swagger UI, served from the installed
 * swagger-ui-dist package; the page loads nothing from the network).
 */
export function mountDocs(router: Router): void {
  const dist = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const assets = new Map(Object.entries(ASSETS).map(([name, type]) => [name, { type, body: readFileSync(path.join(dist, name)) }]));
  router.get('/docs', (ctx) => {
    ctx.set('Content-Security-Policy', POLICY);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = PAGE;
  });
  router.get('/docs/start.js', (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = START;
  });
  router.get('/docs/:asset', (ctx) => {
    const asset = assets.get(ctx.params.asset!);
    if (!asset) return;
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.type = asset.type;
    ctx.body = asset.body;
  });
}

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** `GET /` for a browser: the collections as links, and the way to the reference and the description. */
export function homePage(collections: readonly { href: string; schema: string }[]): string {
  const items = collections.map((c) => `<li><a href="${escapeHtml(c.href)}">${escapeHtml(c.href)}</a> (<a href="${escapeHtml(c.schema)}">schema</a>)</li>`).join('\n');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>topocat</title></head>
<body>
<h1>topocat</h1>
<p><a href="ui">Topology picture</a> · <a href="docs">API reference</a> · <a href="openapi.json">openapi.json</a></p>
<h2>Collections</h2>
<ul>
${items}
</ul>
</body>
</html>
`;
}
