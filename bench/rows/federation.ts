/**
 * The federation rows (issue 28, docs/federation.md): a lookup's redirect answer with many
 * registrations, the cost of keeping manifests on an instance that reports upstream, and
 * `federate=true` over four instances against the slowest instance's own list.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { sqliteManifests } from '../../server/storage/dialects/sqlite/manifests.js';
import { cpuSideBySide } from '../harness/cpu.js';
import type { BenchContext } from '../harness/context.js';
import { latency } from '../harness/load.js';
import type { Measured } from '../harness/processes.js';
import { count, ms, ratio, type Row } from '../harness/report.js';
import { streamList } from '../harness/stream.js';
import { startTopocat } from '../harness/topocat.js';
import { newNode, node } from '../workloads/topology.js';

/** The fixed rate of each server in the trigger-cost row: four servers at once, 1,000 POSTs a second in all on two cores. */
const TRIGGER_RATE = { rate: 250, connections: 8 } as const;
/** Servers a side in the trigger-cost row (cpuSideBySide). */
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

/** POSTs of new nodes, one client back to back: requests per second and the server's CPU per POST. */
async function postLoad(ctx: BenchContext, server: Measured): Promise<{ rate: number; cpu: number; failures: number }> {
  const body = (): string => JSON.stringify(newNode());
  const result = await latency({ url: server.url, method: 'POST', headers: { ...ctx.auth, 'content-type': 'application/json' }, path: () => '/nodes', body, seconds: ctx.sizes.throughputSeconds * 2, pid: server.pid });
  return { rate: result.count / (ctx.sizes.throughputSeconds * 2), cpu: result.cpuMicroseconds ?? Number.NaN, failures: result.failures };
}

async function upkeepRow(ctx: BenchContext, dn: string): Promise<Row> {
  const lookup = await startTopocat({ dir: ctx.dir, token: ctx.token, dn, label: 'upkeep-lookup', databaseUrl: `sqlite:${path.join(ctx.dir, 'upkeep-lookup.sqlite')}`, env: { LOOKUP: 'true' } });
  try {
    const measure = async (label: string, env: Record<string, string>) => {
      const server = await startTopocat({ dir: ctx.dir, token: ctx.token, dn, label, databaseUrl: `sqlite:${path.join(ctx.dir, `${label}.sqlite`)}`, env });
      try {
        return await postLoad(ctx, server);
      } finally {
        await server.stop();
      }
    };
    ctx.log('manifest upkeep: POSTs on an instance that does not report, then on one that reports every second');
    const plain = await measure('upkeep-plain', {});
    // Reporting every second: far more often than UNIS's hour, so the reports' cost shows.
    const reporting = await measure('upkeep-reporting', { REGISTER_URLS: lookup.url, REGISTER_INTERVAL_MS: '1000', REGISTER_TOKEN: ctx.token });
    const r = reporting.rate / plain.rate;
    const cpu = reporting.cpu / plain.cpu;
    return {
      row: 'manifest upkeep (SQLite): POST /nodes, one client back to back, on an instance reporting upstream every second vs one that does not report',
      result: `${count(reporting.rate)} vs ${count(plain.rate)} POST/s (ratio ${ratio(r)}); CPU ${count(reporting.cpu)} µs vs ${count(plain.cpu)} µs per POST (ratio ${ratio(cpu)})`,
      target: 'within 5 %',
      met: r >= 0.95 && cpu <= 1.05,
      figures: { reportingRate: reporting.rate, plainRate: plain.rate, reportingCpu: reporting.cpu, plainCpu: plain.cpu },
      failures: plain.failures + reporting.failures,
    };
  } finally {
    await lookup.stop();
  }
}

/**
 * What keeping the manifests costs a write: CPU per POST at a fixed rate on databases with the
 * manifest triggers (every database has them) and on databases where the run dropped them, two
 * servers a side, all under load at once (cpuSideBySide: rounds one after the other drift by
 * more than the cost measured). The reporting-vs-not row above cannot show it: both of its
 * instances keep them.
 */
async function triggerCostRow(ctx: BenchContext, dn: string): Promise<Row> {
  const file = (label: string): string => path.join(ctx.dir, `${label}.sqlite`);
  const start = (label: string): Promise<Measured> => startTopocat({ dir: ctx.dir, token: ctx.token, dn, label, databaseUrl: `sqlite:${file(label)}` });
  const started: Measured[] = [];
  try {
    const sides: Record<'kept' | 'dropped', Measured[]> = { kept: [], dropped: [] };
    for (let i = 0; i < PER_SIDE; i++) {
      // Migrated by a first start, then the triggers dropped while no server runs.
      await (await start(`untriggered-${i}`)).stop();
      const database = new Database(file(`untriggered-${i}`));
      for (const statement of sqliteManifests.drop) database.exec(statement);
      database.close();
      for (const [side, label] of [['kept', `triggered-${i}`], ['dropped', `untriggered-${i}`]] as const) {
        const server = await start(label);
        started.push(server);
        sides[side].push(server);
      }
    }
    ctx.log('manifest triggers: CPU per POST with them vs without them, all at once');
    const request = (server: Measured) => ({ url: server.url, pid: server.pid, method: 'POST' as const, headers: { ...ctx.auth, 'content-type': 'application/json' }, body: JSON.stringify(newNode()), paths: ['/nodes'], seconds: ctx.sizes.cpuSeconds, ...TRIGGER_RATE });
    const c = await cpuSideBySide({ dropped: sides.dropped.map(request), kept: sides.kept.map(request) }, Math.max(2, ctx.sizes.cpuRounds * 2));
    const [kept, dropped] = [c.sides.kept!, c.sides.dropped!];
    const extra = kept.microseconds / dropped.microseconds - 1;
    return {
      row: `manifest triggers' cost (SQLite): CPU per POST /nodes at ${count(TRIGGER_RATE.rate)} req/s offered to each of ${PER_SIDE} servers a side, ${TRIGGER_RATE.connections} connections each, all at once, with the triggers vs the same schema without them`,
      result: `${count(kept.microseconds)} µs vs ${count(dropped.microseconds)} µs per POST (${extra >= 0 ? '+' : ''}${(extra * 100).toFixed(1)} %, ${count(kept.microseconds - dropped.microseconds)} µs a write; identical servers differed by ${(kept.spread * 100).toFixed(1)} % with, ${(dropped.spread * 100).toFixed(1)} % without; lowest rate served ${count(Math.round(c.servedRate))}/s)`,
      target: 'within 5 %',
      met: extra <= 0.05,
      figures: { triggeredMicroseconds: kept.microseconds, untriggeredMicroseconds: dropped.microseconds, ratio: kept.microseconds / dropped.microseconds, servedRate: c.servedRate },
      failures: c.failures,
    };
  } finally {
    await Promise.all(started.map((server) => server.stop()));
  }
}

async function federateRow(ctx: BenchContext, dn: string, perInstance: number): Promise<Row[]> {
  const lookup = await startTopocat({ dir: ctx.dir, token: ctx.token, dn, label: 'federate-lookup', databaseUrl: `sqlite:${path.join(ctx.dir, 'federate-lookup.sqlite')}`, env: { LOOKUP: 'true', FEDERATE_TIMEOUT_MS: '120000' } });
  const instances: Measured[] = [];
  try {
    for (let k = 0; k < 4; k++) instances.push(await startTopocat({ dir: ctx.dir, token: ctx.token, dn, label: `federate-${k}`, databaseUrl: `sqlite:${path.join(ctx.dir, `federate-${k}.sqlite`)}` }));
    ctx.log(`federate: 4 instances × ${count(perInstance)} nodes`);
    for (const [k, instance] of instances.entries()) {
      for (let i = 0; i < perInstance; i += 1_000) await postJson(instance, '/nodes', Array.from({ length: Math.min(1_000, perInstance - i) }, (_, j) => node(k * perInstance + i + j)), ctx);
      await postJson(lookup, '/register', { ...registration(k, instance.url), properties: { summary: [{ $collection: 'nodes', properties: { name: '*' } }], depth: 0 } }, ctx);
    }
    const query = '/nodes?sort=name:1';
    const own = [];
    for (const instance of instances) own.push(await streamList(instance, query, ctx.auth));
    const slowest = Math.max(...own.map((o) => o.seconds));
    // The four lists at once, as the lookup asks them: on one machine they share its cores.
    const together = Math.max(...(await Promise.all(instances.map((instance) => streamList(instance, query, ctx.auth)))).map((o) => o.seconds));
    await streamList(lookup, `${query}&federate=true`, ctx.auth); // warm-up: the lookup's first merge compiles its code
    const merged = await streamList(lookup, `${query}&federate=true`, ctx.auth);
    const r = merged.seconds / slowest;
    const grown = (merged.rssPeak - merged.rssBaseline) / 2 ** 20;
    const failures = merged.status === 200 && merged.items === 4 * perInstance ? 0 : 1;
    return [
      {
        row: `\`federate=true&sort=name:1\` over 4 instances of ${count(perInstance)} nodes (${count(4 * perInstance)} merged) vs the slowest instance's own sorted list`,
        result: `${ms(merged.seconds * 1000)} vs ${ms(slowest * 1000)} (the four lists read at once, no lookup: ${ms(together * 1000)}); ratio ${ratio(r)}; lookup RSS +${grown.toFixed(1)} MB at its peak`,
        target: '< 1.5×; memory bounded (streamed)',
        met: r < 1.5,
        figures: { federatedSeconds: merged.seconds, slowestSeconds: slowest, fourAtOnceSeconds: together, ratio: r, items: merged.items, rssGrowthMB: grown, rssPeakMB: merged.rssPeak / 2 ** 20 },
        failures,
      },
    ];
  } finally {
    await Promise.all(instances.map((i) => i.stop()));
    await lookup.stop();
  }
}

export async function federationRows(ctx: BenchContext, dn: string): Promise<Row[]> {
  const { registrations, nodesPerInstance } = shape(ctx);
  return [await redirectRow(ctx, dn, registrations), await upkeepRow(ctx, dn), await triggerCostRow(ctx, dn), ...(await federateRow(ctx, dn, nodesPerInstance))];
}
