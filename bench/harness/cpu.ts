/**
 * CPU time per request at a fixed offered rate: the steadiest figure on a shared machine. The
 * load generator offers the same rate to every process compared, so its own CPU no longer decides
 * the result, as it does when each side is driven flat out (req/s). The server's CPU is read
 * from `/proc/<pid>/stat` (user + system time of every thread of the process, and of cluster
 * workers when it has any), before and after the measured window.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { childrenOf } from './processes.js';
import { median } from './stats.js';

/** Clock ticks per second of /proc's times (USER_HZ; 100 on every Linux this runs on). */
const TICKS_PER_SECOND = 100;

/** utime + stime of `pid` and its descendants, in seconds. */
export function cpuSeconds(pid: number): number {
  let ticks: number;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may contain spaces and parentheses: fields count from after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks = Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
  return ticks / TICKS_PER_SECOND + childrenOf(pid).reduce((sum, child) => sum + cpuSeconds(child), 0);
}

export interface FixedRateOptions {
  readonly url: string;
  /** The measured server's pid. */
  readonly pid: number;
  /**
   * CPU seconds used so far by the database server's processes that serve it (PostgreSQL's
   * backends), counted with the server's own; absent for an embedded database.
   */
  readonly database?: () => Promise<number>;
  readonly method?: 'GET' | 'POST';
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Paths to cycle through; one fixed path when it has one entry. */
  readonly paths: readonly string[];
  readonly seconds: number;
  /** Requests per second offered, over all connections. */
  readonly rate: number;
  readonly connections: number;
  /** The answers are 304 (a conditional GET whose tag is current): any other status is a failure. */
  readonly notModified?: boolean;
}

export interface CpuPerRequest {
  /** Server CPU time (all threads, and the database's backends when counted) per request answered, in microseconds. */
  readonly microseconds: number;
  /** Of which the database's backends (0 for an embedded database). */
  readonly databaseMicroseconds: number;
  /** The rate actually served: below the offered rate, the server (or the machine) could not keep up. */
  readonly requestsPerSecond: number;
  readonly total: number;
  readonly failures: number;
}

function offer(options: FixedRateOptions, seconds: number): Promise<autocannon.Result> {
  let next = 0;
  const { paths } = options;
  return autocannon({
    url: options.url,
    connections: options.connections,
    overallRate: options.rate,
    duration: seconds,
    method: options.method ?? 'GET',
    headers: { ...options.headers },
    ...(options.body !== undefined ? { body: options.body } : {}),
    requests:
      paths.length === 1
        ? [{ path: paths[0]! }]
        : [
            {
              setupRequest: (req) => {
                req.path = paths[next++ % paths.length]!;
                return req;
              },
            },
          ],
  });
}

/** Server CPU per request at `rate` over `seconds`, after a discarded warm-up at the same rate. */
export async function cpuPerRequest(options: FixedRateOptions, warmupSeconds = Math.min(3, Math.max(1, options.seconds / 4))): Promise<CpuPerRequest> {
  if (warmupSeconds > 0) await offer(options, warmupSeconds);
  const databaseBefore = (await options.database?.()) ?? 0;
  const before = cpuSeconds(options.pid);
  const result = await offer(options, options.seconds);
  const used = cpuSeconds(options.pid) - before;
  const database = ((await options.database?.()) ?? 0) - databaseBefore;
  const total = result.requests.total;
  return {
    microseconds: total > 0 ? ((used + database) * 1e6) / total : Number.NaN,
    databaseMicroseconds: total > 0 ? (database * 1e6) / total : Number.NaN,
    requestsPerSecond: total / result.duration,
    total,
    failures: result.errors + result.timeouts + (options.notModified ? total - result['3xx'] : result.non2xx),
  };
}

export interface CpuComparison {
  /** Median CPU per request of each side, µs (with its database's backends when counted). */
  readonly ours: number;
  readonly reference: number;
  /** Of which the database's backends, median of each side, µs. */
  readonly oursDatabase: number;
  readonly referenceDatabase: number;
  /** Median over the rounds of reference ÷ ours (higher is better for us). */
  readonly ratio: number;
  /** Each round's reference ÷ ours, in order: their spread is the resolution the median had. */
  readonly ratios: readonly number[];
  /** The lowest rate either side served in any round (below the offer: it could not keep up). */
  readonly servedRate: number;
  readonly failures: number;
}

/**
 * Each configuration at its own offered rate, `rounds` times in turn (in the record's order), so
 * that whatever else the machine does meets all of them alike: each one's rounds, in order.
 */
export async function cpuInTurn<K extends string>(configs: Readonly<Record<K, FixedRateOptions>>, rounds: number): Promise<Record<K, CpuPerRequest[]>> {
  const names = Object.keys(configs) as K[];
  const results = Object.fromEntries(names.map((name) => [name, [] as CpuPerRequest[]])) as Record<K, CpuPerRequest[]>;
  for (let round = 0; round < rounds; round++) {
    for (const name of names) results[name].push(await cpuPerRequest(configs[name]));
  }
  return results;
}

/**
 * Both sides at the same offered rate, `rounds` times in alternation (reference first), so that
 * whatever else the machine does meets both alike; the medians count.
 */
export async function compareCpu(reference: FixedRateOptions, ours: FixedRateOptions, rounds: number): Promise<CpuComparison> {
  const { reference: theirs, ours: mine } = await cpuInTurn({ reference, ours }, rounds);
  return {
    ours: median(mine.map((m) => m.microseconds)),
    reference: median(theirs.map((t) => t.microseconds)),
    oursDatabase: median(mine.map((m) => m.databaseMicroseconds)),
    referenceDatabase: median(theirs.map((t) => t.databaseMicroseconds)),
    ratio: median(mine.map((m, i) => theirs[i]!.microseconds / m.microseconds)),
    ratios: mine.map((m, i) => theirs[i]!.microseconds / m.microseconds),
    servedRate: Math.min(...mine.map((m) => m.requestsPerSecond), ...theirs.map((t) => t.requestsPerSecond)),
    failures: [...mine, ...theirs].reduce((sum, r) => sum + r.failures, 0),
  };
}

/** What `cpuSideBySide` found for one side: CPU per request over all its processes and rounds, and each process's own. */
export interface SideCpu {
  readonly microseconds: number;
  readonly processes: readonly number[];
  /** How far its identical processes differed: the highest over the lowest, less 1 (the measurement's resolution). */
  readonly spread: number;
}

export interface SideBySide {
  readonly sides: Readonly<Record<string, SideCpu>>;
  /** The lowest rate any process served in any round. */
  readonly servedRate: number;
  readonly failures: number;
}

/**
 * Every process of every side under the same offered rate at the same time, `rounds` times:
 * whatever the machine does meets all of them alike, in the same seconds. A side's figure is its
 * processes' CPU over the requests they answered, all rounds together. Measured one after the
 * other, one server's CPU per GET moved between 46 and 66 µs from one 10-s round to the next on
 * this 2-core VM; at the same time, identical servers stayed within 0.2–3.5 % of each other over
 * a minute. More than one process a side, so that the row can print that difference (`spread`),
 * the resolution it had (bench/rows/operator.ts).
 */
export async function cpuSideBySide(sides: Readonly<Record<string, readonly FixedRateOptions[]>>, rounds: number): Promise<SideBySide> {
  const all = Object.entries(sides).flatMap(([side, processes]) => processes.map((options) => ({ side, options, cpu: 0, requests: 0 })));
  let servedRate = Infinity;
  let failures = 0;
  for (let round = 0; round < rounds; round++) {
    const results = await Promise.all(all.map(({ options }) => cpuPerRequest(options)));
    results.forEach((result, i) => {
      all[i]!.cpu += result.microseconds * result.total;
      all[i]!.requests += result.total;
      servedRate = Math.min(servedRate, result.requestsPerSecond);
      failures += result.failures;
    });
  }
  const perRequest = (entries: typeof all): number => entries.reduce((sum, e) => sum + e.cpu, 0) / Math.max(1, entries.reduce((sum, e) => sum + e.requests, 0));
  return {
    sides: Object.fromEntries(Object.keys(sides).map((side) => {
      const entries = all.filter((e) => e.side === side);
      const processes = entries.map((e) => perRequest([e]));
      return [side, { microseconds: perRequest(entries), processes, spread: Math.max(...processes) / Math.min(...processes) - 1 }];
    })),
    servedRate,
    failures,
  };
}
