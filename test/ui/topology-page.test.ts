import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { picture, postPicture, type PictureShape } from '../../bench/workloads/picture.js';
import { hashToken } from '../../server/tokens.js';
import { launchChromium, needChromium, openUi } from '../helpers/browser.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { projectRoot, startServer, type RunningServer } from '../helpers/server.js';

/** Where the screenshots go (gitignored): CI keeps them as the tests' artifacts. */
const ARTIFACTS = path.join(projectRoot, 'test-artifacts');
const SHAPE: PictureShape = { domains: 2, networksPerDomain: 2, nodesPerNetwork: 3, portsPerNode: 2, paths: 1 };
const TOKEN = 'tc_ui-reader-00000000000000000000000000000000000';

const json = { 'content-type': 'application/json' };

/** What the page's graph holds, read through the page's own Cytoscape instance. */
interface Drawn {
  readonly kinds: Record<string, number>;
  readonly edges: number;
  readonly directed: number;
  readonly parents: Record<string, string | null>;
}

async function drawn(page: Page): Promise<Drawn> {
  return page.evaluate(() => {
    const cy = (globalThis as any).topocat.cy;
    const kinds: Record<string, number> = {};
    const parents: Record<string, string | null> = {};
    for (const node of cy.nodes().toArray()) {
      kinds[node.data('kind')] = (kinds[node.data('kind')] ?? 0) + 1;
      parents[node.id()] = node.parent().nonempty() ? node.parent().id() : null;
    }
    return { kinds, edges: cy.edges().length, directed: cy.edges('.directed').length, parents };
  });
}

/**
 * Wait until `predicate` holds for the page's graph (polled in the page; a function, since the
 * page's CSP forbids evaluating strings).
 */
const until = (page: Page, predicate: () => boolean): Promise<unknown> => page.waitForFunction(predicate, undefined, { timeout: 20_000 });
/** The page's Cytoscape instance, inside page functions. */
declare const topocat: { cy: any; lastEventId(): string | undefined };
declare const document: { querySelector(selector: string): { textContent: string | null } | null };

/** Click the node of `id` at a point where the picture shows the node itself (not a port, a link or a label). */
async function clickNode(page: Page, id: string): Promise<void> {
  const point = await page.evaluate((id) => {
    const cy = (globalThis as any).topocat.cy;
    const node = cy.getElementById(id);
    const box = node.boundingBox({ includeLabels: false });
    const container = cy.container().getBoundingClientRect();
    const pan = cy.pan();
    const zoom = cy.zoom();
    const edges = cy.edges().toArray().map((edge: any) => [edge.source().position(), edge.target().position()]);
    const distance = (p: { x: number; y: number }, a: { x: number; y: number }, b: { x: number; y: number }): number => {
      const dx = b.x - a.x;
      const dy = b.y - a.y;
      const t = Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy || 1)));
      return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
    };
    for (let fy = 0.1; fy <= 0.9; fy += 0.05) {
      for (let fx = 0.1; fx <= 0.9; fx += 0.05) {
        const x = box.x1 + box.w * fx;
        const y = box.y1 + box.h * fy;
        // What a tap there would select, as Cytoscape's renderer finds it, well away from every
        // link (a link drawn across the node would take a click near it).
        const clear = edges.every(([a, b]: { x: number; y: number }[]) => distance({ x, y }, a!, b!) * zoom > 15);
        if (clear && cy.renderer().findNearestElement(x, y, true, false)?.id() === id) return { x: container.left + pan.x + x * zoom, y: container.top + pan.y + y * zoom };
      }
    }
    throw new Error(`no point of ${id} shows the node alone`);
  }, id);
  await page.mouse.click(point.x, point.y);
}

/**
 * /ui in a real browser (headless Chromium, driven by playwright-core): the picture of a seeded
 * topology, details and history of a clicked node, the paths through it, the filter box, live
 * inserts, updates and deletes, a resume after a dropped connection, and tokens. Every request the
 * page makes goes to the server.
 */
describe('/ui, the topology picture, in a real browser', function () {
  this.timeout(120_000);
  let browser: Browser;
  let database: TestDatabase;
  let server: RunningServer;
  let page: Page;
  const requested: string[] = [];
  const errors: string[] = [];

  before(async function () {
    needChromium(this);
    mkdirSync(ARTIFACTS, { recursive: true });
    database = await createTestDatabase();
    [server, browser] = await Promise.all([startServer({ database }), launchChromium()]);
    await postPicture(server.url, SHAPE);
    // A second version of one node, for its history.
    const patched = await fetch(`${server.url}/nodes/d0-w0-n1`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ name: 'renamed router' }) });
    assert.equal(patched.status, 200);
    page = await openUi(browser, server.url, { errors, requests: requested });
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    await database?.drop();
  });

  it('draws the domains, networks, nodes with their ports, and the links (directed ones as arrows)', async () => {
    const seeded = picture(server.url, SHAPE);
    const graph = await drawn(page);
    assert.deepEqual(graph.kinds, { domains: 2, networks: 4, nodes: 12, ports: 24 });
    assert.equal(graph.edges, seeded.links!.length);
    assert.equal(graph.directed, seeded.links!.filter((link) => link.directed === true).length);
    assert.ok(graph.directed > 0 && graph.directed < graph.edges, 'both kinds of link are drawn');
    assert.equal(graph.parents['ports/d1-w0-n2-p1'], 'nodes/d1-w0-n2');
    assert.equal(graph.parents['nodes/d1-w0-n2'], 'networks/d1-w0');
    assert.equal(graph.parents['networks/d1-w0'], 'domains/d1');
    assert.equal(graph.parents['domains/d1'], null);
    assert.match((await page.textContent('#status'))!, /^live — 2 domains · 4 networks · 12 nodes · 24 ports · 12 links · 1 paths$/);
    await page.screenshot({ path: path.join(ARTIFACTS, 'ui.png') });
  });

  it('a click on a node shows its representation, its history newest first and the paths through it', async () => {
    await clickNode(page, 'nodes/d0-w0-n1');
    await page.waitForSelector('#details ol.history button');
    assert.match((await page.textContent('#details h2'))!, /node renamed router/);
    assert.equal(JSON.parse((await page.textContent('#details pre.representation'))!).id, 'd0-w0-n1');
    const versions = await page.locator('#details ol.history button').allTextContents();
    assert.equal(versions.length, 2);
    assert.match(versions[0]!, /\(newest\)$/);
    assert.deepEqual(await page.locator('#details ul.paths li').allTextContents(), ['path 0']);
    // The path's hops and the links between them are highlighted: 3 ports, 2 nodes, and the link
    // from n1's last port to n2's first (the path's other link ends at a port it does not name).
    const highlighted = await page.evaluate(() => (globalThis as any).topocat.cy.elements('.on-path').map((e: any) => e.id()).sort());
    assert.deepEqual(highlighted, ['links/link-d0-w0-n1', 'nodes/d0-w0-n1', 'nodes/d0-w0-n2', 'ports/d0-w0-n0-p1', 'ports/d0-w0-n1-p1', 'ports/d0-w0-n2-p0']);
    // The older version, on a click.
    await page.locator('#details ol.history button').nth(1).click();
    assert.equal(JSON.parse((await page.textContent('#details pre.representation'))!).name, 'router 0.0.1');
  });

  it('the filter box takes the REST query language; a bad query says what is wrong', async () => {
    await page.fill('#filter input', 'location.institution=institution-1');
    await page.press('#filter input', 'Enter');
    await until(page, () => document.querySelector('#filter-count')?.textContent === '6 nodes match');
    assert.equal(await page.evaluate(() => (globalThis as any).topocat.cy.nodes('.match').length), 6);
    assert.equal(await page.evaluate(() => (globalThis as any).topocat.cy.getElementById('nodes/d0-w0-n0').hasClass('faded')), true);

    await page.fill('#filter input', 'ts=gt=yesterday');
    await page.press('#filter input', 'Enter');
    await page.waitForSelector('#problem:not([hidden])');
    assert.match((await page.textContent('#problem'))!, /\(ts: /);

    await page.fill('#filter input', '');
    await page.press('#filter input', 'Enter');
    await until(page, () => topocat.cy.nodes('.faded, .match').length === 0);
  });

  it('inserts, updates and deletes written through the API appear without a reload', async () => {
    const port = await fetch(`${server.url}/ports`, { method: 'POST', headers: json, body: JSON.stringify({ id: 'live-p', name: 'live port' }) });
    assert.equal(port.status, 201);
    const node = await fetch(`${server.url}/nodes`, { method: 'POST', headers: json, body: JSON.stringify({ id: 'live-n', name: 'live node', ports: [{ href: `${server.url}/ports/live-p`, rel: 'full' }] }) });
    assert.equal(node.status, 201);
    await until(page, () => topocat.cy.getElementById('ports/live-p').parent().id() === 'nodes/live-n');
    const link = await fetch(`${server.url}/links`, { method: 'POST', headers: json, body: JSON.stringify({ id: 'live-l', directed: true, endpoints: { source: { href: `${server.url}/ports/live-p` }, sink: { href: `${server.url}/ports/d0-w0-n0-p0` } } }) });
    assert.equal(link.status, 201);
    await until(page, () => topocat.cy.getElementById('links/live-l').hasClass('directed'));

    const renamed = await fetch(`${server.url}/nodes/live-n`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ name: 'renamed live node' }) });
    assert.equal(renamed.status, 200);
    await until(page, () => topocat.cy.getElementById('nodes/live-n').data('label') === 'renamed live node');

    for (const address of ['links/live-l', 'nodes/live-n']) assert.equal((await fetch(`${server.url}/${address}`, { method: 'DELETE' })).status, 204);
    await until(page, () => topocat.cy.getElementById('nodes/live-n').empty() && topocat.cy.getElementById('links/live-l').empty());
    assert.match((await page.textContent('#status'))!, /12 nodes · 25 ports · 12 links/);
  });

  it('after a dropped connection it resumes with the last event id and misses nothing', async () => {
    const before = await page.evaluate(() => Number((globalThis as any).topocat.lastEventId()));
    // The server goes away; until the test has written, the page cannot reach the new one.
    const stream = /\/\?collections=/;
    await page.route(stream, (route) => route.abort());
    const port = new URL(server.url).port;
    await server.stop();
    await page.waitForSelector('body[data-status="reconnecting"]');
    server = await startServer({ database, env: { PORT: port } });
    const missed = await fetch(`${server.url}/nodes`, { method: 'POST', headers: json, body: JSON.stringify({ id: 'while-away', name: 'written while the page was away' }) });
    assert.equal(missed.status, 201);
    await page.unroute(stream);
    await until(page, () => !topocat.cy.getElementById('nodes/while-away').empty());
    await page.waitForSelector('body[data-status="live"]');
    const resumedFrom = await page.evaluate(() => Number((globalThis as any).topocat.lastEventId()));
    assert.ok(resumedFrom > before, `the last event id moved on: ${before} → ${resumedFrom}`);
  });

  it('loads nothing from outside the server and raises no script error', () => {
    assert.ok(requested.length > 3);
    assert.deepEqual(requested.filter((url) => !url.startsWith(server.url) && !url.startsWith('data:')), []);
    assert.deepEqual(errors, []);
  });

  describe('a large picture (over 1,500 nodes and ports)', () => {
    const LARGE: PictureShape = { domains: 1, networksPerDomain: 2, nodesPerNetwork: 170, portsPerNode: 4, paths: 1 };
    let large: RunningServer;
    let view: Page;
    before(async () => {
      large = await startServer();
      await postPicture(large.url, LARGE);
      view = await openUi(browser, large.url, { errors });
    });
    after(async () => {
      await view?.close();
      await large?.stop();
    });

    /**
     * Zoom in on a node, as a person does to see ports: seen from afar (the first, fitted view of
     * this picture) a large picture is drawn without its ports, which are added on the way in.
     */
    const zoomIn = (page: Page) =>
      page.evaluate(() => {
        topocat.cy.zoom({ level: 1, position: topocat.cy.getElementById('nodes/d0-w0-n7').position() });
      });

    /** How the page placed its picture, and where each port is against its node. */
    const placed = (page: Page) =>
      page.evaluate(() => {
        const cy = (globalThis as any).topocat.cy;
        const gaps: number[] = [];
        for (const port of cy.nodes('[kind = "ports"]').toArray()) {
          const node = cy.getElementById(port.data('node'));
          const a = port.position();
          const b = node.position();
          gaps.push(Math.hypot(a.x - b.x, a.y - b.y));
        }
        const nodes = cy.nodes('[kind = "nodes"]').map((n: any) => n.position());
        const spread = Math.max(...nodes.map((p: any) => p.x)) - Math.min(...nodes.map((p: any) => p.x));
        return { placement: (globalThis as any).topocat.placement(), gaps, spread, ports: cy.nodes('[kind = "ports"]').length, box: cy.getElementById('ports/d0-w1-n3-p2').data('box') };
      });

    it('is laid out on the worker, with every port on a ring beside its node, in its node\'s network', async () => {
      await zoomIn(view);
      const first = await placed(view);
      assert.equal(first.placement, 'worker');
      assert.equal(first.ports, 2 * 170 * 4);
      assert.ok(first.gaps.every((gap: number) => gap > 20 && gap < 40), `ports sit 20–40 units from their node: ${Math.min(...first.gaps)}–${Math.max(...first.gaps)}`);
      assert.ok(first.spread > 300, `the nodes are spread out, not piled up: ${first.spread}`);
      // In the box of its node's network (a large picture's boxes are flat, not compound nodes).
      assert.equal(first.box, 'networks/d0-w1');
      await view.screenshot({ path: path.join(ARTIFACTS, 'ui-large.png') });
    });

    it('a second visit draws from the positions kept from the first, without a layout', async () => {
      const before = await view.evaluate(() => (globalThis as any).topocat.cy.getElementById('nodes/d0-w0-n7').position());
      await view.reload();
      await view.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
      await zoomIn(view);
      const again = await placed(view);
      assert.equal(again.placement, 'kept');
      const after = await view.evaluate(() => (globalThis as any).topocat.cy.getElementById('nodes/d0-w0-n7').position());
      assert.deepEqual([Math.round(after.x), Math.round(after.y)], [Math.round(before.x), Math.round(before.y)]);
    });

    it('a port added through the API joins its node\'s ring without a new layout', async () => {
      const base = large.url;
      const port = await fetch(`${base}/ports`, { method: 'POST', headers: json, body: JSON.stringify({ id: 'd0-w0-n7-p9', name: 'p9' }) });
      assert.equal(port.status, 201);
      // Drawn alone first: the node lists it only afterwards (not in the same burst of events).
      await until(view, () => topocat.cy.getElementById('ports/d0-w0-n7-p9').nonempty());
      const node = await fetch(`${base}/nodes/d0-w0-n7`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ ports: [0, 1, 2, 3, 9].map((p) => ({ href: `${base}/ports/d0-w0-n7-p${p}`, rel: 'full' })) }) });
      assert.equal(node.status, 200);
      await until(view, () => topocat.cy.getElementById('ports/d0-w0-n7-p9').nonempty() && topocat.cy.getElementById('ports/d0-w0-n7-p9').data('node') === 'nodes/d0-w0-n7');
      const gaps = await view.evaluate(() => {
        const cy = (globalThis as any).topocat.cy;
        const center = cy.getElementById('nodes/d0-w0-n7').position();
        return cy.nodes('[kind = "ports"]').filter((p: any) => p.data('node') === 'nodes/d0-w0-n7').map((p: any) => Math.round(Math.hypot(p.position().x - center.x, p.position().y - center.y)));
      });
      assert.equal(gaps.length, 5);
      assert.equal(new Set(gaps).size, 1, `one ring: ${gaps.join(', ')}`);
      assert.equal(await view.evaluate(() => (globalThis as any).topocat.placement()), 'kept');
    });
  });

  describe('with tokens configured', () => {
    let guarded: RunningServer;
    before(async () => {
      const tokens = JSON.stringify({ tokens: [{ name: 'reader', hash: hashToken(TOKEN), scopes: ['read'] }] });
      guarded = await startServer({ env: { TOPOCAT_TOKENS: tokens } });
    });
    after(async () => {
      await guarded?.stop();
    });

    it('says a token is needed, says when one is refused, and draws once given one', async () => {
      const guest = await browser.newPage();
      await guest.goto(`${guarded.url}/ui`);
      await guest.waitForSelector('#token:not([hidden])');
      assert.match((await guest.textContent('#token .message'))!, /needs a token with the read scope/);
      assert.equal(await guest.getAttribute('body', 'data-status'), 'needs-token');

      await guest.fill('#token input', 'tc_not-a-token-of-this-service-000000000000000000');
      await guest.press('#token input', 'Enter');
      await until(guest, () => document.querySelector('#token .message')?.textContent?.startsWith('The token was refused') === true);

      await guest.fill('#token input', TOKEN);
      await guest.press('#token input', 'Enter');
      await guest.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
      assert.equal(await guest.getAttribute('body', 'data-status'), 'live');
      await guest.close();
    });
  });
});
