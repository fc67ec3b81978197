import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { hashToken } from '../../server/tokens.js';
import { launchChromium, needChromium } from '../helpers/browser.js';
import { startServer, type RunningServer } from '../helpers/server.js';

const TOKEN = 'tc_page-secret-0000000000000000000000000000000000';

/**
 * The service as a person in a browser meets it: `/docs` renders the API reference from the
 * installed package with nothing fetched from elsewhere, `GET /` links to it, and a page on
 * another origin listed in CORS_ORIGINS uses the REST interface with a token and conditional writes.
 */
describe('in a real browser (headless Chromium)', function () {
  this.timeout(120_000);
  let browser: Browser;
  let server: RunningServer;
  let app: Server;
  let appOrigin: string;

  before(async function () {
    needChromium(this);
    // A page of another origin: a static server on a port of its own.
    app = createServer((_request, response) => {
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end('<!doctype html><title>app</title><p>app</p>');
    });
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    appOrigin = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
    const tokens = JSON.stringify({ tokens: [{ name: 'page', hash: hashToken(TOKEN), scopes: ['read', 'create', 'update'] }] });
    [server, browser] = await Promise.all([startServer({ env: { CORS_ORIGINS: appOrigin, TOPOCAT_TOKENS: tokens } }), launchChromium()]);
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    app?.close();
  });

  it('/docs renders every collection\'s operations, loading nothing from elsewhere', async () => {
    const page = await browser.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${server.url}/docs`);
    await page.waitForSelector('.opblock', { timeout: 30_000 });
    const operations = await page.locator('.opblock-summary-operation-id').allTextContents();
    for (const id of ['listNodes', 'createPort', 'patchLink', 'deleteTopology', 'getMeasurement', 'listCollections']) assert.ok(operations.includes(id), `${id} among ${operations.length} operations`);
    assert.ok(operations.length >= 100, `${operations.length} operations rendered`);
    assert.match(await page.title(), /topocat API reference/);
    assert.equal(await page.getByText('Warning', { exact: true }).count(), 0, 'Swagger UI has no complaint about the description');
    assert.deepEqual(requested.filter((url) => !url.startsWith(server.url) && !url.startsWith('data:')), [], 'every request goes to the server');
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('GET / in a browser is a page that links the reference', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/`);
    assert.ok((await page.locator('a[href$="/nodes"]').count()) === 1, 'links each collection');
    await page.click('text=API reference');
    await page.waitForSelector('.opblock', { timeout: 30_000 });
    assert.equal(new URL(page.url()).pathname, '/docs');
    await page.close();
  });

  it('a page of a CORS_ORIGINS origin creates, reads and conditionally patches with a token', async () => {
    const page = await browser.newPage();
    await page.goto(appOrigin);
    const outcome = await page.evaluate(
      async ({ base, token }) => {
        const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
        const created = await fetch(`${base}/nodes`, { method: 'POST', headers, body: JSON.stringify({ name: 'from a page' }) });
        const node = (await created.json()) as { id: string };
        const etag = created.headers.get('etag') ?? '';
        const patched = await fetch(`${base}/nodes/${node.id}`, { method: 'PATCH', headers: { ...headers, 'content-type': 'application/merge-patch+json', 'if-match': etag }, body: JSON.stringify({ description: 'patched' }) });
        const stale = await fetch(`${base}/nodes/${node.id}`, { method: 'PATCH', headers: { ...headers, 'content-type': 'application/merge-patch+json', 'if-match': etag }, body: JSON.stringify({ description: 'lost' }) });
        const anonymous = await fetch(`${base}/nodes`);
        return { created: created.status, etag, location: created.headers.get('location'), patched: patched.status, stale: stale.status, staleBody: (await stale.json()) as { error: { status: number } }, anonymous: anonymous.status };
      },
      { base: server.url, token: TOKEN },
    );
    assert.equal(outcome.created, 201);
    assert.match(outcome.etag, /^"\d+"$/, 'the page reads the ETag');
    assert.ok(outcome.location?.startsWith(server.url), 'and the Location');
    assert.equal(outcome.patched, 200);
    assert.equal(outcome.stale, 412);
    assert.equal(outcome.staleBody.error.status, 412, 'and the error body');
    assert.equal(outcome.anonymous, 401);
    await page.close();
  });

  it('a page of a CORS_ORIGINS origin follows changes with EventSource', async () => {
    const page = await browser.newPage();
    await page.goto(appOrigin);
    const received = await page.evaluate(
      async ({ base, token }) => {
        const source = new EventSource(`${base}/nodes?name=streamed&access_token=${token}`);
        const first = new Promise<{ type: string; data: string }>((resolve, reject) => {
          source.addEventListener('POST', (event) => resolve({ type: event.type, data: String((event as unknown as { data: unknown }).data) }));
          setTimeout(() => reject(new Error('no event within 10 s')), 10_000);
        });
        await new Promise((resolve) => source.addEventListener('open', resolve));
        await fetch(`${base}/nodes`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'streamed' }) });
        const event = await first;
        source.close();
        return event;
      },
      { base: server.url, token: TOKEN },
    );
    assert.equal(received.type, 'POST');
    assert.equal((JSON.parse(received.data) as { name: string }).name, 'streamed');
    await page.close();
  });

  it('a page of an origin not listed cannot read the answers', async () => {
    const page = await browser.newPage();
    // The same page under another name is another origin, not in CORS_ORIGINS.
    await page.goto(appOrigin.replace('127.0.0.1', 'localhost'));
    const result = await page.evaluate(async (url) => fetch(`${url}/health`).then(() => 'read', () => 'blocked'), server.url);
    assert.equal(result, 'blocked');
    await page.close();
  });
});
