/**
 * `--workers 2` against one process: the same GET load on the same SQLite file (WAL), requests
 * a second flat out, and the server's CPU per request at a fixed rate (every worker's CPU and
 * the primary's counted), which says what a second process costs each request (its read cache
 * is checked against every commit: see CurrentCache).
 *
 * Both servers run side by side on the one file and the CPU is measured in alternation,
 * ctx.sizes.cpuRounds rounds (compareCpu), the medians counting: one server after the other,
 * each started fresh, the figure swung by tens of per cent between runs on the shared 2-core
 * machine (+71 % one run, +138 % the next, with nothing changed). Neither server writes, so each
 * keeps its read cache across the rounds; every worker warms its own cache, which the first
 * round's warm-up does not finish for two workers (each sees about half of the paths).
 *
 * A third series, the one process at half the rate over half the connections (what each worker
 * gets), tells what a second process adds from what a process pays for serving fewer requests a
 * second: its fixed costs (timers, idle wake-ups) shared by fewer requests, and fewer requests
 * in each wake-up of its event loop.
 */
import type { BenchContext } from '../harness/context.js';
import { CPU_LOAD } from '../harness/context.js';
import { cpuInTurn } from '../harness/cpu.js';
import { throughput } from '../harness/load.js';
import type { Measured as Server } from '../harness/processes.js';
import { count, ratio, type Row } from '../harness/report.js';
import { startTopocat } from '../harness/topocat.js';
import { randomNodePaths } from '../workloads/topology.js';
import { median } from '../harness/stats.js';

async function rate(ctx: BenchContext, server: Server, paths: readonly string[]): Promise<{ rate: number; failures: number }> {
  // More connections than one process needs, so both workers get a share of them.
  const result = await throughput({ url: server.url, paths, headers: ctx.auth, seconds: ctx.sizes.throughputSeconds, connections: 32 });
  return { rate: result.requestsPerSecond, failures: result.failures };
}

export async function workersRows(ctx: BenchContext, dn: string): Promise<Row[]> {
  ctx.log('one process beside --workers 2, in alternation');
  const paths = randomNodePaths(ctx.sizes.nodes);
  const one = await startTopocat({ dir: ctx.dir, token: ctx.token, dn, label: 'workers-1' });
  try {
    const two = await startTopocat({ dir: ctx.dir, token: ctx.token, dn, label: 'workers-2', workers: 2 });
    try {
      const fixed = { paths, headers: ctx.auth, seconds: ctx.sizes.cpuSeconds, ...CPU_LOAD };
      const configs = {
        one: { ...fixed, url: one.url, pid: one.pid },
        two: { ...fixed, url: two.url, pid: two.pid },
        half: { ...fixed, url: one.url, pid: one.pid, rate: CPU_LOAD.rate / 2, connections: CPU_LOAD.connections / 2 },
      };
      const rounds = await cpuInTurn(configs, ctx.sizes.cpuRounds);
      const micros = (name: keyof typeof configs): number => median(rounds[name].map((x) => x.microseconds));
      const over = (name: keyof typeof configs): number[] => rounds[name].map((x, i) => x.microseconds / rounds.one[i]!.microseconds - 1);
      const extra = over('two');
      const halfExtra = over('half');
      const cpu = { ours: micros('two'), reference: micros('one'), half: micros('half'), servedRate: Math.min(...[...rounds.one, ...rounds.two].map((x) => x.requestsPerSecond)) };
      const failures = Object.values(rounds).flat().reduce((sum, x) => sum + x.failures, 0);
      const oneRate = await rate(ctx, one, paths);
      const twoRate = await rate(ctx, two, paths);
      const r = twoRate.rate / oneRate.rate;
      const percent = (x: number): string => `${x >= 0 ? '+' : ''}${ratio(x * 100)} %`;
      const cpuRatio = 1 + median(extra);
      return [
        {
          row: 'REST GET one node, `--workers 2` (node:cluster, one SQLite file in WAL mode) vs one process: requests per second (32 connections, flat out)',
          result: `${count(twoRate.rate)} req/s vs ${count(oneRate.rate)} req/s; ratio ${ratio(r)}`,
          target: 'ratio ≥ 1.5',
          met: r >= 1.5,
          figures: { twoWorkersRequestsPerSecond: twoRate.rate, oneProcessRequestsPerSecond: oneRate.rate, ratio: r },
          failures: oneRate.failures + twoRate.failures,
        },
        {
          row: `REST GET one node, \`--workers 2\` vs one process: server CPU per request (all processes) at ${count(CPU_LOAD.rate)} req/s offered, ${CPU_LOAD.connections} connections (median of ${ctx.sizes.cpuRounds} rounds in alternation)`,
          result:
            `${count(cpu.ours)} µs vs ${count(cpu.reference)} µs; ${percent(cpuRatio - 1)} (rounds: ${extra.map(percent).join(', ')}; lowest rate served ${count(cpu.servedRate)}/s). ` +
            `The one process at half the rate, 4 connections (what each worker gets): ${count(cpu.half)} µs, ${percent(median(halfExtra))} (rounds: ${halfExtra.map(percent).join(', ')})`,
          target: 'within 10 %',
          met: cpuRatio <= 1.1,
          figures: {
            twoWorkersMicroseconds: cpu.ours,
            oneProcessMicroseconds: cpu.reference,
            ratio: cpuRatio,
            lowestRoundRatio: 1 + Math.min(...extra),
            highestRoundRatio: 1 + Math.max(...extra),
            servedRate: cpu.servedRate,
            oneProcessHalfRateMicroseconds: cpu.half,
            halfRateRatio: 1 + median(halfExtra),
          },
          failures,
        },
      ];
    } finally {
      await two.stop();
    }
  } finally {
    await one.stop();
  }
}
