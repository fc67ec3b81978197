/**
 * What an operator pays and waits for: the GET's CPU with /metrics counting (the default) against
 * METRICS=false, two servers a side on the same SQLite file, all under load at once; and `npm start` of
 * the built checkout, from the command to the first `/health` 200 (median of five starts).
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { BenchContext } from '../harness/context.js';
import { CPU_LOAD } from '../harness/context.js';
import { cpuSideBySide } from '../harness/cpu.js';
import { freePort, projectRoot, type Measured } from '../harness/processes.js';
import { count, ratio, type Row } from '../harness/report.js';
import { startTopocat } from '../harness/topocat.js';
import { randomNodePaths } from '../workloads/topology.js';

const STARTS = 5;

/** Servers a side in the /metrics row: identical servers differ by a few per cent (cpuSideBySide). */
const PER_SIDE = 2;

async function metricsCost(ctx: BenchContext, dn: string): Promise<Row> {
  const started: Measured[] = [];
  try {
    // Started alternately, so neither side is the older processes.
    const sides: Record<'on' | 'off', Measured[]> = { off: [], on: [] };
    for (let i = 0; i < PER_SIDE; i++) {
      for (const side of ['off', 'on'] as const) {
        const server = await startTopocat({ dir: ctx.dir, token: ctx.token, dn, label: `metrics-${side}-${i}`, env: side === 'off' ? { METRICS: 'false' } : {} });
        started.push(server);
        sides[side].push(server);
      }
    }
    const paths = randomNodePaths(ctx.sizes.nodes);
    const load = { paths, headers: ctx.auth, seconds: ctx.sizes.cpuSeconds, ...CPU_LOAD };
    const options = (servers: Measured[]) => servers.map((server) => ({ url: server.url, pid: server.pid, ...load }));
    const cpu = await cpuSideBySide({ off: options(sides.off), on: options(sides.on) }, Math.max(2, ctx.sizes.cpuRounds * 2));
    const on = cpu.sides.on!;
    const off = cpu.sides.off!;
    const extra = on.microseconds / off.microseconds - 1;
    return {
      row: `REST GET one node with /metrics counting (the default) vs METRICS=false: server CPU per request at ${count(CPU_LOAD.rate)} req/s offered to each of ${PER_SIDE} servers a side, ${CPU_LOAD.connections} connections each, all at once`,
      result: `${on.microseconds.toFixed(1)} µs vs ${off.microseconds.toFixed(1)} µs; ${extra >= 0 ? '+' : ''}${ratio(extra * 100)} % (identical servers differed by ${ratio(off.spread * 100)} % off, ${ratio(on.spread * 100)} % on; lowest rate served ${count(Math.round(cpu.servedRate))}/s)`,
      target: 'within 3 %',
      met: extra <= 0.03,
      figures: { onMicroseconds: on.microseconds, offMicroseconds: off.microseconds, ratio: on.microseconds / off.microseconds, ...Object.fromEntries([...on.processes.map((v, i) => [`on${i}Microseconds`, v]), ...off.processes.map((v, i) => [`off${i}Microseconds`, v])]) },
      failures: cpu.failures,
    };
  } finally {
    await Promise.all(started.map((server) => server.stop()));
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
