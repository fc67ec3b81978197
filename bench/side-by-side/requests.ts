import { cpuPerRequest } from '../harness/cpu.js';
import { openLoop, quantile } from '../harness/open-loop.js';
import { MixedWriter } from '../workloads/mixed-writes.js';
import { newNode, nodeId } from '../workloads/topology.js';
import { postNodes, storeNodes, usedCpu, type ComparedSet, type Figures, type Side } from './sides.js';

/** Nodes stored before the rounds: the GETs read them. */
const STORED = 10_000;
/** Offered rates (requests a second over all connections), below what either side saturates at on 2 cores. */
const GET_RATE = 400;
const POST_RATE = 200;
const MIXED_RATE = 200;
const CONNECTIONS = 8;
/** Nodes of its own each mixed writer starts with. */
const MIXED_NODES = 50;

/**
 * The requests of issue "One home for each rule, part three" (no behaviour changes, so no
 * slower): `GET /nodes/<id>`, `POST /nodes` of one node and the mix of writes (docs/scaling.md:
 * POST 40 %, re-POST 10 %, PATCH 30 %, PUT 10 %, DELETE 10 %), each at a fixed offered rate
 * below saturation. Each row: CPU per request of the server and, on PostgreSQL, of its backends
 * (GET) or of every process of the database server (writes: the sides' rounds alternate, so the
 * other side is idle meanwhile), and p50 for the mix.
 */
export function requestSet(seconds: number, auth: Readonly<Record<string, string>>): ComparedSet {
  const GET = '`GET /nodes/<id>` CPU per request';
  const POST = '`POST /nodes` (one node) CPU per request';
  const MIXED = 'mixed writes CPU per request';
  const MIXED_P50 = 'mixed writes p50';
  const writers = new Map<Side['label'], MixedWriter[]>();
  const json = { ...auth, 'content-type': 'application/json', accept: 'application/json' };
  return {
    rows: [
      { row: GET, unit: 'µs' },
      { row: POST, unit: 'µs' },
      { row: MIXED, unit: 'µs' },
      { row: MIXED_P50, unit: 'ms' },
    ],
    async load(side) {
      await storeNodes(side, json, STORED);
      const mine = Array.from({ length: CONNECTIONS }, (_, c) => new MixedWriter(c, auth));
      for (const writer of mine) {
        await postNodes(side, json, writer.preload(MIXED_NODES));
      }
      writers.set(side.label, mine);
    },
    async round(side): Promise<Figures> {
      const figures: Figures = { values: {}, failures: 0 };
      const fixed = { url: side.server.url, pid: side.server.pid, seconds, connections: CONNECTIONS };
      // GETs leave the database nothing to do after them: their own backends are their whole cost.
      const get = await cpuPerRequest({ ...fixed, ...(side.database ? { database: side.database } : {}), headers: auth, rate: GET_RATE, paths: Array.from({ length: 1000 }, (_, k) => `/nodes/${nodeId((k * 7919) % STORED)}`) });
      const post = await cpuPerRequest({ ...fixed, ...(side.databaseServer ? { database: side.databaseServer } : {}), method: 'POST', headers: json, body: JSON.stringify(newNode()), rate: POST_RATE, paths: ['/nodes'] });
      figures.values[GET] = get.microseconds;
      figures.values[POST] = post.microseconds;
      figures.failures += get.failures + post.failures;
      const mine = writers.get(side.label)!;
      const mixed = (s: number) => openLoop({ clients: CONNECTIONS, rate: MIXED_RATE, seconds: s, url: () => side.server.url, next: (c) => mine[c]!.next() });
      figures.failures += (await mixed(Math.min(3, seconds / 2))).failures;
      const before = await usedCpu(side, true);
      const measured = await mixed(seconds);
      figures.values[MIXED] = (((await usedCpu(side, true)) - before) * 1e6) / Math.max(1, measured.answered);
      figures.values[MIXED_P50] = quantile(measured.latencies, 0.5);
      figures.failures += measured.failures;
      return figures;
    },
  };
}
