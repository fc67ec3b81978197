/**
 * The rows of the topology as it was (docs/time.md, issue 25): the nodes of the rest rows, each
 * stored in 10 versions (one round of POSTs of every node per version), then 1 % of them changed
 * once more. A list at an instant in the middle of the history against today's list; a read of one
 * node at that instant against a plain read, both without the read cache; what changed while the
 * 1 % did. One server of its own, READ_CACHE_MB=0, on SQLite, then (when TEST_DATABASE_URL names
 * one, as for the postgres group) on PostgreSQL, its backends' CPU counted with the server's.
 */
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import type { BenchContext } from '../harness/context.js';
import { CPU_LOAD } from '../harness/context.js';
import { compareCpu } from '../harness/cpu.js';
import { benchPostgres, postgresUnavailable } from '../harness/postgres.js';
import { cpuRow } from '../harness/cpu-row.js';
import { latency } from '../harness/load.js';
import type { Measured } from '../harness/processes.js';
import { count, mib, ms, ratio, seconds, type Row } from '../harness/report.js';
import { streamList } from '../harness/stream.js';
import { startTopocat } from '../harness/topocat.js';
import { DN } from '../workloads/catalog.js';
import { node, nodeId, randomNodePaths } from '../workloads/topology.js';
import { median } from '../harness/stats.js';

const VERSIONS = 10;
const ARRAY = 1_000;
/** Of the nodes, the share changed between the two instants of the since/until row. */
const CHANGED_SHARE = 0.01;
/** Lists timed of each kind, in alternation; the medians count. */
const LIST_RUNS = 3;

/** POST `ids`' nodes as version `version` (a re-POST of a live id stores a new version); the largest ts stored. */
async function postVersion(ctx: BenchContext, server: Measured, indexes: readonly number[], version: number): Promise<{ newest: number; failures: number }> {
  let newest = 0;
  let failures = 0;
  for (let first = 0; first < indexes.length; first += ARRAY) {
    const batch = indexes.slice(first, first + ARRAY).map((i) => ({ ...node(i), description: `version ${version}` }));
    // A typed Accept: in UNIS form a one-element array is answered with the bare object (rest-contract §4).
    const response = await fetch(`${server.url}/nodes`, { method: 'POST', headers: { ...ctx.auth, 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(batch) });
    const stored = (await response.json()) as { ts: number }[];
    if (response.status !== 201) failures++;
    else for (const r of stored) newest = Math.max(newest, r.ts);
  }
  return { newest, failures };
}

/** GET `path`, reading it as it streams: seconds, items, and the server's peak RSS growth meanwhile. */
async function streamed(ctx: BenchContext, server: Measured, pathAndQuery: string): Promise<{ seconds: number; items: number; status: number; growth: number }> {
  const list = await streamList(server, pathAndQuery, ctx.auth);
  return { seconds: list.seconds, items: list.items, status: list.status, growth: list.rssPeak - list.rssBaseline };
}

export async function timeRows(ctx: BenchContext): Promise<Row[]> {
  const rows = await timeRowsOn(ctx, 'SQLite');
  const why = postgresUnavailable();
  if (why !== undefined) {
    ctx.log(`time: PostgreSQL rows NOT RUN: ${why}`);
    return rows;
  }
  const pg = await benchPostgres();
  try {
    return [...rows, ...(await timeRowsOn(ctx, 'PostgreSQL', { url: pg.url('topocat-time'), cpu: () => pg.backendCpu('topocat-time') }))];
  } finally {
    await pg.close();
  }
}

/** The three rows on one engine: SQLite in the run's directory, or the PostgreSQL database `postgres` names. */
async function timeRowsOn(ctx: BenchContext, engine: 'SQLite' | 'PostgreSQL', postgres?: { readonly url: string; cpu(): Promise<number> }): Promise<Row[]> {
  const dir = path.join(ctx.dir, `time-${engine.toLowerCase()}`);
  mkdirSync(dir, { recursive: true });
  const server = await startTopocat({ dir, token: ctx.token, dn: DN, label: `topocat-time-${engine.toLowerCase()}`, env: { READ_CACHE_MB: '0' }, ...(postgres ? { databaseUrl: postgres.url } : {}) });
  try {
    const n = ctx.sizes.nodes;
    const all = Array.from({ length: n }, (_, i) => i);
    let failures = 0;
    let middle = 0;
    const loading = performance.now();
    for (let version = 1; version <= VERSIONS; version++) {
      ctx.log(`time (${engine}): version ${version} of ${count(n)} nodes`);
      const posted = await postVersion(ctx, server, all, version);
      failures += posted.failures;
      if (version === VERSIONS / 2) middle = posted.newest;
    }
    const since = (await postVersion(ctx, server, [0], VERSIONS)).newest;
    const changed = all.filter((i) => i % Math.round(1 / CHANGED_SHARE) === 1);
    const until = (await postVersion(ctx, server, changed, VERSIONS + 1)).newest;
    const loadSeconds = (performance.now() - loading) / 1000;
    const history = `${count(n)} nodes × ${VERSIONS} versions (${count(n * VERSIONS)} history rows)`;

    ctx.log(`time (${engine}): the list at the middle instant against today's list`);
    const today: Awaited<ReturnType<typeof streamed>>[] = [];
    const past: Awaited<ReturnType<typeof streamed>>[] = [];
    for (let run = 0; run < LIST_RUNS; run++) {
      today.push(await streamed(ctx, server, '/nodes'));
      past.push(await streamed(ctx, server, `/nodes?at=${middle}`));
    }
    const listFailures = [...today, ...past].filter((r) => r.status !== 200 || r.items !== n).length;
    const [pastSeconds, todaySeconds, pastGrowth] = [median(past.map((r) => r.seconds)), median(today.map((r) => r.seconds)), Math.max(...past.map((r) => r.growth))];
    const listRatio = pastSeconds / todaySeconds;
    const listRow: Row = {
      row: `REST \`GET /nodes?at=T\` over ${history}, ${engine}, T in the middle, streamed (median of ${LIST_RUNS}, alternating with today's list)`,
      result: `${seconds(pastSeconds)}; today's list ${seconds(todaySeconds)}; ratio ${ratio(listRatio)}; server RSS growth ${mib(pastGrowth)} (today's ${mib(Math.max(...today.map((r) => r.growth)))})`,
      target: '< 2× today\'s list, < 50 MiB growth',
      met: listRatio < 2 && pastGrowth < 50 * 2 ** 20,
      figures: { seconds: pastSeconds, todaySeconds, ratio: listRatio, rssGrowthBytes: pastGrowth, loadSeconds },
      failures: failures + listFailures,
    };

    ctx.log(`time (${engine}): one node at the middle instant against a plain GET, CPU per request`);
    const paths = randomNodePaths(n);
    const fixed = { url: server.url, pid: server.pid, headers: ctx.auth, seconds: ctx.sizes.cpuSeconds, ...CPU_LOAD, ...(postgres ? { database: () => postgres.cpu() } : {}) };
    const cpu = await compareCpu({ ...fixed, paths }, { ...fixed, paths: paths.map((p) => `${p}?at=${middle}`) }, ctx.sizes.cpuRounds);
    const oneRow = cpuRow(`REST \`GET /nodes/<id>?at=T\` (random of ${history}, T in the middle), ${engine}, no read cache: server CPU per request${postgres ? ' (with its backends\')' : ''}`, 'plain GET /nodes/<id>', cpu, 0.67, ctx); // within 1.5× of the plain read's CPU

    ctx.log(`time (${engine}): what changed while 1 % of the nodes did`);
    const entries = changed.length;
    const changes = await latency({
      url: server.url,
      headers: ctx.auth,
      seconds: ctx.sizes.latencySeconds,
      path: () => `/nodes?since=${since}&until=${until}`,
      check: (body) => {
        const list = JSON.parse(body) as { id: string; change: string }[];
        return list.length === entries && list.every((e) => e.change === 'updated') && list[0]?.id === nodeId(changed[0]!);
      },
    });
    const changesRow: Row = {
      row: `REST \`GET /nodes?since=T1&until=T2\` where 1 % changed (${count(entries)} of ${count(n)} nodes, ${history}), ${engine}, one client, back to back`,
      result: `p50 ${ms(changes.p50)}, p99 ${ms(changes.p99)} (${count(changes.count)} requests)`,
      target: '< 0.2 s',
      met: changes.p50 < 200,
      figures: { p50Ms: changes.p50, p99Ms: changes.p99, requests: changes.count },
      failures: changes.failures,
    };
    return [listRow, oneRow, changesRow];
  } finally {
    await server.stop();
  }
}
