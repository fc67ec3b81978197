/**
 * The two ways a row loads a server: throughput (autocannon, many connections, kept alive) and
 * latency (one client, back to back, each request timed to the microsecond: autocannon's
 * histogram counts whole milliseconds, too coarse for targets of a few ms).
 */
import autocannon from 'autocannon';
import { keepAliveAgent, timedRequest } from './client.js';
import { cpuSeconds } from './cpu.js';

export interface Throughput {
  readonly requestsPerSecond: number;
  readonly total: number;
  /** Connection errors, timeouts and answers that were not 2xx; a row with any is reported failed. */
  readonly failures: number;
}

export interface ThroughputOptions {
  readonly url: string;
  readonly method?: 'GET' | 'POST';
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Paths to cycle through (e.g. random ids); one fixed path when it has one entry. */
  readonly paths: readonly string[];
  readonly seconds: number;
  readonly connections?: number;
}

async function cannon(options: ThroughputOptions, seconds: number): Promise<Throughput> {
  let next = 0;
  const { paths } = options;
  const result = await autocannon({
    url: options.url,
    connections: options.connections ?? 16,
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
  return {
    requestsPerSecond: result.requests.total / result.duration,
    total: result.requests.total,
    failures: result.errors + result.timeouts + result.non2xx,
  };
}

/** Requests per second over `seconds`, after a discarded warm-up (JIT, caches, pools). */
export async function throughput(options: ThroughputOptions, warmupSeconds = Math.min(3, Math.max(1, options.seconds / 4))): Promise<Throughput> {
  await cannon(options, warmupSeconds);
  return cannon(options, options.seconds);
}

export interface Latency {
  readonly p50: number;
  readonly p99: number;
  readonly count: number;
  readonly failures: number;
  /** With `pid`: the server's CPU time per recorded request (µs), from /proc (see cpu.ts). */
  readonly cpuMicroseconds?: number;
}

export interface LatencyOptions {
  readonly url: string;
  readonly method?: 'GET' | 'POST';
  readonly headers?: Readonly<Record<string, string>>;
  /** The path of the i-th request. */
  readonly path: (i: number) => string;
  /** The body of the i-th request, if it has one. */
  readonly body?: (i: number) => string;
  readonly seconds: number;
  /** Check a 2xx answer's body; a false result counts as a failure. */
  readonly check?: (body: string) => boolean;
  /** The server's pid: its CPU time over the recorded requests is reported per request. */
  readonly pid?: number;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** p50 and p99 of one client's back-to-back requests, after a one-second warm-up. */
export async function latency(options: LatencyOptions): Promise<Latency> {
  const agent = keepAliveAgent();
  const run = async (seconds: number, record: boolean, start: number): Promise<{ times: number[]; failures: number; i: number }> => {
    const times: number[] = [];
    let failures = 0;
    const until = performance.now() + seconds * 1000;
    let i = start;
    while (performance.now() < until) {
      const url = new URL(options.path(i), options.url);
      const body = options.body?.(i);
      i++;
      try {
        const answer = await timedRequest(agent, url, { method: options.method ?? 'GET', headers: options.headers ?? {}, ...(body !== undefined ? { body } : {}) });
        if (answer.status < 200 || answer.status > 299 || (options.check && !options.check(answer.body))) failures++;
        if (record) times.push(answer.ms);
      } catch {
        failures++;
      }
    }
    return { times, failures, i };
  };
  try {
    const warm = await run(1, false, 0);
    const before = options.pid === undefined ? 0 : cpuSeconds(options.pid);
    const { times, failures } = await run(options.seconds, true, warm.i);
    const cpu = options.pid === undefined || times.length === 0 ? {} : { cpuMicroseconds: ((cpuSeconds(options.pid) - before) * 1e6) / times.length };
    times.sort((a, b) => a - b);
    return { p50: percentile(times, 50), p99: percentile(times, 99), count: times.length, failures: failures + warm.failures, ...cpu };
  } finally {
    agent.destroy();
  }
}
