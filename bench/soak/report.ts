/** What a soak tells the person watching it: progress lines on stderr, and the tallies as totals and a table. */
import { percentile } from '../harness/load.js';
import { count, mib, ms } from '../harness/report.js';
import type { Operation, Tally } from './session.js';

export const log = (message: string): void => {
  process.stderr.write(`[soak ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
};

export interface Totals {
  readonly requests: number;
  readonly errors: number;
  readonly p50: number;
  readonly p99: number;
}

export function totals(list: readonly Tally[]): Totals {
  const times = list.flatMap((t) => t.times).sort((a, b) => a - b);
  return { requests: list.reduce((s, t) => s + t.requests, 0), errors: list.reduce((s, t) => s + t.errors, 0), p50: percentile(times, 50), p99: percentile(times, 99) };
}

/** A latency, or a dash when nothing was timed. */
export const latency = (n: number): string => (Number.isNaN(n) ? '–' : ms(n));

export function table(tallies: ReadonlyMap<Operation, Tally>): string {
  const lines = ['| operation | requests | errors | p50 | p99 |', '|---|---:|---:|---:|---:|'];
  for (const [operation, tally] of tallies) {
    if (tally.requests === 0) continue;
    const t = totals([tally]);
    lines.push(`| ${operation} | ${count(t.requests)} | ${count(t.errors)} | ${latency(t.p50)} | ${latency(t.p99)} |`);
  }
  const all = totals([...tallies.values()]);
  lines.push(`| **all** | ${count(all.requests)} | ${count(all.errors)} | ${latency(all.p50)} | ${latency(all.p99)} |`);
  return lines.join('\n');
}

export function signed(bytes: number): string {
  return `${bytes < 0 ? '−' : '+'}${mib(Math.abs(bytes))}`;
}
