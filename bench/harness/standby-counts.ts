import type { Measured } from './processes.js';

/** The standby counters of a server's /metrics, summed over its standbys. */
export interface StandbyCounts {
  /** Reads a standby served. */
  readonly reads: number;
  /** Of them, those that waited for the standby to replay far enough. */
  readonly waits: number;
  /** Reads the primary served instead. */
  readonly fallbacks: number;
}

/** Read `server`'s /metrics and sum each standby counter over its standbys (0 where it has none). */
export async function standbyCounts(server: Measured, auth: Readonly<Record<string, string>>): Promise<StandbyCounts> {
  const text = await (await fetch(`${server.url}/metrics`, { headers: auth })).text();
  const sum = (name: string): number =>
    text
      .split('\n')
      .filter((line) => line.startsWith(`${name}{`))
      .reduce((total, line) => total + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
  return { reads: sum('topocat_standby_reads_total'), waits: sum('topocat_standby_read_waits_total'), fallbacks: sum('topocat_standby_fallbacks_total') };
}
