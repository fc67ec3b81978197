import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium, driven by playwright-core, for the pages' tests (test/ui/, test/docs/); `.ci/run` installs it when missing. */
export const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** In a `before`: skip the suite when Chromium is not installed, except on CI, where that is a failure. */
export function needChromium(context: Mocha.Context): void {
  if (existsSync(CHROMIUM)) return;
  if (process.env.CI === 'true') throw new Error(`${CHROMIUM} is missing: apt-get install chromium`);
  console.warn(`    skipped: ${CHROMIUM} is missing (apt-get install chromium)`);
  context.skip();
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
}

export interface OpenUiOptions {
  /** Collects the page's script errors. */
  readonly errors?: string[];
  /** Collects the address of every request the page makes. */
  readonly requests?: string[];
  /** How long the first drawing may take. */
  readonly timeoutMs?: number;
}

/** `${base}/ui` in a new page of 1280 × 800, once drawn (body[data-ready]). */
export async function openUi(browser: Browser, base: string, options: OpenUiOptions = {}): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const { errors, requests } = options;
  if (requests) page.on('request', (request) => requests.push(request.url()));
  if (errors) page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${base}/ui`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: options.timeoutMs ?? 60_000 });
  return page;
}
