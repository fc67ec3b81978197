/**
 * `--workers 2` against one process: the same GET load on the same SQLite file (WAL), each server
 * started fresh for its measurement: requests a second flat out, and the server's CPU per
 * request at a fixed rate (every worker's CPU counted), which says what a second process costs
 * each request (its read cache is checked against every commit: see CurrentCache).
 */
import type { BenchContext } from '../harness/context.js';
import { CPU_LOAD } from '../harness/context.js';
import { cpuPerRequest } from '../harness/cpu.js';
import { throughput } from '../harness/load.js';
import { count, ratio, type Row } from '../harness/report.js';
import { startTopocat } from '../harness/topocat.js';
import { randomNodePaths } from '../workloads/topology.js';

interface Measured {
  readonly rate: number;
  readonly microseconds: number;
  readonly failures: number;
}

async function measure(ctx: BenchContext, dn: string, workers: number | undefined): Promise<Measured> {
  const server = await startTopocat({ dir: ctx.dir, token: ctx.token, dn, label: `workers-${workers ?? 1}`, ...(workers === undefined ? {} : { workers }) });
  try {
    const paths = randomNodePaths(ctx.sizes.nodes);
    const cpu = await cpuPerRequest({ url: server.url, pid: server.pid, paths, headers: ctx.auth, seconds: ctx.sizes.cpuSeconds, ...CPU_LOAD });
    // More connections than one process needs, so both workers get a share of them.
    const result = await throughput({ url: server.url, paths, headers: ctx.auth, seconds: ctx.sizes.throughputSeconds, connections: 32 });
    return { rate: result.requestsPerSecond, microseconds: cpu.microseconds, failures: result.failures + cpu.failures };
  } finally {
    await server.stop();
  }
}

export async function workersRows(ctx: BenchContext, dn: string): Promise<Row[]> {
  ctx.log('one process, then --workers 2');
  const one = await measure(ctx, dn, undefined);
  const two = await measure(ctx, dn, 2);
  const r = two.rate / one.rate;
  const cpu = two.microseconds / one.microseconds;
  return [
    {
      row: 'REST GET one node, `--workers 2` (node:cluster, one SQLite file in WAL mode) vs one process: requests per second (32 connections, flat out)',
      result: `${count(two.rate)} req/s vs ${count(one.rate)} req/s; ratio ${ratio(r)}`,
      target: 'ratio ≥ 1.5',
      met: r >= 1.5,
      figures: { twoWorkersRequestsPerSecond: two.rate, oneProcessRequestsPerSecond: one.rate, ratio: r },
      failures: one.failures + two.failures,
    },
    {
      row: `REST GET one node, \`--workers 2\` vs one process: server CPU per request (all processes) at ${count(CPU_LOAD.rate)} req/s offered, ${CPU_LOAD.connections} connections`,
      result: `${count(two.microseconds)} µs vs ${count(one.microseconds)} µs; ${cpu >= 1 ? '+' : ''}${ratio((cpu - 1) * 100)} %`,
      target: 'within 10 %',
      met: cpu <= 1.1,
      figures: { twoWorkersMicroseconds: two.microseconds, oneProcessMicroseconds: one.microseconds, ratio: cpu },
      failures: 0,
    },
  ];
}
