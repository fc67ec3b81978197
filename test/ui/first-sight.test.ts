import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { postPicture, type PictureShape } from '../../bench/workloads/picture.js';
import { launchChromium, needChromium, openUi } from '../helpers/browser.js';
import { projectRoot, startServer, type RunningServer } from '../helpers/server.js';

const ARTIFACTS = path.join(projectRoot, 'test-artifacts');

/** What the first sight shows: the drawn nodes against the view, and what a zoom onto one shows. */
interface Sight {
  readonly nodes: number;
  /** The narrowest node, in screen pixels. */
  readonly narrowest: number;
  /** Nodes drawn (partly) outside the view. */
  readonly outside: number;
  /** Nodes whose name is drawn at the first zoom. */
  readonly named: number;
}

declare const topocat: { cy: any };

const sight = (page: Page): Promise<Sight> =>
  page.evaluate(() => {
    const cy = topocat.cy;
    const [width, height] = [cy.width(), cy.height()];
    let narrowest = Infinity, outside = 0, named = 0;
    for (const node of cy.nodes('[kind = "nodes"]').toArray()) {
      const box = node.renderedBoundingBox({ includeLabels: false });
      narrowest = Math.min(narrowest, box.w);
      if (box.x1 < 0 || box.y1 < 0 || box.x2 > width || box.y2 > height) outside++;
      // A name is drawn when there is one and it is large enough on screen (Cytoscape.js's min-zoomed-font-size).
      if (node.style('label') !== '' && node.pstyle('font-size').pfValue * cy.zoom() >= node.pstyle('min-zoomed-font-size').pfValue) named++;
    }
    return { nodes: cy.nodes('[kind = "nodes"]').length, narrowest, outside, named };
  });

/** Zoom to 1 around the first node: what a person zooming in on it sees. */
const zoomedIn = (page: Page): Promise<{ label: string; fontPixels: number; minimum: number }> =>
  page.evaluate(() => {
    const cy = topocat.cy;
    const node = cy.nodes('[kind = "nodes"]').first();
    cy.zoom({ level: 1, position: node.position() });
    return { label: node.style('label'), fontPixels: node.pstyle('font-size').pfValue * cy.zoom(), minimum: node.pstyle('min-zoomed-font-size').pfValue };
  });

/**
 * /ui of a large topology at first sight (issue 29), in headless Chromium: the whole picture fits
 * the view, every node is drawn large enough to be seen, names too small to read are not drawn,
 * and zooming in on a node shows its name.
 */
describe('/ui of a large topology, at first sight', function () {
  this.timeout(600_000);
  let browser: Browser;

  before(async function () {
    needChromium(this);
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  const cases: [string, { shape: PictureShape; pixels: number }][] = [
    // The picture: one network of 1,000 nodes in a ring (a faint ring of 1-pixel nodes before).
    ['1,000 nodes in one network', { shape: { domains: 1, networksPerDomain: 1, nodesPerNetwork: 1_000, portsPerNode: 4, paths: 1 }, pixels: 8 }],
    ['1,000 nodes in 20 networks of 4 domains', { shape: { domains: 4, networksPerDomain: 5, nodesPerNetwork: 50, portsPerNode: 4, paths: 1 }, pixels: 8 }],
    ['10,000 nodes in 100 networks of 10 domains', { shape: { domains: 10, networksPerDomain: 10, nodesPerNetwork: 100, portsPerNode: 4, paths: 1 }, pixels: 4 }],
  ];
  for (const [name, { shape, pixels }] of cases) {
    describe(name, () => {
      let server: RunningServer;
      let page: Page;
      before(async () => {
        server = await startServer();
        await postPicture(server.url, shape);
        page = await openUi(browser, server.url, { timeoutMs: 600_000 });
      });
      after(async () => {
        await page?.close();
        await server?.stop();
      });

      it(`fits the view with every node at least ${pixels} pixels wide, names too small to read not drawn`, async () => {
        const seen = await sight(page);
        assert.equal(seen.nodes, shape.domains * shape.networksPerDomain * shape.nodesPerNetwork);
        assert.equal(seen.outside, 0, 'every node inside the view');
        assert.ok(seen.narrowest >= pixels, `the narrowest node is ${seen.narrowest.toFixed(1)} pixels wide`);
        assert.equal(seen.named, 0, 'no name is drawn too small to read');
        await page.screenshot({ path: path.join(ARTIFACTS, `ui-first-sight-${seen.nodes}.png`) });
      });

      it('shows a node\'s name once zoomed in on it', async () => {
        const near = await zoomedIn(page);
        assert.match(near.label, /^router /);
        assert.ok(near.fontPixels >= near.minimum, `${near.fontPixels} px ≥ ${near.minimum} px`);
      });
    });
  }
});
