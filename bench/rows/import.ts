/**
 * The rows of moving from UNIS (docs/moving-from-unis.md, issue 35): `npm run import` of a
 * `mongoexport` folder of 1,000,000 versions of 100,000 resources (25,000 nodes with 2 ports and
 * a link each, 10 versions apiece, references between them) into an empty database, on SQLite
 * and, where TEST_DATABASE_URL names one, on PostgreSQL; and of 1,000,000 measurement points (4
 * series). Each import is one process, as an operator runs it: versions (or points) a second of
 * its whole run, and its RSS growth from when it began reading to its peak (its report's memory
 * line). The CPU of the import and, on PostgreSQL, of the backends, is reported beside.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { BenchContext } from '../harness/context.js';
import { cpuSeconds } from '../harness/cpu.js';
import { benchPostgres, postgresUnavailable } from '../harness/postgres.js';
import { distRoot, treeRss } from '../harness/processes.js';
import { count, mib, seconds, type Row } from '../harness/report.js';
import { writeRegistry, type RegistryShape } from '../workloads/unis-registry.js';

const FULL_SHAPE: RegistryShape = { nodes: 25_000, versions: 10, series: 0, pointsPerSeries: 0 };
const QUICK_SHAPE: RegistryShape = { nodes: 250, versions: 10, series: 0, pointsPerSeries: 0 };
const FULL_POINTS: RegistryShape = { nodes: 0, versions: 0, series: 4, pointsPerSeries: 250_000 };
const QUICK_POINTS: RegistryShape = { nodes: 0, versions: 0, series: 2, pointsPerSeries: 5_000 };

interface Run {
  readonly seconds: number;
  readonly cpu: number;
  readonly rssGrowth: number;
  /** CPU seconds of the sessions' backends (PostgreSQL), as last sampled during the run. */
  readonly backendCpu: number;
  readonly code: number;
  readonly output: string;
}

/** One `npm start -- import --from <dir>` on `databaseUrl`, timed, its RSS sampled. */
async function importRun(ctx: BenchContext, dir: string, databaseUrl: string, label: string, backendCpu?: () => Promise<number>): Promise<Run> {
  const logFile = path.join(ctx.dir, `import-${label}.log`);
  const out = openSync(logFile, 'w');
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(distRoot, 'server/main.js'), 'import', '--from', dir], {
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl, PUBLIC_URL: 'http://topocat.bench:8080' },
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  const pid = child.pid!;
  let baseline: number | undefined;
  let peak = 0;
  let cpu = 0;
  const sampler = setInterval(() => {
    try {
      const rss = treeRss(pid);
      baseline ??= rss;
      peak = Math.max(peak, rss);
      cpu = cpuSeconds(pid);
    } catch {
      // exited between two samples
    }
  }, 100);
  let backends = 0;
  const backendSampler = backendCpu && setInterval(() => void backendCpu().then((c) => (backends = Math.max(backends, c)), () => undefined), 500);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearInterval(sampler);
  if (backendSampler) clearInterval(backendSampler);
  const output = readFileSync(logFile, 'utf8');
  // The import's own word on its memory (from when it began reading): the samples' first one is
  // taken while Node still loads its modules.
  const memory = /^memory: (\d+) MiB when reading began, peak (\d+) MiB$/m.exec(output);
  const growth = memory ? (Number(memory[2]) - Number(memory[1])) * 2 ** 20 : peak - (baseline ?? peak);
  return { seconds: (performance.now() - started) / 1000, cpu, rssGrowth: growth, backendCpu: backends, code: code ?? 1, output };
}

export async function importRows(ctx: BenchContext): Promise<Row[]> {
  const quick = ctx.sizes.nodes < 10_000;
  const shape = quick ? QUICK_SHAPE : FULL_SHAPE;
  const source = path.join(ctx.dir, 'unis-export');
  ctx.log(`import: writing a mongoexport folder of ${count(shape.nodes * 4 * shape.versions)} versions`);
  const { versions } = await writeRegistry(source, shape);
  const rows: Row[] = [];

  const sqlite = await importRun(ctx, source, `sqlite:${path.join(ctx.dir, 'import.sqlite')}`, 'sqlite');
  const sqliteRate = versions / sqlite.seconds;
  rows.push({
    row: `import of a mongoexport folder, ${count(versions)} versions of ${count(versions / shape.versions)} resources, SQLite`,
    result: `${count(sqliteRate)} versions/s (${seconds(sqlite.seconds)}, import CPU ${seconds(sqlite.cpu)}); RSS growth ${mib(sqlite.rssGrowth)}`,
    target: '≥ 25,000 versions/s; RSS growth < 200 MiB',
    met: sqliteRate >= 25_000 && sqlite.rssGrowth < 200 * 2 ** 20,
    figures: { versionsPerSecond: sqliteRate, seconds: sqlite.seconds, cpuSeconds: sqlite.cpu, rssGrowthBytes: sqlite.rssGrowth },
    failures: sqlite.code === 0 ? 0 : 1,
  });
  if (sqlite.code !== 0) ctx.log(`import on SQLite exited ${sqlite.code}:\n${sqlite.output.slice(-2000)}`);

  const why = postgresUnavailable();
  if (why === undefined) {
    const pg = await benchPostgres();
    try {
      const run = await importRun(ctx, source, pg.url('topocat-import'), 'postgres', () => pg.backendCpu('topocat-import'));
      const rate = versions / run.seconds;
      rows.push({
        row: `the same import on PostgreSQL`,
        result: `${count(rate)} versions/s (${seconds(run.seconds)}, import CPU ${seconds(run.cpu)}, PostgreSQL backends ${seconds(run.backendCpu)}); RSS growth ${mib(run.rssGrowth)}`,
        target: '≥ 10,000 versions/s',
        met: rate >= 10_000,
        figures: { versionsPerSecond: rate, seconds: run.seconds, cpuSeconds: run.cpu, rssGrowthBytes: run.rssGrowth, backendCpuSeconds: run.backendCpu },
        failures: run.code === 0 ? 0 : 1,
      });
      if (run.code !== 0) ctx.log(`import on PostgreSQL exited ${run.code}:\n${run.output.slice(-2000)}`);
    } finally {
      await pg.close();
    }
  } else {
    ctx.log(`import: PostgreSQL row NOT RUN: ${why}`);
  }
  rmSync(source, { recursive: true, force: true });

  const pointShape = quick ? QUICK_POINTS : FULL_POINTS;
  const pointSource = path.join(ctx.dir, 'unis-points');
  const { points } = await writeRegistry(pointSource, pointShape);
  const run = await importRun(ctx, pointSource, `sqlite:${path.join(ctx.dir, 'import-points.sqlite')}`, 'points');
  const rate = points / run.seconds;
  rows.push({
    row: `measurement points imported (${count(points)} in ${pointShape.series} series), SQLite`,
    result: `${count(rate)} points/s (${seconds(run.seconds)}, import CPU ${seconds(run.cpu)}); RSS growth ${mib(run.rssGrowth)}`,
    target: '≥ 200,000 points/s',
    met: rate >= 200_000,
    figures: { pointsPerSecond: rate, seconds: run.seconds, cpuSeconds: run.cpu, rssGrowthBytes: run.rssGrowth },
    failures: run.code === 0 ? 0 : 1,
  });
  if (run.code !== 0) ctx.log(`points import exited ${run.code}:\n${run.output.slice(-2000)}`);
  rmSync(pointSource, { recursive: true, force: true });
  return rows;
}
