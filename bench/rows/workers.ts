/**
 * `--workers 2` against one process: the same GET load on the same SQLite file (WAL), each server
 * started fresh for its measurement.
 */
import type { BenchContext } from '../harness/context.js';
import { throughput } from '../harness/load.js';
import { count, ratio, type Row } from '../harness/report.js';
import { startTopocat } from '../harness/topocat.js';
import { randomNodePaths } from '../workloads/topology.js';

async function getRate(ctx: BenchContext, dn: string, workers: number | undefined): Promise<{ rate: number; failures: number }> {
  const server = await startTopocat({ dir: ctx.dir, token: ctx.token, dn, label: `workers-${workers ?? 1}`, ...(workers === undefined ? {} : { workers }) });
  try {
    const paths = randomNodePaths(ctx.sizes.nodes);
    // More connections than one process needs, so both workers get a share of them.
    const result = await throughput({ url: server.url, paths, headers: ctx.auth, seconds: ctx.sizes.throughputSeconds, connections: 32 });
    return { rate: result.requestsPerSecond, failures: result.failures };
  } finally {
    await server.stop();
  }
}

export async function workersRow(ctx: BenchContext, dn: string): Promise<Row> {
  ctx.log('one process, then --workers 2');
  const one = await getRate(ctx, dn, undefined);
  const two = await getRate(ctx, dn, 2);
  const r = two.rate / one.rate;
  return {
    row: 'REST GET one node, `--workers 2` (node:cluster, one SQLite file in WAL mode) vs one process',
    result: `${count(two.rate)} req/s vs ${count(one.rate)} req/s; ratio ${ratio(r)}`,
    target: 'ratio ≥ 1.5',
    met: r >= 1.5,
    figures: { twoWorkersRequestsPerSecond: two.rate, oneProcessRequestsPerSecond: one.rate, ratio: r },
    failures: one.failures + two.failures,
  };
}
