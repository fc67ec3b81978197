/**
 * The measurement store's rows (docs/measurements.md): points a second stored from batches of
 * 1,000 (BLiPP reports, at scale) and from one point per request by 16 clients (many small
 * agents), and how long the newest 1,000 points of one series take to read while batches keep
 * arriving. One server of their own, on a database of their own; every series has a cap, so the
 * steady state includes dropping the oldest points.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Agent } from 'node:http';
import type { BenchContext } from '../harness/context.js';
import { keepAliveAgent, timedRequest } from '../harness/client.js';
import { latency } from '../harness/load.js';
import type { Measured } from '../harness/processes.js';
import { count, ms, type Row } from '../harness/report.js';
import { startTopocat } from '../harness/topocat.js';
import { DN } from '../workloads/catalog.js';

/** Points per batch of the batch rows. */
const BATCH = 1_000;
/** Clients posting batches at once: enough to keep the writer busy while one is parsed. */
const BATCH_CLIENTS = 4;
/** The single-point row's clients. */
const SMALL_CLIENTS = 16;
/** Each series' cap: reached within a second of the batch row, so the oldest are dropped from then on. */
const CAP = 100_000;
/** Batches of 1,000 a second posted while the read row reads: 50,000 points/s. */
const BACKGROUND_BATCHES = 50;
/** A point's `ts` spacing (µs): ten a second, like a BLiPP probe at 10 Hz. */
const STEP = 100_000;

/** A metadata resource and its series; returns the mid. */
async function series(ctx: BenchContext, server: Measured, name: string): Promise<string> {
  const headers = { ...ctx.auth, 'content-type': 'application/json' };
  const metadata = (await (await fetch(`${server.url}/metadata`, { method: 'POST', headers, body: JSON.stringify({ subject: { href: `${server.url}/nodes/${name}`, rel: 'full' }, eventType: `bench:${name}`, parameters: { datumSchema: 'http://unis.crest.iu.edu/schema/20160630/datum#' } }) })).json()) as { id: string; selfRef: string };
  const registered = await fetch(`${server.url}/events`, { method: 'POST', headers, body: JSON.stringify({ metadata_URL: metadata.selfRef, collection_size: CAP, ttl: 0 }) });
  await registered.arrayBuffer();
  if (registered.status !== 201) throw new Error(`POST /events answered ${registered.status}`);
  return metadata.id;
}

/** The JSON text of `n` points of a series, from the `next`-th on (distinct `ts`, so none is a repeat). */
function points(n: number, next: number): string {
  const start = 1_795_000_000_000_000 + next * STEP;
  let text = '{"data":[';
  for (let i = 0; i < n; i++) text += `${i === 0 ? '' : ','}{"ts":${start + i * STEP},"value":${(next + i) % 1000}}`;
  return `${text}]}`;
}

/**
 * One client posting to its series until `until`, back to back or, with `everyMs`, one request
 * each `everyMs` at most; counts points stored and failures.
 */
async function postLoop(ctx: BenchContext, server: Measured, mid: string, size: number, until: number, start: number, everyMs = 0): Promise<{ points: number; failures: number; next: number }> {
  const agent: Agent = keepAliveAgent();
  const url = new URL(`/data/${mid}`, server.url);
  const headers = { ...ctx.auth, 'content-type': 'application/json' };
  let stored = 0;
  let failures = 0;
  let next = start;
  try {
    for (let due = performance.now(); performance.now() < until; due += everyMs) {
      if (everyMs > 0 && due > performance.now()) await new Promise((resolve) => setTimeout(resolve, due - performance.now()));
      const body = points(size, next);
      next += size;
      try {
        const answer = await timedRequest(agent, url, { method: 'POST', headers, body });
        if (answer.status === 201) stored += (JSON.parse(answer.body) as { stored: number }).stored;
        else failures++;
      } catch {
        failures++;
      }
    }
  } finally {
    agent.destroy();
  }
  return { points: stored, failures, next };
}

/** Points a second that `clients` store posting `size` points a request, each to a series of its own. */
async function ingestRow(ctx: BenchContext, server: Measured, mids: readonly string[], size: number, label: string, target: number): Promise<Row> {
  const warm = performance.now() + Math.min(3, Math.max(1, ctx.sizes.throughputSeconds / 4)) * 1000;
  const positions = await Promise.all(mids.map((mid) => postLoop(ctx, server, mid, size, warm, 0)));
  const started = performance.now();
  const until = started + ctx.sizes.throughputSeconds * 1000;
  const runs = await Promise.all(mids.map((mid, i) => postLoop(ctx, server, mid, size, until, positions[i]!.next)));
  const elapsed = (performance.now() - started) / 1000;
  const stored = runs.reduce((sum, r) => sum + r.points, 0);
  const rate = stored / elapsed;
  return {
    row: `Measurements: ${label}`,
    result: `${count(rate)} points/s`,
    target: `≥ ${count(target)} points/s`,
    met: rate >= target,
    figures: { pointsPerSecond: rate, points: stored, seconds: elapsed },
    failures: runs.reduce((sum, r) => sum + r.failures, 0) + positions.reduce((sum, r) => sum + r.failures, 0),
  };
}

/**
 * p50 of `GET /data/<mid>?limit=1000` of a full series while one client posts batches to another
 * at a steady BACKGROUND_BATCHES a second (a quarter of the ingest target): ingest that runs, not
 * one that saturates the two cores the server, its clients and the database share.
 */
async function newestRow(ctx: BenchContext, server: Measured, read: string, written: string): Promise<Row> {
  // The series read is full: its cap of points, the newest 1,000 of which each read answers.
  const fill = ctx.sizes.measurementPoints;
  const agent = keepAliveAgent();
  try {
    for (let next = 0; next < fill; next += BATCH) {
      const answer = await timedRequest(agent, new URL(`/data/${read}`, server.url), { method: 'POST', headers: { ...ctx.auth, 'content-type': 'application/json' }, body: points(BATCH, next) });
      if (answer.status !== 201) throw new Error(`filling the series: ${answer.status} ${answer.body.slice(0, 200)}`);
    }
  } finally {
    agent.destroy();
  }
  const began = performance.now();
  // Posting from before the reads' warm-up until after their end.
  const ingest = postLoop(ctx, server, written, BATCH, began + (ctx.sizes.latencySeconds + 2) * 1000, 1_000_000, 1000 / BACKGROUND_BATCHES);
  const measured = await latency({
    url: server.url,
    headers: ctx.auth,
    path: () => `/data/${read}?limit=1000`,
    seconds: ctx.sizes.latencySeconds,
    check: (body) => body.startsWith('[{') && body.split('"ts"').length === 1001,
  });
  const background = await ingest;
  const posted = background.points / ((performance.now() - began) / 1000);
  return {
    row: `Measurements: the newest 1,000 points of a series of ${count(fill)} (\`GET /data/<mid>?limit=1000\`), one client at a time, while another posts ${BACKGROUND_BATCHES} batches of ${count(BATCH)} a second`,
    result: `p50 ${ms(measured.p50)}, p99 ${ms(measured.p99)} (${count(measured.count)} reads; ${count(posted)} points/s posted meanwhile)`,
    target: 'p50 < 2 ms',
    met: measured.p50 < 2,
    figures: { p50Ms: measured.p50, p99Ms: measured.p99, reads: measured.count, backgroundPoints: background.points },
    failures: measured.failures + background.failures,
  };
}

export async function measurementRows(ctx: BenchContext): Promise<Row[]> {
  const dir = path.join(ctx.dir, 'measurements');
  mkdirSync(dir, { recursive: true });
  const server = await startTopocat({ dir, token: ctx.token, dn: DN, label: 'topocat-measurements' });
  try {
    const rows: Row[] = [];
    ctx.log(`measurements: ingest in batches of ${BATCH}`);
    const batchSeries = await Promise.all(Array.from({ length: BATCH_CLIENTS }, (_, i) => series(ctx, server, `batch-${i}`)));
    rows.push(await ingestRow(ctx, server, batchSeries, BATCH, `ingest in batches of ${count(BATCH)} points (\`POST /data/<mid>\`, ${BATCH_CLIENTS} clients, a series each, cap ${count(CAP)})`, 200_000));
    ctx.log('measurements: one point per request');
    const smallSeries = await Promise.all(Array.from({ length: SMALL_CLIENTS }, (_, i) => series(ctx, server, `single-${i}`)));
    rows.push(await ingestRow(ctx, server, smallSeries, 1, `one point per request from ${SMALL_CLIENTS} clients (a series each)`, 5_000));
    ctx.log('measurements: the newest 1,000 points while ingest runs');
    rows.push(await newestRow(ctx, server, await series(ctx, server, 'read'), await series(ctx, server, 'background')));
    return rows;
  } finally {
    await server.stop();
  }
}
