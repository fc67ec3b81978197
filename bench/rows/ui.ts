/**
 * The picture's rows (docs/ui.md): /ui of a topology of 1,000 nodes with 4,000 ports in headless
 * Chromium (Debian's, driven by playwright-core): how long from navigation until the data is read,
 * laid out and drawn; what one frame costs once it is drawn (a zoom); a click's details with the
 * history read; and how long a write takes from its 2xx to the changed picture. Then the first
 * drawing of 10,000 nodes with 40,000 ports. Each picture on a server of its own, with the bench's
 * token, given to the page as a person would (the tab's sessionStorage).
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { BenchContext } from '../harness/context.js';
import { count, ms, type Row } from '../harness/report.js';
import { startTopocat } from '../harness/topocat.js';
import { DN } from '../workloads/catalog.js';
import { postPicture, type Picture, type PictureShape } from '../workloads/picture.js';
import { median } from '../harness/stats.js';

const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
/** Frames, clicks and writes timed for each of the latency rows. */
const SAMPLES = 5;

/** The targets for the first drawing (issue 29): 1,000 nodes within 3 s, 10,000 within 15 s. */
const FIRST_DRAWING_MS = { picture: 3_000, largePicture: 15_000 } as const;

/** The window the pictures are drawn in. */
const VIEW = { viewport: { width: 1400, height: 860 } } as const;

/** Milliseconds from `navigate` (a goto or a reload) until the page says its picture is drawn. */
async function timed(page: Page, navigate: () => Promise<unknown>): Promise<number> {
  const started = Date.now();
  await navigate();
  await page.waitForSelector('body[data-ready="true"]', { timeout: 600_000 });
  return Date.now() - started;
}

/** A new tab of `context` holding the bench's token (as a person gives it), /ui of `base` loaded and drawn. */
async function openDrawn(context: BrowserContext, base: string, token: string): Promise<{ page: Page; total: number }> {
  const page = await context.newPage();
  await page.addInitScript((t) => sessionStorage.setItem('topocat.token', t), token);
  return { page, total: await timed(page, () => page.goto(`${base}/ui`)) };
}

const shapeOf = (posted: Picture): string => `${count(posted.nodes)} nodes, ${count(posted.ports)} ports, ${count(posted.links)} links, ${posted.domains} domains, ${posted.networks} networks, ${posted.paths} paths`;

/** What runs in the page: its Cytoscape instance and hooks (ui/main.ts). */
declare const topocat: { cy: { zoom(level?: number): number; getElementById(id: string): { data(key: string): unknown } }; timings: Record<string, number>; select(id: string): void; placement(): string | undefined; nodePixels(): number };
declare const document: { querySelectorAll(selector: string): { length: number } };
declare function requestAnimationFrame(callback: () => void): number;
declare const sessionStorage: { setItem(key: string, value: string): void };

export async function uiRows(ctx: BenchContext): Promise<Row[]> {
  if (!existsSync(CHROMIUM)) throw new Error(`the ui rows need ${CHROMIUM}: apt-get install chromium`);
  const dir = path.join(ctx.dir, 'ui');
  mkdirSync(dir, { recursive: true });
  const server = await startTopocat({ dir, token: ctx.token, dn: DN, label: 'topocat-ui' });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  try {
    ctx.log('ui: posting the topology');
    const posted = await postPicture(server.url, ctx.sizes.picture, ctx.auth);
    const shape = shapeOf(posted);
    ctx.log('ui: loading the page');
    const { page, total } = await openDrawn(await browser.newContext(VIEW), server.url, ctx.token);
    const timings = await page.evaluate(() => topocat.timings);

    const frames: number[] = [];
    const clicks: number[] = [];
    const updates: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      frames.push(
        await page.evaluate(async () => {
          const t = performance.now();
          topocat.cy.zoom(topocat.cy.zoom() * 1.05);
          await new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
          return performance.now() - t;
        }),
      );
      const node = `d0-w0-n${i}`;
      clicks.push(
        await page.evaluate(async (id) => {
          const t = performance.now();
          topocat.select(id);
          while (document.querySelectorAll('#details ol.history button').length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
          return performance.now() - t;
        }, `nodes/${node}`),
      );
      const name = `renamed ${i}`;
      const wrote = Date.now();
      const response = await fetch(`${server.url}/nodes/${node}`, { method: 'PATCH', headers: { ...ctx.auth, 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ name }) });
      if (response.status !== 200) throw new Error(`PATCH /nodes/${node}: ${response.status}`);
      await page.waitForFunction((args) => topocat.cy.getElementById(args.id).data('label') === args.name, { id: `nodes/${node}`, name }, { timeout: 120_000, polling: 5 });
      updates.push(Date.now() - wrote);
    }
    const placement = await page.evaluate(() => topocat.placement());
    // A second visit: the positions kept from the first, no layout.
    ctx.log('ui: loading the page again');
    const totalAgain = await timed(page, () => page.reload());
    const placementAgain = await page.evaluate(() => topocat.placement());
    const loaded = timings.loaded ?? Number.NaN;
    const drawn = timings.drawn ?? Number.NaN;
    return [
      {
        row: `UI: /ui of ${shape}, headless Chromium (software rendering): from navigation to the picture drawn`,
        result: `${ms(total)} in all; in the page: data read ${ms(loaded)}, placed (${placement}) ${ms(timings.laidOut ?? Number.NaN)}, first frame painted ${ms(drawn)}; a second visit ${ms(totalAgain)} in all (${placementAgain})`,
        target: `first drawing < ${FIRST_DRAWING_MS.picture / 1000} s (issue 29, for 1,000 nodes)`,
        met: total < FIRST_DRAWING_MS.picture,
        figures: { totalMs: total, loadedMs: loaded, laidOutMs: timings.laidOut ?? Number.NaN, drawnMs: drawn, againMs: totalAgain },
        failures: 0,
      },
      {
        row: `UI: the same picture, one frame after a zoom; a click's details with its history; a write's 2xx to the changed label (medians of ${SAMPLES})`,
        result: `frame ${ms(median(frames))}; details ${ms(median(clicks))}; write to picture ${ms(median(updates))}`,
        target: 'report',
        met: undefined,
        figures: { frameMs: median(frames), detailsMs: median(clicks), updateMs: median(updates) },
        failures: 0,
      },
      await firstDrawing(ctx, browser, ctx.sizes.largePicture),
    ];
  } finally {
    await browser.close();
    await server.stop();
  }
}

/** From navigation to the first drawing of `shape`, on a server of its own, in a fresh tab (no kept positions). */
async function firstDrawing(ctx: BenchContext, browser: Browser, shape: PictureShape): Promise<Row> {
  const dir = path.join(ctx.dir, 'ui-large');
  mkdirSync(dir, { recursive: true });
  const server = await startTopocat({ dir, token: ctx.token, dn: DN, label: 'topocat-ui-large' });
  const context = await browser.newContext(VIEW);
  try {
    ctx.log('ui: posting the larger topology');
    const posted = await postPicture(server.url, shape, ctx.auth);
    ctx.log('ui: loading the page of the larger topology');
    const { page, total } = await openDrawn(context, server.url, ctx.token);
    const timings = await page.evaluate(() => topocat.timings);
    const placement = await page.evaluate(() => topocat.placement());
    const nodePixels = await page.evaluate(() => topocat.nodePixels());
    return {
      row: `UI: /ui of ${shapeOf(posted)}, headless Chromium (software rendering): from navigation to the first drawing`,
      result: `${ms(total)} in all; in the page: data read ${ms(timings.loaded ?? Number.NaN)}, placed (${placement}) ${ms(timings.laidOut ?? Number.NaN)}, first frame painted ${ms(timings.drawn ?? Number.NaN)}; a node ${nodePixels.toFixed(1)} px wide at the first zoom`,
      target: `< ${FIRST_DRAWING_MS.largePicture / 1000} s (issue 29, for 10,000 nodes)`,
      met: total < FIRST_DRAWING_MS.largePicture,
      figures: { totalMs: total, loadedMs: timings.loaded ?? Number.NaN, laidOutMs: timings.laidOut ?? Number.NaN, drawnMs: timings.drawn ?? Number.NaN, nodePixels },
      failures: 0,
    };
  } finally {
    await context.close();
    await server.stop();
  }
}
