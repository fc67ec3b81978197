/**
 * The REST rows: loading (POST arrays), GET one node against the bare-Koa ceiling, the two
 * attribute queries, the list of every node, and single POSTs. They share one server and one
 * data set, in this order, so reads see exactly the loaded nodes.
 */
import { writeFileSync } from 'node:fs';
import { streamList } from '../harness/stream.js';
import path from 'node:path';
import type { BenchContext } from '../harness/context.js';
import { CPU_LOAD } from '../harness/context.js';
import { compareCpu } from '../harness/cpu.js';
import { cpuRow } from '../harness/cpu-row.js';
import { latency, throughput } from '../harness/load.js';
import type { Measured } from '../harness/processes.js';
import { count, mib, ms, ratio, seconds, type Row } from '../harness/report.js';
import { startPeer } from '../harness/topocat.js';
import { INSTITUTIONS, institution, newNode, node, nodeName, randomNodePaths } from '../workloads/topology.js';

const ARRAY = 1_000;

async function loadNodes(ctx: BenchContext, server: Measured): Promise<Row> {
  let failures = 0;
  const started = performance.now();
  for (let first = 0; first < ctx.sizes.nodes; first += ARRAY) {
    const batch = Array.from({ length: Math.min(ARRAY, ctx.sizes.nodes - first) }, (_, k) => node(first + k));
    const response = await fetch(`${server.url}/nodes`, { method: 'POST', headers: { ...ctx.auth, 'content-type': 'application/json' }, body: JSON.stringify(batch) });
    await response.arrayBuffer();
    if (response.status !== 201) failures++;
  }
  const elapsed = (performance.now() - started) / 1000;
  const perSecond = ctx.sizes.nodes / elapsed;
  return {
    row: `REST POST an array of ${count(ARRAY)} nodes (${count(ctx.sizes.nodes)} loaded, one request at a time)`,
    result: `${count(perSecond)} nodes/s (${seconds(elapsed)} in all)`,
    target: 'report',
    met: undefined,
    figures: { nodesPerSecond: perSecond, seconds: elapsed },
    failures,
  };
}

/**
 * GET one node against the bare-Koa ceiling: server CPU per request at a fixed rate (the
 * headline), and requests per second flat out.
 */
async function getOne(ctx: BenchContext, server: Measured): Promise<Row[]> {
  const paths = randomNodePaths(ctx.sizes.nodes);
  // The ceiling serves the very bytes and Content-Type topocat answers with.
  const sample = await fetch(`${server.url}${paths[0]}`, { headers: ctx.auth });
  const bodyFile = path.join(ctx.dir, 'ceiling-node.json');
  writeFileSync(bodyFile, await sample.text());
  const ceiling = await startPeer(ctx.dir, 'bare-koa', { PEER_BODY_FILE: bodyFile, PEER_CONTENT_TYPE: sample.headers.get('content-type') ?? 'application/json' }, paths[0]!);
  const what = `REST GET one node (random of ${count(ctx.sizes.nodes)}), SQLite, full middleware (access log, bearer token, ETag)`;
  try {
    const fixed = { paths, seconds: ctx.sizes.cpuSeconds, ...CPU_LOAD };
    const cpu = await compareCpu({ ...fixed, url: ceiling.url, pid: ceiling.pid }, { ...fixed, url: server.url, pid: server.pid, headers: ctx.auth }, ctx.sizes.cpuRounds);
    const bare = await throughput({ url: ceiling.url, paths, seconds: ctx.sizes.throughputSeconds });
    const ours = await throughput({ url: server.url, paths, headers: ctx.auth, seconds: ctx.sizes.throughputSeconds });
    const r = ours.requestsPerSecond / bare.requestsPerSecond;
    return [
      // Issue 37's target (it was 0.6).
      cpuRow(`${what}: server CPU per request`, 'bare Koa + router, same bytes from memory', cpu, 0.85, ctx),
      {
        row: `${what}: requests per second (16 connections, flat out)`,
        result: `${count(ours.requestsPerSecond)} req/s; bare Koa from memory ${count(bare.requestsPerSecond)} req/s; ratio ${ratio(r)}`,
        target: 'report',
        met: undefined,
        figures: { requestsPerSecond: ours.requestsPerSecond, ceilingRequestsPerSecond: bare.requestsPerSecond, ratio: r },
        failures: ours.failures + bare.failures,
      },
    ];
  } finally {
    await ceiling.stop();
  }
}

function lengthIs(expected: number): (body: string) => boolean {
  return (body) => (JSON.parse(body) as unknown[]).length === expected;
}

async function queries(ctx: BenchContext, server: Measured): Promise<Row[]> {
  const byName = await latency({
    url: server.url,
    headers: ctx.auth,
    seconds: ctx.sizes.latencySeconds,
    path: () => `/nodes?name=${nodeName(Math.floor(Math.random() * ctx.sizes.nodes))}`,
    check: lengthIs(1),
  });
  const perInstitution = Math.floor(ctx.sizes.nodes / INSTITUTIONS);
  const byInstitution = await latency({
    url: server.url,
    headers: ctx.auth,
    seconds: ctx.sizes.latencySeconds,
    path: (i) => `/nodes?location.institution=${institution(i)}&limit=100`,
    check: lengthIs(Math.min(100, perInstitution)),
  });
  const row = (query: string, l: typeof byName): Row => ({
    row: `REST query \`${query}\` over ${count(ctx.sizes.nodes)} nodes (one client, back to back)`,
    result: `p50 ${ms(l.p50)}, p99 ${ms(l.p99)} (${count(l.count)} queries)`,
    target: 'p50 < 5 ms',
    met: l.p50 < 5,
    figures: { p50Ms: l.p50, p99Ms: l.p99, queries: l.count },
    failures: l.failures,
  });
  return [row('?name=X', byName), row('?location.institution=Y&limit=100', byInstitution)];
}

/**
 * `reg=` (UNIS HEAD's regular expression; dlt-web's exnode search) beside equality on the same
 * field, the same node asked for: one client back to back, the server's CPU per request from
 * /proc. Equality is one lookup in the `name` expression index; no index serves a regular
 * expression, so `reg=` reads every node's name and runs RE2 (re2js, an SQL function on SQLite)
 * on each: its cost grows with the collection, which is the figure to know before pointing a
 * search box at it.
 */
async function regexQuery(ctx: BenchContext, server: Measured): Promise<Row> {
  const pick = (): number => Math.floor(Math.random() * ctx.sizes.nodes);
  const common = { url: server.url, headers: ctx.auth, seconds: ctx.sizes.latencySeconds, pid: server.pid, check: lengthIs(1) };
  const equal = await latency({ ...common, path: () => `/nodes?name=${nodeName(pick())}` });
  const pattern = await latency({ ...common, path: () => `/nodes?name=reg=%5E${nodeName(pick())}%24` });
  const micros = (n: number | undefined): string => (n === undefined ? '?' : `${count(n)} µs`);
  return {
    row: `REST query \`?name=reg=^X$\` over ${count(ctx.sizes.nodes)} nodes beside \`?name=X\` (one client, back to back), SQLite: server CPU per request`,
    result: `reg= ${micros(pattern.cpuMicroseconds)} (p50 ${ms(pattern.p50)}); equality ${micros(equal.cpuMicroseconds)} (p50 ${ms(equal.p50)}); ${ratio((pattern.cpuMicroseconds ?? 0) / (equal.cpuMicroseconds ?? 1))}× (${count(pattern.count)} and ${count(equal.count)} queries)`,
    target: 'report',
    met: undefined,
    figures: { regexMicroseconds: pattern.cpuMicroseconds ?? Number.NaN, equalityMicroseconds: equal.cpuMicroseconds ?? Number.NaN, regexP50Ms: pattern.p50, equalityP50Ms: equal.p50 },
    failures: pattern.failures + equal.failures,
  };
}

/** GET the whole collection, reading it as it streams, and watch the server's memory meanwhile. */
async function listAll(ctx: BenchContext, server: Measured): Promise<Row> {
  const { seconds: elapsed, items, status, rssBaseline: baseline, rssPeak: peak } = await streamList(server, '/nodes', ctx.auth);
  const growth = peak - baseline;
  return {
    row: `REST list of all ${count(ctx.sizes.nodes)} nodes (streamed)`,
    result: `${seconds(elapsed)}; server RSS ${mib(baseline)} → peak ${mib(peak)}, growth ${mib(growth)}`,
    target: '< 1 s, < 50 MiB growth',
    met: elapsed < 1 && growth < 50 * 2 ** 20,
    figures: { seconds: elapsed, rssBaselineBytes: baseline, rssPeakBytes: peak, rssGrowthBytes: growth },
    failures: status === 200 && items === ctx.sizes.nodes ? 0 : 1,
  };
}

async function postOne(ctx: BenchContext, server: Measured): Promise<Row> {
  const result = await throughput({
    url: server.url,
    paths: ['/nodes'],
    method: 'POST',
    headers: { ...ctx.auth, 'content-type': 'application/json' },
    body: JSON.stringify(newNode()),
    seconds: ctx.sizes.throughputSeconds,
  });
  return {
    row: 'REST POST one node (16 connections), SQLite',
    result: `${count(result.requestsPerSecond)} nodes/s`,
    target: '≥ 3,000 nodes/s',
    met: result.requestsPerSecond >= 3_000,
    figures: { nodesPerSecond: result.requestsPerSecond },
    failures: result.failures,
  };
}

export async function restRows(ctx: BenchContext, server: Measured): Promise<Row[]> {
  ctx.log(`loading ${count(ctx.sizes.nodes)} nodes`);
  const load = await loadNodes(ctx, server);
  ctx.log('GET one node, and the bare-Koa ceiling');
  const one = await getOne(ctx, server);
  ctx.log('queries');
  const q = await queries(ctx, server);
  ctx.log('reg= beside equality');
  const regex = await regexQuery(ctx, server);
  ctx.log('list of all nodes');
  const list = await listAll(ctx, server);
  ctx.log('POST one node');
  const post = await postOne(ctx, server);
  return [...one, post, load, ...q, regex, list];
}
