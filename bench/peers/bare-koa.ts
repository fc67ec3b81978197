/**
 * The ceiling for REST reads: a bare Koa app with one route that answers every GET of a node
 * with the same JSON from memory. No logging, no auth, no database: what Koa itself costs.
 *
 *   PORT, PEER_BODY_FILE (the JSON to serve), PEER_CONTENT_TYPE
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import Koa from 'koa';
import { Router } from '@koa/router';

const body = readFileSync(process.env.PEER_BODY_FILE!, 'utf8');
const contentType = process.env.PEER_CONTENT_TYPE ?? 'application/json';

const app = new Koa();
const router = new Router();
router.get('/nodes/:id', (ctx) => {
  ctx.set('Content-Type', contentType);
  ctx.body = body;
});
app.use(router.routes());

const server = createServer(app.callback());
server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
