/**
 * The PostgreSQL rows (docs/scaling.md): the REST rows of SQLite on PostgreSQL, side by side with
 * SQLite in the same run, with the CPU of topocat *and* of the PostgreSQL backends that serve it
 * per request; POST flat out with one and with two server processes on one database; and how
 * often the backends of 16 writers across two processes wait on a lock. The server is the one
 * TEST_DATABASE_URL names (as for the tests), in a schema of the run's own.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import WebSocket from 'ws';
import type { BenchContext } from '../harness/context.js';
import { cpuPerRequest, type CpuPerRequest, type FixedRateOptions } from '../harness/cpu.js';
import { latency } from '../harness/load.js';
import { benchPostgres, type BenchPostgres } from '../harness/postgres.js';
import type { Measured } from '../harness/processes.js';
import { count, mib, ms, ratio, seconds, type Row } from '../harness/report.js';
import { streamList } from '../harness/stream.js';
import { startTopocat } from '../harness/topocat.js';
import { DN } from '../workloads/catalog.js';
import { INSTITUTIONS, institution, newNode, node, nodeId, nodeName, randomNodePaths } from '../workloads/topology.js';
import { median } from '../harness/stats.js';

/** The fixed rate of the CPU rows: the issue's 500 requests a second, well within both engines. */
const RATE = { rate: 500, connections: 8 } as const;
const ARRAY = 1_000;
/** Application names: each server process's sessions are told apart in pg_stat_activity by them. */
const APP = 'topocat-bench';

interface Side {
  readonly label: string;
  readonly server: Measured;
  /** CPU seconds of its database backends so far (PostgreSQL), for cpuPerRequest. */
  readonly database?: () => Promise<number>;
}

const micros = (n: number): string => `${n.toFixed(0)} µs`;

async function load(ctx: BenchContext, server: Measured): Promise<{ perSecond: number; failures: number }> {
  let failures = 0;
  const started = performance.now();
  for (let first = 0; first < ctx.sizes.nodes; first += ARRAY) {
    const batch = Array.from({ length: Math.min(ARRAY, ctx.sizes.nodes - first) }, (_, k) => node(first + k));
    const response = await fetch(`${server.url}/nodes`, { method: 'POST', headers: { ...ctx.auth, 'content-type': 'application/json' }, body: JSON.stringify(batch) });
    await response.arrayBuffer();
    if (response.status !== 201) failures++;
  }
  return { perSecond: ctx.sizes.nodes / ((performance.now() - started) / 1000), failures };
}

/**
 * CPU per request of each side at the same fixed rate, in alternation (SQLite first), `rounds`
 * times; the medians count, and PostgreSQL's backends count with PostgreSQL's side.
 */
async function sideBySide(ctx: BenchContext, sqlite: Side, postgres: Side, request: Omit<FixedRateOptions, 'url' | 'pid' | 'database' | 'seconds' | 'rate' | 'connections'>): Promise<{ sqlite: CpuPerRequest[]; postgres: CpuPerRequest[] }> {
  const out = { sqlite: [] as CpuPerRequest[], postgres: [] as CpuPerRequest[] };
  for (let round = 0; round < ctx.sizes.cpuRounds; round++) {
    for (const [side, list] of [[sqlite, out.sqlite], [postgres, out.postgres]] as const) {
      list.push(await cpuPerRequest({ ...request, ...RATE, seconds: ctx.sizes.cpuSeconds, url: side.server.url, pid: side.server.pid, ...(side.database ? { database: side.database } : {}) }));
    }
  }
  return out;
}

function cpuRatioRow(what: string, result: { sqlite: CpuPerRequest[]; postgres: CpuPerRequest[] }, limit: number, local: boolean): Row {
  const lite = median(result.sqlite.map((r) => r.microseconds));
  const pg = median(result.postgres.map((r) => r.microseconds));
  const backends = median(result.postgres.map((r) => r.databaseMicroseconds));
  const r = median(result.postgres.map((p, i) => p.microseconds / result.sqlite[i]!.microseconds));
  const served = Math.min(...[...result.sqlite, ...result.postgres].map((x) => x.requestsPerSecond));
  return {
    row: `${what} at ${count(RATE.rate)} req/s offered, ${RATE.connections} connections: CPU per request, PostgreSQL (topocat + every PostgreSQL process) vs SQLite`,
    result: local
      ? `PostgreSQL ${micros(pg)} (${micros(pg - backends)} topocat + ${micros(backends)} PostgreSQL); SQLite ${micros(lite)}; ${ratio(r)}× (lowest rate served ${count(served)}/s)`
      : `PostgreSQL ${micros(pg)} topocat only (the server is not on this machine: its CPU not counted); SQLite ${micros(lite)}`,
    target: `≤ ${limit}×`,
    met: local ? r <= limit : undefined,
    figures: { postgresMicroseconds: pg, postgresBackendMicroseconds: backends, sqliteMicroseconds: lite, ratio: r, servedRate: served },
    failures: [...result.sqlite, ...result.postgres].reduce((sum, x) => sum + x.failures, 0),
  };
}

/** Requests a second flat out over `connections` in all, shared evenly by `servers`, at once. */
async function flatOut(ctx: BenchContext, servers: readonly Measured[], connections: number, request: (server: Measured) => autocannon.Options): Promise<{ rate: number; failures: number }> {
  const run = (seconds: number) =>
    Promise.all(servers.map((server) => autocannon({ ...request(server), connections: connections / servers.length, duration: seconds })));
  await run(Math.min(3, Math.max(1, ctx.sizes.throughputSeconds / 4)));
  const results = await run(ctx.sizes.throughputSeconds);
  return {
    rate: results.reduce((sum, r) => sum + r.requests.total / r.duration, 0),
    failures: results.reduce((sum, r) => sum + r.errors + r.timeouts + r.non2xx, 0),
  };
}

function postRequest(ctx: BenchContext): (server: Measured) => autocannon.Options {
  const body = JSON.stringify(newNode());
  return (server) => ({ url: `${server.url}/nodes`, method: 'POST', headers: { ...ctx.auth, 'content-type': 'application/json' }, body });
}

/** Half POSTs of a new node, half merge-PATCHes of a random loaded node (the issue's mixed writers). */
function mixedWrites(ctx: BenchContext): (server: Measured) => autocannon.Options {
  const body = JSON.stringify(newNode());
  return (server) => {
    let i = 0;
    return {
      url: server.url,
      headers: ctx.auth,
      requests: [
        {
          setupRequest: (req) => {
            if (i++ % 2 === 0) return { ...req, method: 'POST', path: '/nodes', headers: { ...req.headers, 'content-type': 'application/json' }, body };
            const id = nodeId(Math.floor(Math.random() * ctx.sizes.nodes));
            return { ...req, method: 'PATCH', path: `/nodes/${id}`, headers: { ...req.headers, 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ description: `patched ${i}` }) };
          },
        },
      ],
    };
  };
}

function lockRow(samples: { active: number; waitingOnLock: number; events: Readonly<Record<string, number>> }, rate: number, failures: number): Row {
  const share = samples.active === 0 ? 0 : samples.waitingOnLock / samples.active;
  const events = Object.entries(samples.events).map(([name, n]) => `${name} ${count(n)}`).join(', ');
  return {
    row: 'PostgreSQL: 16 writers (POST and merge-PATCH of single nodes) across 2 server processes: active backend samples waiting on a Lock (pg_stat_activity every 10 ms)',
    result: `${ratio(share * 100)} % (${count(samples.waitingOnLock)} of ${count(samples.active)}${events ? `: ${events}` : ''}); ${count(rate)} writes/s`,
    target: '< 10 %',
    met: share < 0.1,
    figures: { lockWaitPercent: share * 100, activeSamples: samples.active, lockSamples: samples.waitingOnLock, writesPerSecond: rate },
    failures,
  };
}

async function streamLatency(ctx: BenchContext, writer: Measured, reader: Measured): Promise<Row> {
  const writes = ctx.sizes.subscriptionWrites;
  const arrived = new Map<string, number>();
  const ws = new WebSocket(`${reader.url.replace(/^http/, 'ws')}/subscribe/nodes`, { headers: ctx.auth, perMessageDeflate: false });
  ws.on('message', (data) => arrived.set((JSON.parse(data.toString()) as { headers: { id: string } }).headers.id, performance.now()));
  await new Promise<void>((resolve, reject) => ws.once('open', () => resolve()).once('error', reject));
  const samples: number[] = [];
  let failures = 0;
  try {
    // One write first, not timed: the writer announces its commits once it has heard that the
    // other process has a subscriber (a NOTIFY away); a change before that comes with the
    // subscriber's feed's next poll, within a second.
    const warm = await fetch(`${writer.url}/nodes`, { method: 'POST', headers: { ...ctx.auth, 'content-type': 'application/json' }, body: JSON.stringify({ id: 'pg-latency-warm', name: 'warm' }) });
    await warm.arrayBuffer();
    const until = performance.now() + 5_000;
    while (!arrived.has('pg-latency-warm') && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 5));
    for (let i = 0; i < writes; i++) {
      const id = `pg-latency-${i}`;
      const sent = performance.now();
      const response = await fetch(`${writer.url}/nodes`, { method: 'POST', headers: { ...ctx.auth, 'content-type': 'application/json' }, body: JSON.stringify({ id, name: id }) });
      await response.arrayBuffer();
      if (response.status !== 201) failures++;
      const deadline = performance.now() + 10_000;
      while (!arrived.has(id) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 0));
      const at = arrived.get(id);
      if (at === undefined) failures++;
      else samples.push(at - sent);
    }
  } finally {
    ws.terminate();
  }
  samples.sort((a, b) => a - b);
  const p50 = samples[Math.floor(samples.length * 0.5)] ?? Number.NaN;
  const p99 = samples[Math.min(samples.length - 1, Math.floor(samples.length * 0.99))] ?? Number.NaN;
  return {
    row: `PostgreSQL: from a write's request through one process to its frame at a WebSocket subscriber of another (${count(writes)} writes, one at a time)`,
    result: `p50 ${ms(p50)}, p99 ${ms(p99)}`,
    target: 'report',
    met: undefined,
    figures: { p50Ms: p50, p99Ms: p99 },
    failures,
  };
}

async function listRow(ctx: BenchContext, server: Measured): Promise<Row> {
  const { seconds: elapsed, items, status, rssBaseline, rssPeak } = await streamList(server, '/nodes', ctx.auth);
  const growth = rssPeak - rssBaseline;
  return {
    row: `PostgreSQL: REST list of all ${count(ctx.sizes.nodes)} nodes (streamed)`,
    result: `${seconds(elapsed)}; server RSS growth ${mib(growth)}`,
    target: '< 1 s, < 50 MiB growth',
    met: elapsed < 1 && growth < 50 * 2 ** 20,
    figures: { seconds: elapsed, rssGrowthBytes: growth },
    failures: status === 200 && items === ctx.sizes.nodes ? 0 : 1,
  };
}

async function queryRows(ctx: BenchContext, server: Measured): Promise<Row[]> {
  const lengthIs = (n: number) => (body: string) => (JSON.parse(body) as unknown[]).length === n;
  const byName = await latency({ url: server.url, headers: ctx.auth, seconds: ctx.sizes.latencySeconds, path: () => `/nodes?name=${nodeName(Math.floor(Math.random() * ctx.sizes.nodes))}`, check: lengthIs(1) });
  const perInstitution = Math.floor(ctx.sizes.nodes / INSTITUTIONS);
  const byInstitution = await latency({ url: server.url, headers: ctx.auth, seconds: ctx.sizes.latencySeconds, path: (i) => `/nodes?location.institution=${institution(i)}&limit=100`, check: lengthIs(Math.min(100, perInstitution)) });
  return [
    ['?name=X', byName],
    ['?location.institution=Y&limit=100', byInstitution],
  ].map(([query, l]) => {
    const result = l as typeof byName;
    return {
      row: `PostgreSQL: REST query \`${query as string}\` over ${count(ctx.sizes.nodes)} nodes (one client, back to back)`,
      result: `p50 ${ms(result.p50)}, p99 ${ms(result.p99)} (${count(result.count)} queries)`,
      target: 'p50 < 5 ms',
      met: result.p50 < 5,
      figures: { p50Ms: result.p50, p99Ms: result.p99 },
      failures: result.failures,
    };
  });
}

async function withServers<T>(ctx: BenchContext, pg: BenchPostgres, work: (sqlite: Side, postgres: Side, second: Side) => Promise<T>): Promise<T> {
  const dir = path.join(ctx.dir, 'postgres');
  mkdirSync(dir, { recursive: true });
  const started: Measured[] = [];
  try {
    const sqliteServer = await startTopocat({ dir, token: ctx.token, dn: DN, label: 'topocat-sqlite-side' });
    started.push(sqliteServer);
    const first = await startTopocat({ dir, token: ctx.token, dn: DN, label: 'topocat-postgres-a', databaseUrl: pg.url(`${APP}-a`) });
    started.push(first);
    const second = await startTopocat({ dir, token: ctx.token, dn: DN, label: 'topocat-postgres-b', databaseUrl: pg.url(`${APP}-b`) });
    started.push(second);
    return await work(
      { label: 'sqlite', server: sqliteServer },
      // Every PostgreSQL process counts (rows run one side at a time): the WAL writer, the
      // checkpointer and autovacuum work for topocat's requests as much as its backends do.
      { label: 'postgres', server: first, database: () => pg.serverCpu() },
      { label: 'postgres-b', server: second, database: () => pg.serverCpu() },
    );
  } finally {
    for (const server of started.reverse()) await server.stop();
  }
}

export async function postgresRows(ctx: BenchContext): Promise<Row[]> {
  const pg = await benchPostgres();
  try {
    return await withServers(ctx, pg, async (sqlite, postgres, second) => {
      const rows: Row[] = [];
      ctx.log(`postgres: loading ${count(ctx.sizes.nodes)} nodes into SQLite and PostgreSQL`);
      const liteLoad = await load(ctx, sqlite.server);
      const pgLoad = await load(ctx, postgres.server);
      rows.push({
        row: `PostgreSQL: REST POST an array of ${count(ARRAY)} nodes (${count(ctx.sizes.nodes)} loaded, one request at a time)`,
        result: `${count(pgLoad.perSecond)} nodes/s; SQLite ${count(liteLoad.perSecond)} nodes/s`,
        target: 'report',
        met: undefined,
        figures: { postgresNodesPerSecond: pgLoad.perSecond, sqliteNodesPerSecond: liteLoad.perSecond },
        failures: liteLoad.failures + pgLoad.failures,
      });

      ctx.log('postgres: CPU per GET, side by side with SQLite; queries and the list');
      const paths = randomNodePaths(ctx.sizes.nodes);
      rows.push(cpuRatioRow('REST GET one node (random)', await sideBySide(ctx, sqlite, postgres, { paths, headers: ctx.auth }), 2, pg.local));
      rows.push(...(await queryRows(ctx, postgres.server)));
      rows.push(await listRow(ctx, postgres.server));

      ctx.log('postgres: CPU per POST, side by side with SQLite');
      const post = { method: 'POST' as const, paths: ['/nodes'], headers: { ...ctx.auth, 'content-type': 'application/json' }, body: JSON.stringify(newNode()) };
      rows.push(cpuRatioRow('REST POST one node', await sideBySide(ctx, sqlite, postgres, post), 2, pg.local));

      ctx.log('postgres: GET and POST flat out, one process and two');
      const get = (server: Measured): autocannon.Options => {
        let i = 0;
        return { url: server.url, headers: ctx.auth, requests: [{ setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length]! }) }] };
      };
      const getOne = await flatOut(ctx, [postgres.server], 16, get);
      const getLite = await flatOut(ctx, [sqlite.server], 16, get);
      rows.push({
        row: 'PostgreSQL: REST GET one node (16 connections, flat out), one process',
        result: `${count(getOne.rate)} req/s; SQLite ${count(getLite.rate)} req/s`,
        target: 'report',
        met: undefined,
        figures: { postgresRequestsPerSecond: getOne.rate, sqliteRequestsPerSecond: getLite.rate },
        failures: getOne.failures + getLite.failures,
      });
      // One process and two in alternation, cpuRounds times: on a shared machine a single pair of
      // runs swung from 0.54 to 1.40 (scratch, load average 8); the median ratio of the pairs counts.
      const ones: { rate: number; failures: number }[] = [];
      const twos: { rate: number; failures: number }[] = [];
      for (let round = 0; round < ctx.sizes.cpuRounds; round++) {
        ones.push(await flatOut(ctx, [postgres.server], 16, postRequest(ctx)));
        twos.push(await flatOut(ctx, [postgres.server, second.server], 16, postRequest(ctx)));
      }
      const lite = await flatOut(ctx, [sqlite.server], 16, postRequest(ctx));
      const one = median(ones.map((r) => r.rate));
      const two = median(twos.map((r) => r.rate));
      const pairs = median(twos.map((r, i) => r.rate / ones[i]!.rate));
      rows.push({
        row: `PostgreSQL: REST POST one node (16 connections, flat out): two server processes on one database vs one (median of ${count(ctx.sizes.cpuRounds)} alternating pairs)`,
        result: `${count(two)} vs ${count(one)} nodes/s; ratio ${ratio(pairs)} (SQLite, one process: ${count(lite.rate)} nodes/s)`,
        target: 'ratio ≥ 1.0',
        met: pairs >= 1,
        figures: { twoProcessesPerSecond: two, oneProcessPerSecond: one, ratio: pairs, sqlitePerSecond: lite.rate },
        failures: [...ones, ...twos, lite].reduce((sum, r) => sum + r.failures, 0),
      });

      ctx.log('postgres: lock waits of 16 writers across two processes');
      const stop = pg.sampleLocks(APP);
      const mixed = await flatOut(ctx, [postgres.server, second.server], 16, mixedWrites(ctx));
      rows.push(lockRow(await stop(), mixed.rate, mixed.failures));

      ctx.log('postgres: a change from one process to a subscriber of another');
      rows.push(await streamLatency(ctx, postgres.server, second.server));
      return rows;
    });
  } finally {
    await pg.close();
  }
}
