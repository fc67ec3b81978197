/**
 * The subscription rows (docs/subscriptions.md): how long a change takes from the write's 2xx to its
 * frame at 1, 100 and 1,000 subscribers; how many frames a second 100 subscribers receive while
 * writes flow; and what 1,000 subscriptions that match nothing cost each write, in server CPU at
 * a fixed rate, against none. One server of their own, on a database of their own.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import type { BenchContext } from '../harness/context.js';
import { cpuPerRequest } from '../harness/cpu.js';
import type { Measured } from '../harness/processes.js';
import { count, ms, ratio, type Row } from '../harness/report.js';
import { startTopocat } from '../harness/topocat.js';
import { DN } from '../workloads/catalog.js';
import { median } from '../harness/stats.js';

/** Subscriptions one socket may hold (MAX_SUBSCRIPTIONS_PER_CONNECTION's default). */
const PER_SOCKET = 100;
/** The fixed write rate of the CPU rows: well below what the server sustains. */
const WRITE_LOAD = { rate: 200, connections: 4 } as const;

const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;

/** `count` sockets, each with the subscriptions `messages` makes for it, open and settled. */
async function subscribers(server: Measured, ctx: BenchContext, sockets: number, messages: (socket: number) => object[], onFrame?: (id: string) => void): Promise<WebSocket[]> {
  const opened = await Promise.all(
    Array.from({ length: sockets }, (_, s) => {
      const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/subscribe`, { headers: ctx.auth, perMessageDeflate: false });
      if (onFrame) ws.on('message', (data) => onFrame((JSON.parse(data.toString()) as { headers: { id: string } }).headers.id));
      return new Promise<WebSocket>((resolve, reject) => {
        ws.once('open', () => {
          for (const message of messages(s)) ws.send(JSON.stringify(message));
          // Answered after the messages before it: every subscription is registered.
          ws.once('pong', () => resolve(ws));
          ws.ping();
        });
        ws.once('error', reject);
      });
    }),
  );
  return opened;
}

function closeAll(sockets: readonly WebSocket[]): void {
  for (const ws of sockets) ws.terminate();
}

async function postNode(server: Measured, ctx: BenchContext, body: object): Promise<boolean> {
  const response = await fetch(`${server.url}/nodes`, { method: 'POST', headers: { ...ctx.auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await response.arrayBuffer();
  return response.status === 201;
}

/**
 * From a write's request to its frame at every subscriber, one write at a time, and how many
 * frames came before the write's 2xx (frame and answer travel apart, so either may come first;
 * timed from the 2xx, a frame that came first would count as 0).
 */
async function latencyRow(ctx: BenchContext, server: Measured, subscriberCount: number): Promise<Row> {
  const writes = ctx.sizes.subscriptionWrites;
  const arrived = new Map<string, number[]>();
  const sockets = await subscribers(
    server,
    ctx,
    subscriberCount,
    () => [{ resourceType: 'nodes', query: {} }],
    (id) => arrived.get(id)?.push(performance.now()),
  );
  const samples: number[] = [];
  let early = 0;
  let failures = 0;
  try {
    for (let i = 0; i < writes; i++) {
      const id = `latency-${subscriberCount}-${i}`;
      const times: number[] = [];
      arrived.set(id, times);
      const sent = performance.now();
      if (!(await postNode(server, ctx, { id, name: id }))) failures++;
      const acknowledged = performance.now();
      const deadline = acknowledged + 10_000;
      while (times.length < subscriberCount && performance.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
      if (times.length < subscriberCount) failures++;
      for (const t of times) {
        samples.push(t - sent);
        if (t < acknowledged) early++;
      }
      arrived.delete(id);
    }
  } finally {
    closeAll(sockets);
  }
  samples.sort((a, b) => a - b);
  const p50 = percentile(samples, 0.5);
  const p99 = percentile(samples, 0.99);
  return {
    row: `Subscriptions: from a write's request to its frame, ${count(subscriberCount)} WebSocket subscriber${subscriberCount === 1 ? '' : 's'} (${count(writes)} writes, one at a time)`,
    result: `p50 ${ms(p50)}, p99 ${ms(p99)} (${count(samples.length)} frames, ${count(early)} of them before the write's 2xx)`,
    target: 'report',
    met: undefined,
    figures: { subscribers: subscriberCount, p50Ms: p50, p99Ms: p99, frames: samples.length, framesBeforeAnswer: early },
    failures,
  };
}

/** Frames a second that 100 subscribers receive while 4 writers post arrays as fast as they can. */
async function deliveryRow(ctx: BenchContext, server: Measured): Promise<Row> {
  const subscriberCount = 100;
  let frames = 0;
  const sockets = await subscribers(server, ctx, subscriberCount, () => [{ resourceType: 'nodes', query: {} }], () => frames++);
  let written = 0;
  let failures = 0;
  try {
    const until = performance.now() + ctx.sizes.throughputSeconds * 1000;
    const started = performance.now();
    const startFrames = frames;
    await Promise.all(
      Array.from({ length: 4 }, async (_, w) => {
        for (let batch = 0; performance.now() < until; batch++) {
          const nodes = Array.from({ length: 50 }, (_, i) => ({ name: `flow-${w}-${batch}-${i}` }));
          if (await postNode(server, ctx, nodes)) written += nodes.length;
          else failures++;
        }
      }),
    );
    // What was written is delivered: wait for the last frames (bounded).
    const deadline = performance.now() + 30_000;
    while (frames - startFrames < written * subscriberCount && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const elapsed = (performance.now() - started) / 1000;
    const delivered = frames - startFrames;
    if (delivered < written * subscriberCount) failures++;
    return {
      row: `Subscriptions: frames delivered to ${subscriberCount} WebSocket subscribers while 4 writers post arrays of 50 nodes`,
      result: `${count(delivered / elapsed)} frames/s (${count(written / elapsed)} writes/s, each to every subscriber)`,
      target: 'report',
      met: undefined,
      figures: { framesPerSecond: delivered / elapsed, writesPerSecond: written / elapsed },
      failures,
    };
  } finally {
    closeAll(sockets);
  }
}

/**
 * Server CPU per single-node POST at a fixed rate with no subscriptions, then with 1,000 that
 * match nothing, in alternation; the medians count. `query` makes the i-th subscription.
 */
async function costRow(ctx: BenchContext, server: Measured, what: string, query: (i: number) => object, target: number | undefined): Promise<Row> {
  const fixed = {
    url: server.url,
    pid: server.pid,
    method: 'POST' as const,
    headers: { ...ctx.auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'costed', location: { institution: 'IU' } }),
    paths: ['/nodes'],
    seconds: ctx.sizes.cpuSeconds,
    ...WRITE_LOAD,
  };
  const none: number[] = [];
  const some: number[] = [];
  let failures = 0;
  for (let round = 0; round < ctx.sizes.cpuRounds; round++) {
    const alone = await cpuPerRequest(fixed);
    none.push(alone.microseconds);
    const sockets = await subscribers(server, ctx, 1_000 / PER_SOCKET, (s) => Array.from({ length: PER_SOCKET }, (_, i) => ({ resourceType: 'nodes', query: query(s * PER_SOCKET + i) })));
    try {
      const watched = await cpuPerRequest(fixed);
      some.push(watched.microseconds);
      failures += alone.failures + watched.failures;
    } finally {
      closeAll(sockets);
    }
  }
  const overhead = median(some.map((s, i) => s / none[i]!)) - 1;
  return {
    row: `Subscriptions: server CPU per POST of one node at ${count(WRITE_LOAD.rate)}/s, 1,000 subscriptions ${what} vs none`,
    result: `${count(median(some))} µs vs ${count(median(none))} µs per write; ${overhead >= 0 ? '+' : ''}${ratio(overhead * 100)} %`,
    target: target === undefined ? 'report' : `< +${target} %`,
    met: target === undefined ? undefined : overhead * 100 < target,
    figures: { withMicroseconds: median(some), withoutMicroseconds: median(none), overheadPercent: overhead * 100 },
    failures,
  };
}

export async function subscriptionRows(ctx: BenchContext): Promise<Row[]> {
  const dir = path.join(ctx.dir, 'subscriptions');
  mkdirSync(dir, { recursive: true });
  const server = await startTopocat({ dir, token: ctx.token, dn: DN, label: 'topocat-subscriptions' });
  try {
    const rows: Row[] = [];
    for (const n of [1, 100, 1_000]) {
      ctx.log(`subscriptions: latency at ${n} subscriber(s)`);
      rows.push(await latencyRow(ctx, server, n));
    }
    ctx.log('subscriptions: delivery to 100 subscribers');
    rows.push(await deliveryRow(ctx, server));
    ctx.log('subscriptions: what 1,000 subscriptions that match nothing cost a write');
    rows.push(await costRow(ctx, server, 'on another name each (`{"name": "absent-i"}`)', (i) => ({ name: `absent-${i}` }), 10));
    rows.push(await costRow(ctx, server, 'with a pattern each (`{"name": {"reg": "^absent-i$"}}`)', (i) => ({ name: { reg: `^absent-${i}$` } }), undefined));
    return rows;
  } finally {
    await server.stop();
  }
}
