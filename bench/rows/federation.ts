/**
 * The federation rows (issues 28 and 38, docs/federation.md): a lookup's redirect answer with many
 * registrations, the cost of keeping manifests on an instance that reports upstream against one
 * without federation (which keeps none), and
 * `federate=true` over four instances against the slowest instance's own list and the four lists
 * read at once (issue 37: the lookup's CPU for the merge is reported beside the times).
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { MANIFEST_TABLE } from '../../server/storage/manifest-sql.js';
import { cpuSeconds, cpuSideBySide } from '../harness/cpu.js';
import type { BenchContext } from '../harness/context.js';
import { latency } from '../harness/load.js';
import type { Measured } from '../harness/processes.js';
import { count, ms, ratio, type Row } from '../harness/report.js';
import { median } from '../harness/stats.js';
import { streamList } from '../harness/stream.js';
import { startTopocat } from '../harness/topocat.js';
import { newNode, node } from '../workloads/topology.js';

/** The fixed rate of each server in the upkeep row: four servers at once, 1,000 POSTs a second in all on two cores. */
const UPKEEP_RATE = { rate: 250, connections: 8 } as const;
/** Servers a side in the upkeep row (cpuSideBySide). */
const PER_SIDE = 2;

const COLLECTIONS = ['nodes', 'ports', 'links', 'paths', 'networks', 'domains', 'topologies', 'services', 'metadata', 'exnodes', 'extents', 'measurements'];

/** Sizes: the issue's, or --quick's. */
function shape(ctx: BenchContext): { registrations: number; nodesPerInstance: number } {
  return ctx.sizes.nodes >= 100_000 ? { registrations: 1_000, nodesPerInstance: 25_000 } : { registrations: 100, nodesPerInstance: 1_000 };
}

async function postJson(server: Measured, pathname: string, body: unknown, ctx: BenchContext): Promise<void> {
  const answer = await fetch(`${server.url}${pathname}`, { method: 'POST', headers: { ...ctx.auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await answer.text();
  if (answer.status !== 201) throw new Error(`POST ${pathname}: ${answer.status} ${text.slice(0, 200)}`);
}

/** A registration of instance `i` with a manifest for each of the 12 collections (10 names each, `*` for the rest). */
function registration(i: number, accessPoint = `http://site-${i}.example:8080`, ttl = 3_600): Record<string, unknown> {
  const summary = COLLECTIONS.map((collection) => ({
    $collection: collection,
    properties: { name: Array.from({ length: 10 }, (_, k) => `${collection}-${i}-${k}`), description: '*', 'properties.geni.slice': [`slice-${i % 50}`], 'location.institution': '*' },
  }));
  return { accessPoint, name: 'topocat', status: 'ON', serviceType: 'ps:tools:unis', ttl, communities: ['bench'], properties: { summary, depth: 0 } };
}

async function redirectRow(ctx: BenchContext, dn: string, registrations: number): Promise<Row> {
  const lookup = await startTopocat({ dir: ctx.dir, token: ctx.token, dn, label: 'federation-lookup', databaseUrl: `sqlite:${path.join(ctx.dir, 'lookup.sqlite')}`, env: { LOOKUP: 'true' } });
  try {
    ctx.log(`lookup: ${registrations} registrations × ${COLLECTIONS.length} collections`);
    for (let i = 0; i < registrations; i += 100) await postJson(lookup, '/register', Array.from({ length: Math.min(100, registrations - i) }, (_, k) => registration(i + k)), ctx);
    const result = await latency({
      url: lookup.url,
      headers: ctx.auth,
      seconds: ctx.sizes.latencySeconds,
      // A name one instance holds: the walk visits every registration's manifest of nodes.
      path: (i) => `/nodes?name=nodes-${i % registrations}-3`,
      check: (body) => body.startsWith('{"redirect":true,"instances":["http'),
    });
    return {
      row: `lookup: redirect answer (\`GET /nodes?name=…\`) with ${count(registrations)} registered instances, ${COLLECTIONS.length} collections each`,
      result: `p50 ${ms(result.p50)}, p99 ${ms(result.p99)} (${count(result.count)} requests)`,
      target: 'p50 < 2 ms',
      met: result.p50 < 2,
      figures: { p50: result.p50, p99: result.p99, registrations },
      failures: result.failures,
    };
  } finally {
    await lookup.stop();
  }
}

/** What a database file holds of the manifests' upkeep: its value rows, and its triggers. */
function storedManifests(file: string): { rows: number; triggers: number } {
  const database = new Database(file, { readonly: true });
  try {
    const rows = (database.prepare(`SELECT count(*) AS n FROM ${MANIFEST_TABLE}`).get() as { n: number }).n;
    const triggers = (database.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE type = 'trigger' AND name LIKE '${MANIFEST_TABLE}_kept%'`).get() as { n: number }).n;
    return { rows, triggers };
  } finally {
    database.close();
  }
}

/**
 * What keeping the manifests costs a write (rest-contract §13, revised 2026-11-28): CPU per POST
 * at a fixed rate on instances that report upstream (to a lookup, at UNIS's period: the reports
 * themselves cost nothing per write) against instances with no federation configured, which
 * keep no manifests at all. Two servers a side, all under load at once (cpuSideBySide: rounds
 * one after the other drift by more than the cost measured). The databases are then read: an
 * instance without federation must hold no manifest row and no trigger.
 */
async function upkeepRow(ctx: BenchContext, dn: string): Promise<Row> {
  const file = (label: string): string => path.join(ctx.dir, `${label}.sqlite`);
  const lookup = await startTopocat({ dir: ctx.dir, token: ctx.token, dn, label: 'upkeep-lookup', databaseUrl: `sqlite:${file('upkeep-lookup')}`, env: { LOOKUP: 'true' } });
  const started: Measured[] = [];
  try {
    const sides: Record<'reporting' | 'unconfigured', Measured[]> = { reporting: [], unconfigured: [] };
    for (let i = 0; i < PER_SIDE; i++) {
      for (const [side, env] of [
        ['reporting', { REGISTER_URLS: lookup.url, REGISTER_TOKEN: ctx.token }],
        ['unconfigured', {}],
      ] as const) {
        const server = await startTopocat({ dir: ctx.dir, token: ctx.token, dn, label: `upkeep-${side}-${i}`, databaseUrl: `sqlite:${file(`upkeep-${side}-${i}`)}`, env });
        started.push(server);
        sides[side].push(server);
      }
    }
    ctx.log('manifest upkeep: CPU per POST on instances reporting upstream vs instances without federation, all at once');
    const request = (server: Measured) => ({ url: server.url, pid: server.pid, method: 'POST' as const, headers: { ...ctx.auth, 'content-type': 'application/json' }, body: JSON.stringify(newNode()), paths: ['/nodes'], seconds: ctx.sizes.cpuSeconds, ...UPKEEP_RATE });
    const c = await cpuSideBySide({ unconfigured: sides.unconfigured.map(request), reporting: sides.reporting.map(request) }, Math.max(2, ctx.sizes.cpuRounds * 2));
    const [reporting, unconfigured] = [c.sides.reporting!, c.sides.unconfigured!];
    const extra = reporting.microseconds / unconfigured.microseconds - 1;
    await Promise.all(started.splice(0).map((server) => server.stop()));
    const kept = Array.from({ length: PER_SIDE }, (_, i) => storedManifests(file(`upkeep-reporting-${i}`)));
    const none = Array.from({ length: PER_SIDE }, (_, i) => storedManifests(file(`upkeep-unconfigured-${i}`)));
    const noneRows = none.reduce((sum, n) => sum + n.rows + n.triggers, 0);
    return {
      row: `manifest upkeep (SQLite): CPU per POST /nodes at ${count(UPKEEP_RATE.rate)} req/s offered to each of ${PER_SIDE} servers a side, ${UPKEEP_RATE.connections} connections each, all at once, reporting upstream vs no federation configured`,
      result: `${count(reporting.microseconds)} µs vs ${count(unconfigured.microseconds)} µs per POST (${extra >= 0 ? '+' : ''}${(extra * 100).toFixed(1)} %, ${count(reporting.microseconds - unconfigured.microseconds)} µs a write; identical servers differed by ${(reporting.spread * 100).toFixed(1)} % reporting, ${(unconfigured.spread * 100).toFixed(1)} % not; lowest rate served ${count(Math.round(c.servedRate))}/s); manifest rows and triggers after: ${kept.map((k) => `${k.rows} + ${k.triggers}`).join(', ')} reporting, ${none.map((n) => `${n.rows} + ${n.triggers}`).join(', ')} not configured`,
      target: 'within 5 %; nothing kept when not configured',
      met: extra <= 0.05 && noneRows === 0,
      figures: {
        reportingMicroseconds: reporting.microseconds,
        unconfiguredMicroseconds: unconfigured.microseconds,
        ratio: reporting.microseconds / unconfigured.microseconds,
        servedRate: c.servedRate,
        unconfiguredManifestRowsAndTriggers: noneRows,
      },
      failures: c.failures,
    };
  } finally {
    await Promise.all(started.map((server) => server.stop()));
    await lookup.stop();
  }
}

/** Warm reads each figure of a `federate=true` row is the median of. */
const READS = 5;

async function repeated<T>(times: number, run: () => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let k = 0; k < times; k++) results.push(await run());
  return results;
}

/** One `federate=true` row: its query (sorted or not), its size, and the targets it is judged by. */
interface FederateShape {
  readonly query: string;
  readonly perInstance: number;
  readonly label: string;
  readonly target: string;
  met(ratio: number, ratioFourAtOnce: number): boolean;
}

async function federateRow(ctx: BenchContext, dn: string, shape: FederateShape): Promise<Row> {
  const { query, perInstance } = shape;
  const lookup = await startTopocat({ dir: ctx.dir, token: ctx.token, dn, label: `${shape.label}-lookup`, databaseUrl: `sqlite:${path.join(ctx.dir, `${shape.label}-lookup.sqlite`)}`, env: { LOOKUP: 'true', FEDERATE_TIMEOUT_MS: '120000' } });
  const instances: Measured[] = [];
  try {
    for (let k = 0; k < 4; k++) instances.push(await startTopocat({ dir: ctx.dir, token: ctx.token, dn, label: `${shape.label}-${k}`, databaseUrl: `sqlite:${path.join(ctx.dir, `${shape.label}-${k}.sqlite`)}` }));
    ctx.log(`federate: 4 instances × ${count(perInstance)} nodes, ${query}`);
    for (const [k, instance] of instances.entries()) {
      for (let i = 0; i < perInstance; i += 1_000) await postJson(instance, '/nodes', Array.from({ length: Math.min(1_000, perInstance - i) }, (_, j) => node(k * perInstance + i + j)), ctx);
      await postJson(lookup, '/register', { ...registration(k, instance.url), properties: { summary: [{ $collection: 'nodes', properties: { name: '*' } }], depth: 0 } }, ctx);
    }
    // Each figure is the median of READS warm reads (one read each made them 3.3–7.4× apart from run to run).
    const own: number[] = [];
    const ownCpu: number[] = [];
    for (const instance of instances) {
      await streamList(instance, query, ctx.auth); // warm-up
      const runs = await repeated(READS, async () => {
        const before = cpuSeconds(instance.pid);
        const list = await streamList(instance, query, ctx.auth);
        return { seconds: list.seconds, cpu: cpuSeconds(instance.pid) - before };
      });
      own.push(median(runs.map((run) => run.seconds)));
      ownCpu.push(median(runs.map((run) => run.cpu)));
    }
    const slowest = Math.max(...own);
    // The four lists at once, as the lookup asks them: on one machine they share its cores.
    const together = median(await repeated(READS, async () => Math.max(...(await Promise.all(instances.map((instance) => streamList(instance, query, ctx.auth)))).map((o) => o.seconds))));
    const federated = `${query}${query.includes('?') ? '&' : '?'}federate=true`;
    await streamList(lookup, federated, ctx.auth); // warm-up: the lookup's first merge compiles its code
    const merges = await repeated(READS, async () => {
      const before = cpuSeconds(lookup.pid);
      const list = await streamList(lookup, federated, ctx.auth);
      // The lookup's own CPU for the merge: on one machine the instances share its cores, so this moves less than the times.
      return { list, cpu: cpuSeconds(lookup.pid) - before };
    });
    const merged = { ...merges.map((m) => m.list).sort((a, b) => a.seconds - b.seconds)[Math.floor(merges.length / 2)]!, rssPeak: Math.max(...merges.map((m) => m.list.rssPeak)) };
    const lookupCpu = median(merges.map((m) => m.cpu));
    const r = merged.seconds / slowest;
    const rTogether = merged.seconds / together;
    const grown = (merged.rssPeak - merged.rssBaseline) / 2 ** 20;
    const failures = merges.filter((m) => m.list.status !== 200 || m.list.items !== 4 * perInstance).length;
    return {
      row: `\`${federated}\` over 4 instances of ${count(perInstance)} nodes (${count(4 * perInstance)} merged) vs the slowest instance's own list, and vs the four lists read at once`,
      result: `medians of ${READS} warm reads: ${ms(merged.seconds * 1000)} vs ${ms(slowest * 1000)}, ratio ${ratio(r)}; the four lists read at once, no lookup: ${ms(together * 1000)}, ratio ${ratio(rTogether)}; the lookup's CPU ${ms(lookupCpu * 1000)} (${((lookupCpu * 1e6) / (4 * perInstance)).toFixed(1)} µs an element), each instance's for its own list ${ownCpu.map((c) => ms(c * 1000)).join(', ')}; lookup RSS +${grown.toFixed(1)} MB at its peak`,
      target: shape.target,
      met: shape.met(r, rTogether),
      figures: {
        federatedSeconds: merged.seconds,
        slowestSeconds: slowest,
        fourAtOnceSeconds: together,
        ratio: r,
        ratioFourAtOnce: rTogether,
        lookupCpuSeconds: lookupCpu,
        slowestOwnCpuSeconds: Math.max(...ownCpu),
        items: merged.items,
        rssGrowthMB: grown,
        rssPeakMB: merged.rssPeak / 2 ** 20,
      },
      failures,
    };
  } finally {
    await Promise.all(instances.map((i) => i.stop()));
    await lookup.stop();
  }
}

/**
 * The `federate=true` rows: issue 37's, sorted over 4 × 25,000 nodes; and the UNIS issue's (rest-contract
 * §13, revised 2026-11-29), without sort (the merge in the default order, reading only the order's
 * keys) over 4 × 10,000 nodes, within 2× the slowest instance's own list.
 */
function federateShapes(ctx: BenchContext, nodesPerInstance: number): FederateShape[] {
  const unsorted = ctx.sizes.nodes >= 100_000 ? 10_000 : 1_000;
  return [
    { query: '/nodes?sort=name:1', perInstance: nodesPerInstance, label: 'federate', target: '< 1.5× the slowest, ≤ 1.2× the four at once; memory bounded (streamed)', met: (r, rTogether) => r < 1.5 && rTogether <= 1.2 },
    { query: '/nodes', perInstance: unsorted, label: 'federate-unsorted', target: '≤ 2× the slowest own list', met: (r) => r <= 2 },
  ];
}

/** The `federate=true` rows alone (`--only federate`). */
export async function federateRows(ctx: BenchContext, dn: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (const federate of federateShapes(ctx, shape(ctx).nodesPerInstance)) rows.push(await federateRow(ctx, dn, federate));
  return rows;
}

export async function federationRows(ctx: BenchContext, dn: string): Promise<Row[]> {
  const { registrations } = shape(ctx);
  return [await redirectRow(ctx, dn, registrations), await upkeepRow(ctx, dn), ...(await federateRows(ctx, dn))];
}
