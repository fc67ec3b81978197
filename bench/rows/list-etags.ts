/**
 * A polled list answered 304 (rest-contract §5, added 2026-11-29; the issue "UNIS, request for
 * request, round two"): `GET /nodes` of 10,000 nodes with `If-None-Match` of its current tag,
 * against the same list answered 200, server CPU per request at a fixed offered rate each (the
 * 200 at a few per second, which is all a list of 10,000 nodes allows on this machine; the 304 at
 * a rate that gives /proc's 10-ms ticks enough requests). On SQLite, then on PostgreSQL (its
 * backends' CPU counted with the server's) when TEST_DATABASE_URL names one.
 *
 * With TOPOCAT_BENCH_BASELINE naming another build's dist/ (e.g. a checkout of main, built: `<main>/dist`), also that a
 * plain 200 list did not get slower for its tag: `GET /nodes?name=…` (one match, by index) and
 * the whole list streamed, this build against that one, side by side (cpuSideBySide), each on a
 * database of its own with the same nodes.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { BenchContext } from '../harness/context.js';
import { cpuInTurn, cpuSideBySide, type FixedRateOptions } from '../harness/cpu.js';
import { benchPostgres, postgresUnavailable, type BenchPostgres } from '../harness/postgres.js';
import type { Measured } from '../harness/processes.js';
import { count, ratio, type Row } from '../harness/report.js';
import { median } from '../harness/stats.js';
import { startTopocat } from '../harness/topocat.js';
import { DN } from '../workloads/catalog.js';
import { node, nodeName } from '../workloads/topology.js';

/** The issue's list: 10,000 nodes (fewer with --quick). */
const LIST_NODES = 10_000;
const ARRAY = 1_000;
/** The 200 of the whole list: a few per second, one connection. */
const FULL_LOAD = { rate: 4, connections: 1 } as const;
/** The 304: enough requests per window for /proc's ticks. */
const CACHED_LOAD = { rate: 300, connections: 4 } as const;
/** `?name=` lookups, side by side with the baseline. */
const LOOKUP_LOAD = { rate: 300, connections: 4 } as const;

const micros = (n: number): string => `${n.toFixed(0)} µs`;

interface Engine {
  readonly name: 'SQLite' | 'PostgreSQL';
  /** A DATABASE_URL and its backends' CPU for a server named `label` (PostgreSQL), or none (a SQLite file of its own). */
  database(label: string): Promise<{ url?: string; cpu?: () => Promise<number> }>;
}

export async function listEtagRows(ctx: BenchContext): Promise<Row[]> {
  const baseline = process.env.TOPOCAT_BENCH_BASELINE;
  const rows = await rowsOn(ctx, { name: 'SQLite', database: async () => ({}) }, baseline);
  const why = postgresUnavailable();
  if (why !== undefined) {
    ctx.log(`list etags: PostgreSQL rows NOT RUN: ${why}`);
    return rows;
  }
  // One schema per server: a baseline build does not open a database this build migrated.
  const schemas: BenchPostgres[] = [];
  try {
    rows.push(
      ...(await rowsOn(
        ctx,
        {
          name: 'PostgreSQL',
          async database(label) {
            const pg = await benchPostgres();
            schemas.push(pg);
            return { url: pg.url(label), cpu: () => pg.backendCpu(label) };
          },
        },
        baseline,
      )),
    );
  } finally {
    await Promise.all(schemas.map((pg) => pg.close()));
  }
  return rows;
}

async function loaded(ctx: BenchContext, engine: Engine, label: string, nodes: number, entry?: string): Promise<{ server: Measured; cpu?: () => Promise<number>; failures: number }> {
  const dir = path.join(ctx.dir, label);
  mkdirSync(dir, { recursive: true });
  const database = await engine.database(label);
  const server = await startTopocat({ dir, token: ctx.token, dn: DN, label, ...(database.url ? { databaseUrl: database.url } : {}), ...(entry ? { entry } : {}) });
  let failures = 0;
  for (let first = 0; first < nodes; first += ARRAY) {
    const batch = Array.from({ length: Math.min(ARRAY, nodes - first) }, (_, i) => node(first + i));
    const response = await fetch(`${server.url}/nodes`, { method: 'POST', headers: { ...ctx.auth, 'content-type': 'application/json' }, body: JSON.stringify(batch) });
    await response.arrayBuffer();
    if (response.status !== 201) failures++;
  }
  return { server, ...(database.cpu ? { cpu: database.cpu } : {}), failures };
}

async function rowsOn(ctx: BenchContext, engine: Engine, baseline: string | undefined): Promise<Row[]> {
  const nodes = Math.min(LIST_NODES, ctx.sizes.nodes);
  const label = `topocat-etags-${engine.name.toLowerCase()}`;
  ctx.log(`list etags (${engine.name}): ${count(nodes)} nodes`);
  const ours = await loaded(ctx, engine, label, nodes);
  const rows: Row[] = [];
  try {
    const { server } = ours;
    const first = await fetch(`${server.url}/nodes`, { headers: ctx.auth });
    const body = (await first.json()) as unknown[];
    const etag = first.headers.get('etag');
    if (etag === null || body.length !== nodes) throw new Error(`GET /nodes: ${body.length} nodes, ETag ${etag}`);
    const fixed = (load: { rate: number; connections: number }): Omit<FixedRateOptions, 'paths'> => ({
      url: server.url,
      pid: server.pid,
      headers: ctx.auth,
      seconds: ctx.sizes.cpuSeconds,
      ...load,
      ...(ours.cpu ? { database: ours.cpu } : {}),
    });
    ctx.log(`list etags (${engine.name}): the list answered 200 and 304, CPU per request`);
    const measured = await cpuInTurn(
      {
        full: { ...fixed(FULL_LOAD), paths: ['/nodes'] },
        cached: { ...fixed(CACHED_LOAD), headers: { ...ctx.auth, 'if-none-match': etag }, paths: ['/nodes'], notModified: true },
      },
      ctx.sizes.cpuRounds,
    );
    const full = median(measured.full.map((m) => m.microseconds));
    const cached = median(measured.cached.map((m) => m.microseconds));
    const ratios = measured.cached.map((m, i) => m.microseconds / measured.full[i]!.microseconds);
    const share = cached / full;
    const served = Math.min(...measured.cached.map((m) => m.requestsPerSecond));
    rows.push({
      row: `REST \`GET /nodes\` of ${count(nodes)} nodes, ${engine.name}, answered 304 to \`If-None-Match\` of its tag: server CPU per request${ours.cpu ? " (with its backends')" : ''} at ${count(CACHED_LOAD.rate)} req/s offered, against the same list answered 200 at ${FULL_LOAD.rate} req/s (median of ${ctx.sizes.cpuRounds} rounds)`,
      result: `${micros(cached)}; 200 ${micros(full)}; share ${ratio(share)}${ratios.length > 1 ? `, rounds ${ratio(Math.min(...ratios))}–${ratio(Math.max(...ratios))}` : ''} (304s served ${count(served)}/s)`,
      target: 'share ≤ 0.1',
      met: share <= 0.1,
      figures: { microseconds: cached, fullMicroseconds: full, share, servedRate: served },
      failures: ours.failures + [...measured.full, ...measured.cached].reduce((sum, m) => sum + m.failures, 0),
    });

    if (baseline !== undefined) rows.push(...(await againstBaseline(ctx, engine, ours, nodes, baseline)));
  } finally {
    await ours.server.stop();
  }
  return rows;
}

/** This build's plain 200 lists against `baseline`'s (another build's dist/), side by side. */
async function againstBaseline(ctx: BenchContext, engine: Engine, ours: Awaited<ReturnType<typeof loaded>>, nodes: number, baseline: string): Promise<Row[]> {
  ctx.log(`list etags (${engine.name}): the baseline build at ${baseline}`);
  const theirs = await loaded(ctx, engine, `topocat-etags-baseline-${engine.name.toLowerCase()}`, nodes, path.join(baseline, 'server/main.js'));
  try {
    const lookups = Array.from({ length: 1_000 }, () => `/nodes?name=${nodeName(Math.floor(Math.random() * nodes))}`);
    const side = (of: typeof ours, load: { rate: number; connections: number }, paths: string[]): FixedRateOptions[] => [
      { url: of.server.url, pid: of.server.pid, headers: ctx.auth, seconds: ctx.sizes.cpuSeconds, ...load, paths, ...(of.cpu ? { database: of.cpu } : {}) },
    ];
    const rows: Row[] = [];
    for (const [what, load, paths] of [
      ['`GET /nodes?name=<one of them>` (one match, by index)', LOOKUP_LOAD, lookups],
      [`\`GET /nodes\`, all ${count(nodes)}, streamed`, FULL_LOAD, ['/nodes']],
    ] as const) {
      const measured = await cpuSideBySide({ ours: side(ours, load, [...paths]), baseline: side(theirs, load, [...paths]) }, ctx.sizes.cpuRounds);
      const mine = measured.sides.ours!.microseconds;
      const before = measured.sides.baseline!.microseconds;
      rows.push({
        row: `REST ${what}, ${engine.name}, answered 200 with its ETag: server CPU per request${ours.cpu ? " (with its backends')" : ''}, this build against ${baseline} side by side at ${count(load.rate)} req/s offered each (${ctx.sizes.cpuRounds} rounds)`,
        result: `${micros(mine)}; baseline ${micros(before)}; ratio ${ratio(before / mine)} (lowest rate served ${count(measured.servedRate)}/s)`,
        target: 'ratio ≥ 0.9 (not measurably slower on this shared machine)',
        met: before / mine >= 0.9,
        figures: { microseconds: mine, baselineMicroseconds: before, ratio: before / mine, servedRate: measured.servedRate },
        failures: measured.failures + theirs.failures,
      });
    }
    return rows;
  } finally {
    await theirs.server.stop();
  }
}
