import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { postPicture, type PictureShape } from '../../bench/workloads/picture.js';
import { launchChromium, needChromium, openUi } from '../helpers/browser.js';
import { projectRoot, startServer, type RunningServer } from '../helpers/server.js';

/** Where the screenshots go (gitignored): CI keeps them as the tests' artifacts. */
const ARTIFACTS = path.join(projectRoot, 'test-artifacts');
const SHAPE: PictureShape = { domains: 1, networksPerDomain: 2, nodesPerNetwork: 3, portsPerNode: 2, paths: 1 };

declare const document: { body: { dataset: Record<string, string | undefined> }; querySelector(selector: string): { value: string; dispatchEvent(event: unknown): boolean } | null };
declare const Event: new (type: string) => unknown;

/** The page's graph: node positions, labels, and the marks of the comparison, by element id. */
interface Picture {
  readonly positions: Record<string, { x: number; y: number }>;
  readonly labels: Record<string, string>;
  readonly marks: Record<string, string>;
  readonly ids: string[];
}

async function picture(page: Page): Promise<Picture> {
  return page.evaluate(() => {
    const cy = (globalThis as any).topocat.cy;
    const positions: Record<string, { x: number; y: number }> = {};
    const labels: Record<string, string> = {};
    const marks: Record<string, string> = {};
    for (const element of cy.elements().toArray()) {
      if (element.isNode() && element.data('kind') === 'nodes' && element.children().empty()) positions[element.id()] = { ...element.position() };
      labels[element.id()] = element.data('label') ?? '';
      const mark = ['created', 'changed', 'deleted'].filter((c) => element.hasClass(c)).join(' ');
      if (mark !== '') marks[element.id()] = mark;
    }
    return { positions, labels, marks, ids: cy.elements().map((e: any) => e.id()).sort() };
  });
}

/** Move a slider of the time bar as a person does (its value, then `input` and `change`) and wait until the picture shows `shown`. */
async function slide(page: Page, slider: string, ms: number, shown: string): Promise<void> {
  await page.evaluate(
    ({ slider, ms }) => {
      const input = document.querySelector(slider)!;
      input.value = String(ms);
      input.dispatchEvent(new Event('input'));
      input.dispatchEvent(new Event('change'));
    },
    { slider, ms },
  );
  await page.waitForFunction((shown) => document.body.dataset.shown === shown, shown, { timeout: 20_000 });
}

/**
 * /ui's time bar in a real browser (headless Chromium, playwright-core): the picture at an earlier
 * instant, with the positions of what stays kept, back to now, and the marks of what was created,
 * changed and deleted since an instant.
 */
describe('/ui, the time bar, in a real browser', function () {
  this.timeout(120_000);
  let browser: Browser;
  let server: RunningServer;
  let page: Page;
  /** The last millisecond before the changes. */
  let earlier: number;
  const errors: string[] = [];

  before(async function () {
    needChromium(this);
    mkdirSync(ARTIFACTS, { recursive: true });
    [server, browser] = await Promise.all([startServer(), launchChromium()]);
    await postPicture(server.url, SHAPE);
    await new Promise((resolve) => setTimeout(resolve, 20));
    earlier = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const write = async (method: string, url: string, body?: unknown) => {
      const answer = await fetch(`${server.url}/${url}`, { method, headers: { 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
      assert.ok(answer.ok, `${method} ${url}: ${answer.status}`);
    };
    await write('PATCH', 'nodes/d0-w0-n1', { name: 'renamed router' });
    await write('DELETE', 'links/link-d0-w1-n0');
    await write('DELETE', 'nodes/d0-w1-n2');
    for (const port of ['d0-w1-n2-p0', 'd0-w1-n2-p1']) await write('DELETE', `ports/${port}`);
    await write('POST', 'nodes', { id: 'fresh', name: 'fresh router' });
    page = await openUi(browser, server.url, { errors });
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('the slider draws the topology as it was, keeping the positions of what stays', async () => {
    const live = await picture(page);
    assert.ok(live.ids.includes('nodes/fresh') && !live.ids.includes('nodes/d0-w1-n2') && !live.ids.includes('links/link-d0-w1-n0'));
    assert.equal(live.labels['nodes/d0-w0-n1'], 'renamed router');

    await slide(page, '#time-at', earlier, `${earlier * 1000 + 999}/`);
    const then = await picture(page);
    assert.ok(!then.ids.includes('nodes/fresh'), 'not created yet');
    assert.ok(then.ids.includes('nodes/d0-w1-n2') && then.ids.includes('links/link-d0-w1-n0'), 'not deleted yet');
    assert.equal(then.labels['nodes/d0-w0-n1'], 'router 0.0.1');
    for (const [id, at] of Object.entries(live.positions)) if (id in then.positions) assert.deepEqual(then.positions[id], at, `${id} kept its position`);
    assert.match((await page.textContent('#status'))!, /^the past: as at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} UTC — 1 domains · 2 networks · 6 nodes · 12 ports · 6 links · 1 paths$/);
    assert.equal(await page.getAttribute('#time', 'data-mode'), 'past');

    await page.click('#time-now');
    await page.waitForFunction(() => document.body.dataset.shown === 'live', undefined, { timeout: 20_000 });
    const again = await picture(page);
    assert.deepEqual(again.ids, live.ids);
    for (const [id, at] of Object.entries(live.positions)) assert.deepEqual(again.positions[id], at, `${id} is where it was`);
    assert.match((await page.textContent('#status'))!, /^live — /);
  });

  it('marks what was created, changed and deleted since an instant; deleted ones are drawn as they were', async () => {
    await page.check('#time-compare');
    await slide(page, '#time-since', earlier, `now/${earlier * 1000 + 999}`);
    const { marks, ids } = await picture(page);
    assert.deepEqual(marks, {
      'nodes/fresh': 'created',
      'nodes/d0-w0-n1': 'changed',
      'nodes/d0-w1-n2': 'deleted',
      'ports/d0-w1-n2-p0': 'deleted',
      'ports/d0-w1-n2-p1': 'deleted',
      'links/link-d0-w1-n0': 'deleted',
    });
    assert.ok(ids.includes('nodes/d0-w1-n2'));
    assert.match((await page.textContent('#status'))!, /1 created, 1 changed, 4 deleted/);
    await page.screenshot({ path: path.join(ARTIFACTS, 'ui-time.png') });

    await page.click('#time-now');
    await page.waitForFunction(() => document.body.dataset.shown === 'live', undefined, { timeout: 20_000 });
    assert.deepEqual((await picture(page)).marks, {});
    assert.deepEqual(errors, []);
  });

  it('while the past is shown, live changes wait; back at now they are drawn', async () => {
    await slide(page, '#time-at', earlier, `${earlier * 1000 + 999}/`);
    const answer = await fetch(`${server.url}/nodes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'later', name: 'later router' }) });
    assert.equal(answer.status, 201);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.ok(!(await picture(page)).ids.includes('nodes/later'));
    await page.click('#time-now');
    await page.waitForFunction(() => (globalThis as any).topocat.cy.getElementById('nodes/later').nonempty(), undefined, { timeout: 20_000 });
  });
});
