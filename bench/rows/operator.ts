/**
 * What an operator pays and waits for: the GET's CPU with /metrics counting (the default) against
 * METRICS=false, two servers on the same SQLite file measured in alternation; and `npm start` of
 * the built checkout, from the command to the first `/health` 200 (median of five starts).
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { BenchContext } from '../harness/context.js';
import { CPU_LOAD } from '../harness/context.js';
import { compareCpu } from '../harness/cpu.js';
import { freePort, projectRoot } from '../harness/processes.js';
import { count, ratio, type Row } from '../harness/report.js';
import { startTopocat } from '../harness/topocat.js';
import { randomNodePaths } from '../workloads/topology.js';

const STARTS = 5;

async function metricsCost(ctx: BenchContext, dn: string): Promise<Row> {
  const off = await startTopocat({ dir: ctx.dir, token: ctx.token, dn, label: 'metrics-off', env: { METRICS: 'false' } });
  const on = await startTopocat({ dir: ctx.dir, token: ctx.token, dn, label: 'metrics-on' });
  try {
    const paths = randomNodePaths(ctx.sizes.nodes);
    const load = { paths, headers: ctx.auth, seconds: ctx.sizes.cpuSeconds, ...CPU_LOAD };
    const cpu = await compareCpu({ url: off.url, pid: off.pid, ...load }, { url: on.url, pid: on.pid, ...load }, Math.max(2, ctx.sizes.cpuRounds));
    const extra = cpu.ours / cpu.reference - 1;
    return {
      row: `REST GET one node with /metrics counting (the default) vs METRICS=false: server CPU per request at ${count(CPU_LOAD.rate)} req/s offered, ${CPU_LOAD.connections} connections (alternating rounds)`,
      result: `${cpu.ours.toFixed(0)} µs vs ${cpu.reference.toFixed(0)} µs; ${extra >= 0 ? '+' : ''}${ratio(extra * 100)} %`,
      target: 'within 3 %',
      met: extra <= 0.03,
      figures: { onMicroseconds: cpu.ours, offMicroseconds: cpu.reference, ratio: cpu.ours / cpu.reference },
      failures: cpu.failures,
    };
  } finally {
    await on.stop();
    await off.stop();
  }
}

/** One `npm start` in the project, timed from the spawn to the first /health 200, then stopped by SIGTERM to npm. */
async function oneStart(ctx: BenchContext, i: number): Promise<number> {
  const port = await freePort();
  const file = path.join(ctx.dir, `start-${i}.sqlite`);
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: `sqlite:${file}`, LOG_LEVEL: 'warn', TOPOCAT_NO_REBUILD: 'true' },
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    for (;;) {
      // Until the application is ready the server answers 503 (server/serve.ts); refused before it listens.
      const ok = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(5_000) }).then((r) => r.status === 200, () => false);
      if (ok) return performance.now() - started;
      if (child.exitCode !== null) throw new Error('npm start exited before answering');
      if (performance.now() - started > 60_000) throw new Error('npm start did not answer within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  }
}

async function startTime(ctx: BenchContext): Promise<Row> {
  const times: number[] = [];
  for (let i = 0; i < STARTS; i++) times.push(await oneStart(ctx, i));
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  return {
    row: `\`npm start\` of a built checkout (a new SQLite file): from the command to the first /health 200 (median of ${STARTS})`,
    result: `${(median / 1000).toFixed(2)} s (fastest ${(times[0]! / 1000).toFixed(2)} s, slowest ${(times.at(-1)! / 1000).toFixed(2)} s)`,
    target: '< 2 s',
    met: median < 2_000,
    figures: { medianMs: median, fastestMs: times[0]!, slowestMs: times.at(-1)! },
    failures: 0,
  };
}

export async function operatorRows(ctx: BenchContext, dn: string): Promise<Row[]> {
  ctx.log('operator: /metrics on vs off');
  const metrics = await metricsCost(ctx, dn);
  ctx.log('operator: npm start to the first /health');
  return [metrics, await startTime(ctx)];
}
