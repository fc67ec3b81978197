/** `npm run generate` and `npm run generate -- --check`, timed as a user runs them (npm included). */
import { spawnSync } from 'node:child_process';
import type { BenchContext } from '../harness/context.js';
import { percentile } from '../harness/load.js';
import { projectRoot } from '../harness/processes.js';
import { seconds, type Row } from '../harness/report.js';

function timed(args: readonly string[]): { seconds: number; ok: boolean } {
  const started = performance.now();
  const run = spawnSync('npm', ['run', '--silent', 'generate', ...args], { cwd: projectRoot, encoding: 'utf8' });
  return { seconds: (performance.now() - started) / 1000, ok: run.status === 0 };
}

function median(ctx: BenchContext, args: readonly string[]): { seconds: number; failures: number } {
  const runs = Array.from({ length: ctx.sizes.generateRuns }, () => timed(args));
  const times = runs.map((r) => r.seconds).sort((a, b) => a - b);
  return { seconds: percentile(times, 50), failures: runs.filter((r) => !r.ok).length };
}

export function generateRows(ctx: BenchContext): Row[] {
  ctx.log('npm run generate');
  const write = median(ctx, []);
  const check = median(ctx, ['--', '--check']);
  const row = (name: string, m: { seconds: number; failures: number }): Row => ({
    row: name,
    result: `${seconds(m.seconds)} (median of ${ctx.sizes.generateRuns})`,
    target: '< 3 s',
    met: m.seconds < 3,
    figures: { seconds: m.seconds },
    failures: m.failures,
  });
  return [row('`npm run generate`', write), row('`npm run generate -- --check`', check)];
}
