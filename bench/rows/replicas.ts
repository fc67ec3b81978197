/**
 * `--only replicas` (issue "Past one machine", rest-contract §15): topocat on a private primary
 * with a streaming standby (tools/pg-cluster.ts: initdb and pg_basebackup on this machine), four
 * rows. Write→read pairs through two processes while the standby applies every commit 200 ms
 * late (no read may answer older than its write); a 90 % GET / 10 % write mix at a fixed rate,
 * against the same writes alone on the primary without a standby (what reaches the primary's
 * tables, and its CPU per write); 1,000 event-stream subscribers on a process that reads from the
 * standby, against subscribers of a process without one, across a kill of that process; and the
 * standby stopped and started again under a GET load.
 */
import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { createCluster, createStandby, type LocalCluster } from '../../tools/pg-cluster.js';
import type { BenchContext } from '../harness/context.js';
import { cpuSeconds } from '../harness/cpu.js';
import { keepAliveAgent, timedRequest } from '../harness/client.js';
import { openLoop, quantile } from '../harness/open-loop.js';
import type { Measured } from '../harness/processes.js';
import { count, ms, ratio, seconds, type Row } from '../harness/report.js';
import { standbyCounts } from '../harness/standby-counts.js';
import { startTopocat } from '../harness/topocat.js';
import { DN } from '../workloads/catalog.js';

/** The standby of the pairs row applies each commit this late, as the row asks. */
const APPLY_DELAY = 'recovery_min_apply_delay=200ms';
/** PostgreSQL's statistics views lag (a backend reports when idle, at most every 10 s): the quiet time before they are read. */
const STATS_QUIET_MS = 11_000;

interface Answer {
  readonly status: number;
  readonly body: string;
}

/** A topocat process of this group, its URL and what its /metrics say of its standby. */
async function topocat(ctx: BenchContext, label: string, primary: LocalCluster, standby?: LocalCluster, env: Readonly<Record<string, string>> = {}): Promise<Measured> {
  return startTopocat({
    dir: ctx.dir,
    token: ctx.token,
    dn: DN,
    label,
    databaseUrl: `${primary.url}?application_name=${label}`,
    env: { ...(standby ? { DATABASE_READ_URLS: standby.url } : {}), ...env },
  });
}

/** Every process of a cluster on this machine: the postmaster, its children, and those it reaped. */
function clusterCpu(cluster: LocalCluster): number {
  const postmaster = Number(readFileSync(path.join(cluster.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const stat = readFileSync(`/proc/${postmaster}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return cpuSeconds(postmaster) + (Number(fields[13]) + Number(fields[14])) / 100;
}

/** Scans (sequential and by index) of the resource tables so far, as the primary's statistics say. */
async function tableReads(knex: Knex): Promise<number> {
  const { rows } = (await knex.raw(
    `SELECT COALESCE(SUM(seq_scan + COALESCE(idx_scan, 0)), 0)::bigint AS n FROM pg_stat_user_tables WHERE relname IN ('resource_current', 'resource_history')`,
  )) as { rows: { n: string }[] };
  return Number(rows[0]!.n);
}

/** The primary's table statistics after a quiet time (they lag the reads; --quick's figures mean nothing, and it waits 1 s). */
async function settledTableReads(ctx: BenchContext, knex: Knex): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, ctx.sizes.nodes >= 100_000 ? STATS_QUIET_MS : 1_000));
  return tableReads(knex);
}

function pgKnex(url: string): Knex {
  return knexFactory({ client: 'pg', connection: { connectionString: url, application_name: 'topocat-bench-observer' }, pool: { min: 0, max: 1 } });
}

/** Post `n` nodes `prefix-0…` in arrays of 500. */
async function load(ctx: BenchContext, server: Measured, prefix: string, n: number): Promise<void> {
  for (let start = 0; start < n; start += 500) {
    const batch = Array.from({ length: Math.min(500, n - start) }, (_, i) => ({ id: `${prefix}-${start + i}`, name: `${prefix} ${start + i}` }));
    const answer = await fetch(`${server.url}/nodes`, { method: 'POST', headers: { ...ctx.auth, 'content-type': 'application/json' }, body: JSON.stringify(batch) });
    await answer.arrayBuffer();
    if (answer.status !== 201) throw new Error(`loading ${prefix}: ${answer.status}`);
  }
}

/** 10,000 write→read pairs, 32 at once, the write through one process and the read through the other. */
async function pairsRow(ctx: BenchContext, primary: LocalCluster, standby: LocalCluster): Promise<Row> {
  const pairs = ctx.sizes.nodes >= 100_000 ? 10_000 : 320;
  const writer = await topocat(ctx, 'replicas-writer', primary, standby);
  const reader = await topocat(ctx, 'replicas-reader', primary, standby);
  let stale = 0;
  let failures = 0;
  const readMs: number[] = [];
  try {
    const before = await standbyCounts(reader, ctx.auth);
    const agentW = keepAliveAgent(32);
    const agentR = keepAliveAgent(32);
    const call = async (server: Measured, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', pathname: string, body?: unknown): Promise<Answer> => {
      const answer = await timedRequest(server === writer ? agentW : agentR, new URL(`${server.url}${pathname}`), {
        method,
        headers: { ...ctx.auth, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: answer.status, body: answer.body };
    };
    const read = async (pathname: string): Promise<Answer> => {
      const started = performance.now();
      const answer = await call(reader, 'GET', pathname);
      readMs.push(performance.now() - started);
      return answer;
    };
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 32 }, async (_, lane) => {
        for (let i = lane; i < pairs; i += 32) {
          const id = `pair-${i}`;
          const created = await call(writer, 'POST', '/nodes', { id, name: id });
          if (created.status !== 201) {
            failures++;
            continue;
          }
          switch (i % 4) {
            case 0:
              if ((await read(`/nodes/${id}`)).status !== 200) stale++;
              break;
            case 1: {
              const list = await read(`/nodes?name=${id}`);
              if (list.status !== 200 || (JSON.parse(list.body) as unknown[]).length !== 1) stale++;
              break;
            }
            case 2: {
              const patched = await call(writer, 'PATCH', `/nodes/${id}`, { description: 'patched' });
              if (patched.status !== 200) failures++;
              const got = await read(`/nodes/${id}`);
              if (got.status !== 200 || (JSON.parse(got.body) as { ts: number }).ts !== (JSON.parse(patched.body) as { ts: number }).ts) stale++;
              break;
            }
            default: {
              if ((await call(writer, 'DELETE', `/nodes/${id}`)).status !== 204) failures++;
              if ((await read(`/nodes/${id}`)).status !== 404) stale++;
            }
          }
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    agentW.destroy();
    agentR.destroy();
    const after = await standbyCounts(reader, ctx.auth);
    readMs.sort((a, b) => a - b);
    const reads = after.reads - before.reads;
    const waits = after.waits - before.waits;
    const fallbacks = after.fallbacks - before.fallbacks;
    return {
      row: `Standbys: ${count(pairs)} write→read pairs, 32 at once (POST→GET, POST→list, PATCH→GET, DELETE→GET), the write through one process and the read through another, the standby ${APPLY_DELAY.split('=')[1]} behind`,
      result: `${count(stale)} stale answers; reads: ${count(reads)} served by the standby (${count(waits)} of them after waiting for it), ${count(fallbacks)} by the primary after READ_WAIT_MS; read p50 ${ms(quantile(readMs, 0.5))}, p99 ${ms(quantile(readMs, 0.99))}; ${seconds(elapsed)}`,
      target: '0 stale answers; waits and fallbacks counted',
      met: stale === 0,
      figures: { pairs, stale, standbyReads: reads, waits, fallbacks, readP50Ms: quantile(readMs, 0.5), readP99Ms: quantile(readMs, 0.99), seconds: elapsed },
      failures,
    };
  } finally {
    await writer.stop();
    await reader.stop();
  }
}

/**
 * 90 % GET / 10 % PATCH of random nodes at a fixed rate through two processes reading from the
 * standby, against the same PATCHes alone through two processes on the primary with the standby
 * stopped: what reaches the primary's tables beyond what the writes make, and the primary's CPU
 * per write (every process of its cluster; the standby's run apart).
 */
async function mixRow(ctx: BenchContext, primary: LocalCluster, standby: LocalCluster): Promise<Row> {
  const quick = ctx.sizes.nodes < 100_000;
  const nodes = quick ? 1_000 : 10_000;
  const rate = quick ? 100 : 500;
  const windowSeconds = quick ? 3 : 20;
  const observer = pgKnex(primary.url);
  let failures = 0;
  try {
    // The standby must find the WAL of the writes-only phase when it starts again.
    await observer.raw("ALTER SYSTEM SET wal_keep_size = '1GB'");
    await observer.raw('SELECT pg_reload_conf()');
    const loader = await topocat(ctx, 'replicas-loader', primary);
    await load(ctx, loader, 'mix', nodes);
    await loader.stop();

    const phase = async (servers: readonly Measured[], getShare: number, token?: string): Promise<{ writes: number; gets: number; cpu: number; tableReads: number }> => {
      let writes = 0;
      let gets = 0;
      let n = 0;
      const reads0 = await settledTableReads(ctx, observer);
      const cpu0 = clusterCpu(primary);
      const result = await openLoop({
        clients: 16,
        rate: rate * (getShare > 0 ? 1 : 0.1),
        seconds: windowSeconds,
        url: (client) => servers[client % servers.length]!.url,
        next: () => {
          const id = `mix-${Math.floor(Math.random() * nodes)}`;
          const headers = token === undefined ? ctx.auth : { ...ctx.auth, 'consistency-token': token };
          if (getShare > 0 && n++ % 10 !== 0) return { method: 'GET', path: `/nodes/${id}`, headers, expect: (s) => s === 200, done: () => void gets++ };
          return { method: 'PATCH', path: `/nodes/${id}`, headers: { ...ctx.auth, 'content-type': 'application/json' }, body: JSON.stringify({ description: `d${n}` }), expect: (s) => s === 200, done: () => void writes++ };
        },
      });
      const cpu = clusterCpu(primary) - cpu0;
      failures += result.failures;
      return { writes, gets, cpu, tableReads: (await settledTableReads(ctx, observer)) - reads0 };
    };

    ctx.log('replicas: writes alone, the standby stopped');
    await standby.stop();
    const alone = await Promise.all([topocat(ctx, 'replicas-alone-a', primary), topocat(ctx, 'replicas-alone-b', primary)]);
    const baseline = await phase(alone, 0);
    await Promise.all(alone.map((s) => s.stop()));

    ctx.log('replicas: 90 % GET / 10 % writes, reads from the standby');
    await standby.start();
    const mixed = await Promise.all([topocat(ctx, 'replicas-mix-a', primary, standby), topocat(ctx, 'replicas-mix-b', primary, standby)]);
    const before = await Promise.all(mixed.map((s) => standbyCounts(s, ctx.auth)));
    const mix = await phase(mixed, 0.9);
    const after = await Promise.all(mixed.map((s) => standbyCounts(s, ctx.auth)));
    // The same with every GET sending a consistency token (as the SDK's do once they wrote): no question to the primary.
    ctx.log('replicas: the same, each GET with a consistency token');
    const written = await fetch(`${mixed[0]!.url}/nodes/mix-0`, { method: 'PATCH', headers: { ...ctx.auth, 'content-type': 'application/json' }, body: JSON.stringify({ description: 'token' }) });
    await written.arrayBuffer();
    const tokened = await phase(mixed, 0.9, written.headers.get('consistency-token') ?? undefined);
    await Promise.all(mixed.map((s) => s.stop()));

    const standbyReads = after.reduce((sum, f, i) => sum + f.reads - before[i]!.reads, 0);
    const fallbacks = after.reduce((sum, f, i) => sum + f.fallbacks - before[i]!.fallbacks, 0);
    // What the writes alone make the primary read, per write, scaled to the mix's writes: the rest is GETs that reached it.
    const writesOwn = (baseline.tableReads / Math.max(1, baseline.writes)) * mix.writes;
    const getsOnPrimary = Math.max(0, mix.tableReads - writesOwn);
    const share = getsOnPrimary / Math.max(1, mix.gets);
    const cpuBase = (baseline.cpu / Math.max(1, baseline.writes)) * 1e6;
    const cpuMix = (mix.cpu / Math.max(1, mix.writes)) * 1e6;
    const cpuRatio = cpuMix / cpuBase;
    const cpuTokened = (tokened.cpu / Math.max(1, tokened.writes)) * 1e6;
    return {
      row: `Standbys: ${rate} requests/s, 90 % GET / 10 % PATCH of ${count(nodes)} nodes through two processes reading from one standby, against the PATCHes alone without a standby (${windowSeconds} s each)`,
      result:
        `GETs that reached the primary: ${(share * 100).toFixed(2)} % of ${count(mix.gets)} (its table reads ${count(mix.tableReads)} against ${count(Math.round(writesOwn))} for the writes alone); ` +
        `served by the standby ${count(standbyReads)}, by the primary after waiting ${count(fallbacks)}; primary CPU per write ${cpuMix.toFixed(0)} µs against ${cpuBase.toFixed(0)} µs alone (${ratio(cpuRatio)}×; ${count(mix.writes)} and ${count(baseline.writes)} writes); ` +
        `with a consistency token on every GET ${cpuTokened.toFixed(0)} µs (${ratio(cpuTokened / cpuBase)}×)`,
      target: '≤ 2 % of the GETs reach the primary; primary CPU per write ≤ 1.05×',
      met: share <= 0.02 && cpuRatio <= 1.05,
      figures: {
        gets: mix.gets, writes: mix.writes, getsOnPrimaryShare: share, standbyReads, fallbacks,
        primaryCpuPerWriteUs: cpuMix, primaryCpuPerWriteAloneUs: cpuBase, cpuRatio, primaryCpuPerWriteTokenedUs: cpuTokened, cpuRatioTokened: cpuTokened / cpuBase,
      },
      failures,
    };
  } finally {
    await observer.destroy();
  }
}

/** One event-stream subscriber (`GET /nodes`, text/event-stream): the ids it received, each with when. */
class Subscriber {
  readonly ids: string[] = [];
  readonly at = new Map<string, number>();
  private response: IncomingMessage | undefined;
  private buffer = '';

  static open(ctx: BenchContext, url: string, lastEventId?: string, into?: Subscriber): Promise<Subscriber> {
    const subscriber = into ?? new Subscriber();
    return new Promise((resolve, reject) => {
      const req = httpRequest(`${url}/nodes`, { headers: { ...ctx.auth, accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) }, agent: false }, (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`subscribe: ${res.statusCode}`));
          return;
        }
        subscriber.response = res;
        subscriber.buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => subscriber.take(chunk));
        res.on('error', () => undefined);
        resolve(subscriber);
      });
      req.on('error', reject);
      req.end();
    });
  }

  private take(chunk: string): void {
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const id = /^id: ?(.*)$/m.exec(block)?.[1];
      const data = /^data: ?(.*)$/m.exec(block)?.[1];
      if (id === undefined || data === undefined) continue;
      this.ids.push(id);
      const node = (JSON.parse(data) as { id?: string }).id;
      if (node !== undefined && !this.at.has(node)) this.at.set(node, performance.now());
    }
  }

  close(): void {
    this.response?.destroy();
  }
}

/**
 * 1,000 subscribers of a process that reads from the standby and 100 of a process that does not,
 * while writes go through a third, one every 20 ms: the delay from each write's answer to its
 * event at each subscriber; halfway, the standby-side process is killed (SIGKILL) and started
 * again, and its subscribers resume with Last-Event-ID. Every subscriber must end with the
 * primary-side subscribers' sequence, each event once, in order.
 */
async function subscribersRow(ctx: BenchContext, primary: LocalCluster, standby: LocalCluster): Promise<Row> {
  const quick = ctx.sizes.nodes < 100_000;
  const standbySide = quick ? 50 : 1_000;
  const primarySide = quick ? 10 : 100;
  const writes = quick ? 40 : 400;
  const env = { MAX_SUBSCRIBERS: String(standbySide + 100) };
  const writer = await topocat(ctx, 'replicas-feed-writer', primary);
  const onPrimary = await topocat(ctx, 'replicas-feed-primary', primary, undefined, env);
  let onStandby = await topocat(ctx, 'replicas-feed-standby', primary, standby, env);
  let failures = 0;
  const near: Subscriber[] = [];
  const far: Subscriber[] = [];
  try {
    for (let i = 0; i < primarySide; i++) near.push(await Subscriber.open(ctx, onPrimary.url));
    for (let i = 0; i < standbySide; i++) far.push(await Subscriber.open(ctx, onStandby.url));
    const acknowledged = new Map<string, number>();
    const agent = keepAliveAgent(1);
    let killed = false;
    for (let i = 0; i < writes; i++) {
      if (i === writes / 2) {
        // The standby-side process dies; a new one starts; its subscribers resume where they stopped.
        process.kill(onStandby.pid, 'SIGKILL');
        await onStandby.stop();
        onStandby = await topocat(ctx, 'replicas-feed-standby-2', primary, standby, env);
        killed = true;
        await Promise.all(
          far.map(async (subscriber) => {
            subscriber.close();
            await Subscriber.open(ctx, onStandby.url, subscriber.ids.at(-1), subscriber);
          }),
        );
      }
      const id = `feed-${i}`;
      const answer = await timedRequest(agent, new URL(`${writer.url}/nodes`), { method: 'POST', headers: { ...ctx.auth, 'content-type': 'application/json' }, body: JSON.stringify({ id, name: id }) });
      if (answer.status !== 201) failures++;
      acknowledged.set(id, performance.now());
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    agent.destroy();
    const done = (s: Subscriber): boolean => s.at.has(`feed-${writes - 1}`);
    const deadline = performance.now() + 30_000;
    while ([...near, ...far].some((s) => !done(s)) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const reference = near[0]!.ids;
    let wrong = 0;
    for (const subscriber of [...near, ...far]) {
      if (subscriber.ids.length !== reference.length || subscriber.ids.some((id, i) => id !== reference[i])) wrong++;
    }
    const delays = (side: readonly Subscriber[], from: number): number[] =>
      side.flatMap((s) => [...acknowledged].filter(([, t], i) => i >= from && t > 0).map(([id, t]) => (s.at.get(id) ?? Number.NaN) - t)).filter((d) => Number.isFinite(d)).sort((a, b) => a - b);
    // Before the kill: the steady state of both sides.
    const nearDelays = delays(near, 0);
    const farDelays = delays(far, 0);
    const added = quantile(farDelays, 0.5) - quantile(nearDelays, 0.5);
    failures += wrong;
    return {
      row: `Standbys: ${count(standbySide)} event-stream subscribers of a process reading from the standby, ${count(primarySide)} of one that does not; ${count(writes)} writes through a third, one every 20 ms; the standby-side process killed and restarted halfway`,
      result: `${count(wrong)} subscribers whose events differ from the primary side's (${count(reference.length)} events, each once, in order${killed ? ', resumed with Last-Event-ID' : ''}); write answer → event p50 ${ms(quantile(farDelays, 0.5))} on the standby side, ${ms(quantile(nearDelays, 0.5))} on the primary side (+${ms(added)}); p99 ${ms(quantile(farDelays, 0.99))} and ${ms(quantile(nearDelays, 0.99))}`,
      target: 'every event once, in order, across the kill; p50 added delay ≤ 20 ms',
      met: wrong === 0 && added <= 20,
      figures: { subscribers: standbySide, events: reference.length, wrong, standbyP50Ms: quantile(farDelays, 0.5), primaryP50Ms: quantile(nearDelays, 0.5), addedP50Ms: added },
      failures,
    };
  } finally {
    for (const subscriber of [...near, ...far]) subscriber.close();
    await writer.stop();
    await onPrimary.stop();
    await onStandby.stop();
  }
}

/** The standby stopped, then started again, under a GET load of a process that reads from it. */
async function outageRow(ctx: BenchContext, primary: LocalCluster, standby: LocalCluster): Promise<Row> {
  const quick = ctx.sizes.nodes < 100_000;
  const server = await topocat(ctx, 'replicas-outage', primary, standby, { READ_CACHE_MB: '0' });
  const observer = pgKnex(standby.url);
  const onPrimary = pgKnex(primary.url);
  try {
    await load(ctx, server, 'outage', 100);
    const loadSeconds = quick ? 8 : 16;
    const running = openLoop({ clients: 8, rate: 200, seconds: loadSeconds, url: () => server.url, next: () => ({ method: 'GET', path: `/nodes/outage-${Math.floor(Math.random() * 100)}`, headers: ctx.auth, expect: (s) => s === 200 }) });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await standby.stop();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await standby.start();
    // Caught up: it has replayed what the primary had written when it came back.
    const target = ((await onPrimary.raw('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0] as { lsn: string }).lsn;
    for (;;) {
      const { rows } = (await observer.raw('SELECT pg_last_wal_replay_lsn() >= ?::pg_lsn AS done', [target])) as { rows: { done: boolean }[] };
      if (rows[0]?.done) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const caughtUp = performance.now();
    const reads = (await standbyCounts(server, ctx.auth)).reads;
    let back = Number.NaN;
    while (performance.now() - caughtUp < 10_000) {
      if ((await standbyCounts(server, ctx.auth)).reads > reads) {
        back = (performance.now() - caughtUp) / 1000;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const result = await running;
    const figures = await standbyCounts(server, ctx.auth);
    return {
      row: 'Standbys: the standby stopped for 2 s, then started again, under 200 GET/s of a process that reads from it',
      result: `${count(result.failures)} failed of ${count(result.answered)}; reads back on the standby ${Number.isNaN(back) ? 'never (10 s)' : seconds(back)} after it caught up; ${count(figures.fallbacks)} reads served by the primary meanwhile`,
      target: '0 failed requests; back on the standby within 3 s of its catching up',
      met: result.failures === 0 && back <= 3,
      figures: { failed: result.failures, answered: result.answered, backSeconds: back, fallbacks: figures.fallbacks },
      failures: result.failures,
    };
  } finally {
    await observer.destroy();
    await onPrimary.destroy();
    await server.stop();
  }
}

export async function replicaRows(ctx: BenchContext): Promise<Row[]> {
  const rows: Row[] = [];
  ctx.log('replicas: a private primary and a standby 200 ms behind');
  const primary = await createCluster();
  let standby: LocalCluster | undefined;
  try {
    await primary.start();
    standby = await createStandby(primary, [APPLY_DELAY]);
    await standby.start();
    rows.push(await pairsRow(ctx, primary, standby));
    // The other rows on a standby that applies as soon as it receives, as one is run.
    await standby.destroy();
    standby = await createStandby(primary);
    await standby.start();
    ctx.log('replicas: 90/10 mix');
    rows.push(await mixRow(ctx, primary, standby));
    ctx.log('replicas: subscribers');
    rows.push(await subscribersRow(ctx, primary, standby));
    ctx.log('replicas: the standby stopped under load');
    rows.push(await outageRow(ctx, primary, standby));
  } finally {
    await standby?.destroy();
    await primary.destroy();
  }
  return rows;
}
