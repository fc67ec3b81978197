import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { postPicture, type PictureShape } from '../../bench/workloads/picture.js';
import { launchChromium, needChromium, openUi } from '../helpers/browser.js';
import { registrationOf } from '../helpers/federation.js';
import { projectRoot, startServer, type RunningServer } from '../helpers/server.js';

const ARTIFACTS = path.join(projectRoot, 'test-artifacts');
/** Two sites of different shapes; both use the same ids (d0-w0-n0, …), as independent instances may. */
const SITES: readonly PictureShape[] = [
  { domains: 1, networksPerDomain: 2, nodesPerNetwork: 3, portsPerNode: 2, paths: 1 },
  { domains: 1, networksPerDomain: 1, nodesPerNetwork: 4, portsPerNode: 2, paths: 0 },
];

/** What the page drew for each instance: its nodes, their colour, its box's label, and its legend entry's colour. */
interface Drawn {
  readonly accessPoint: string;
  readonly nodes: number;
  readonly ports: number;
  readonly nodeColours: string[];
  readonly box: string;
  readonly legend: string;
}

/** The page's document, inside page functions. */
declare const document: { querySelectorAll(selector: string): Iterable<{ dataset: Record<string, string | undefined>; querySelector(selector: string): unknown }> };
declare function getComputedStyle(element: unknown): { backgroundColor: string };

async function drawnBy(page: Page): Promise<Drawn[]> {
  return page.evaluate(() => {
    const cy = (globalThis as any).topocat.cy;
    return [...document.querySelectorAll('#instances li')].map((item) => {
      const accessPoint = item.dataset.accessPoint!;
      const mine = cy.nodes().filter((n: any) => n.data('instance') === accessPoint);
      const box = mine.filter('[kind = "instances"]');
      return {
        accessPoint,
        nodes: mine.filter('[kind = "nodes"]').length,
        ports: mine.filter('[kind = "ports"]').length,
        nodeColours: [...new Set<string>(mine.filter('[kind = "nodes"]').map((n: any) => n.style('background-color')))],
        box: box.length === 1 ? box.data('label') : `${box.length} boxes`,
        legend: getComputedStyle(item.querySelector('i')).backgroundColor.replace(/\s/g, ''),
      };
    });
  });
}

/**
 * /ui of a lookup (rest-contract §13, docs/federation.md): a real lookup and two real instances
 * that register with it, and the page in headless Chromium drawing every instance's topology,
 * each in its own colour, with a legend naming the instances' accessPoints.
 */
describe('/ui of a lookup: every instance\'s topology, each in its colour', function () {
  this.timeout(120_000);
  let browser: Browser;
  let lookup: RunningServer;
  let sites: RunningServer[] = [];
  let page: Page;
  const errors: string[] = [];

  before(async function () {
    needChromium(this);
    mkdirSync(ARTIFACTS, { recursive: true });
    [lookup, browser] = await Promise.all([startServer({ env: { LOOKUP: 'true', FEDERATE_TIMEOUT_MS: '20000' } }), launchChromium()]);
    // Reports every 3 s: their ttl (twice the period) outlives a slow page load on a busy machine,
    // as the lookup's 20 s for each instance's answer (a failed one would be named in its box's label).
    const env = { REGISTER_URLS: lookup.url, REGISTER_INTERVAL_MS: '3000' };
    sites = await Promise.all(SITES.map(() => startServer({ env })));
    await Promise.all(sites.map((site, i) => postPicture(site.url, SITES[i]!)));
    // Registered with the manifests of what was posted (each report after the posts carries them).
    for (const site of sites) await registrationOf(lookup, site.url, (r) => r.properties.summary.some((m) => m.$collection === 'links'));
    page = await openUi(browser, lookup.url, { errors });
  });
  after(async () => {
    await browser?.close();
    await Promise.all(sites.map((site) => site.stop()));
    await lookup?.stop();
  });

  it('draws each instance\'s nodes and ports in a box of its own colour, named in the legend by its accessPoint', async () => {
    const drawn = await drawnBy(page);
    assert.deepEqual(drawn.map((d) => d.accessPoint), sites.map((site) => site.url).sort());
    for (const instance of drawn) {
      const shape = SITES[sites.findIndex((site) => site.url === instance.accessPoint)]!;
      const nodes = shape.domains * shape.networksPerDomain * shape.nodesPerNetwork;
      assert.equal(instance.nodes, nodes, `${instance.accessPoint}: every node drawn`);
      assert.equal(instance.ports, nodes * shape.portsPerNode, `${instance.accessPoint}: every port drawn`);
      assert.deepEqual(instance.nodeColours, [instance.legend], `${instance.accessPoint}: its nodes in its legend's colour`);
      assert.equal(instance.box, instance.accessPoint);
    }
    assert.notEqual(drawn[0]!.legend, drawn[1]!.legend, 'two colours');
    assert.match((await page.textContent('#status'))!, /^every instance of this lookup, as read — 2 instances · 2 domains · 3 networks · 10 nodes · 20 ports/);
    await page.screenshot({ path: path.join(ARTIFACTS, 'ui-federated.png') });
  });

  it('a click shows the element as its instance answered it', async () => {
    const id = await page.evaluate(() => (globalThis as any).topocat.cy.nodes('[kind = "nodes"]').last().id());
    await page.evaluate((element) => (globalThis as any).topocat.select(element), id);
    await page.waitForSelector('#details pre.representation');
    const representation = JSON.parse((await page.textContent('#details pre.representation'))!);
    assert.equal(`${representation.selfRef}`.startsWith(await page.evaluate((element) => (globalThis as any).topocat.cy.getElementById(element).data('instance'), id)), true);
  });

  it('raises no script error', () => {
    assert.deepEqual(errors, []);
  });
});
