/**
 * One benchmark run's results: rows of (what was measured, the figures, the target and whether
 * it was met), printed as a Markdown table (the README shows it as is) and written as JSON.
 */
import { cpus, totalmem } from 'node:os';

export interface Row {
  readonly row: string;
  /** The figures, formatted for people: "12,345 req/s; ceiling 15,000 req/s; ratio 0.82". */
  readonly result: string;
  readonly target: string;
  /** Undefined when the row only reports. */
  readonly met: boolean | undefined;
  /** The same figures as numbers, for --json. */
  readonly figures: Readonly<Record<string, number>>;
  /** Failed requests (not 2xx, connection errors, wrong answers): any makes the run fail. */
  readonly failures: number;
}

export interface Machine {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly node: string;
  readonly date: string;
}

export function machine(): Machine {
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    date: new Date().toISOString(),
  };
}

export const count = (n: number): string => Math.round(n).toLocaleString('en-US');
export const ms = (n: number): string => `${n < 10 ? n.toFixed(2) : n.toFixed(1)} ms`;
export const ratio = (n: number): string => n.toFixed(2);
export const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
export const seconds = (n: number): string => `${n.toFixed(2)} s`;

function verdict(row: Row): string {
  if (row.failures > 0) return `FAILED (${row.failures} failed requests)`;
  if (row.met === undefined) return 'report';
  return row.met ? 'met' : 'MISSED';
}

export function table(rows: readonly Row[]): string {
  const lines = ['| row | result | target | verdict |', '|---|---|---|---|'];
  for (const row of rows) lines.push(`| ${row.row} | ${row.result} | ${row.target} | ${verdict(row)} |`);
  return lines.join('\n');
}

export function describeMachine(m: Machine): string {
  return `${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}, ${m.date}`;
}
