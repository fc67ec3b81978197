import type { BenchContext } from './context.js';
import { CPU_LOAD } from './context.js';
import type { CpuComparison } from './cpu.js';
import { count, ratio, type Row } from './report.js';

const micros = (n: number): string => `${n.toFixed(0)} µs`;

/** The rounds' lowest and highest ratio, when there was more than one round: the resolution of the median. */
function spread(ratios: readonly number[]): string {
  return ratios.length > 1 ? `, rounds ${ratio(Math.min(...ratios))}–${ratio(Math.max(...ratios))}` : '';
}

/**
 * A headline row: CPU per request of ours against the reference at the fixed rate (CPU_LOAD, or
 * `load` where the reference cannot serve that); ratio = reference ÷ ours.
 */
export function cpuRow(what: string, reference: string, cpu: CpuComparison, target: number, ctx: BenchContext, load: { rate: number; connections: number } = CPU_LOAD): Row {
  const rounds = ctx.sizes.cpuRounds;
  return {
    row: `${what} at ${count(load.rate)} req/s offered, ${load.connections} connections${rounds > 1 ? ` (median of ${rounds} rounds)` : ''}`,
    result: `${micros(cpu.ours)}; ${reference} ${micros(cpu.reference)}; ratio ${ratio(cpu.ratio)}${spread(cpu.ratios)} (lowest rate served ${count(cpu.servedRate)}/s)`,
    target: `ratio ≥ ${target}`,
    met: cpu.ratio >= target,
    figures: { microseconds: cpu.ours, referenceMicroseconds: cpu.reference, ratio: cpu.ratio, lowestRatio: Math.min(...cpu.ratios), highestRatio: Math.max(...cpu.ratios), servedRate: cpu.servedRate },
    // A side that could not serve the offered rate measured something else.
    failures: cpu.failures,
  };
}
