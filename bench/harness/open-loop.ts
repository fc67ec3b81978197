/**
 * An open-loop load of independent clients: each sends on its own schedule (exponential gaps, so
 * the arrivals of all clients together are a Poisson stream at the offered rate), whether or not
 * its earlier requests have been answered, as separate programs of a site would. Requests of
 * different clients do not arrive together, so the server's group commit and merged writes get
 * no more help than real traffic gives them (the figures moved from 1.62 to 0.80 ms a
 * write on SQLite when all clients fired together).
 *
 * Written on `node:http` with a keep-alive agent per client: a Node `fetch` client spent 0.9–1.0
 * ms of CPU per write on this machine, `node:http` 0.35–0.5 ms, and the load generator shares the
 * two cores with what it measures. Its own CPU is reported beside the figures it produced.
 *
 * Latency counts from the instant a request was due, not from when it was sent, so a generator
 * that falls behind shows up in the latencies instead of hiding.
 */
import http from 'node:http';

export interface OpenLoopRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Whether the answer's status is the one this request must get. */
  readonly expect: (status: number) => boolean;
  /** Called with the answer's status once it is read (the workload's own bookkeeping). */
  readonly done?: (status: number) => void;
}

export interface OpenLoopOptions {
  readonly clients: number;
  /** Requests a second offered, over all clients. */
  readonly rate: number;
  readonly seconds: number;
  /** The base URL client `c` sends to (several server processes: each client keeps to one). */
  readonly url: (client: number) => string;
  /** Client `c`'s next request. */
  readonly next: (client: number) => OpenLoopRequest;
}

export interface OpenLoopResult {
  /** Requests answered within the window (and the stragglers it waited for). */
  readonly answered: number;
  readonly failures: number;
  /** Latencies in ms, sorted. */
  readonly latencies: readonly number[];
  /** CPU seconds the generator itself used (this process, user + system). */
  readonly generatorCpu: number;
  readonly seconds: number;
  /** What the failures answered: status → count (0: no answer). */
  readonly failed: Readonly<Record<number, number>>;
}

export async function openLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  const latencies: number[] = [];
  const failed: Record<number, number> = {};
  let failures = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const end = started + options.seconds * 1000;
  const meanGapMs = (1000 * options.clients) / options.rate;
  const clients = Array.from({ length: options.clients }, async (_, c) => {
    const agent = new http.Agent({ keepAlive: true });
    const base = new URL(options.url(c));
    const pending = new Set<Promise<void>>();
    // Each client starts at a random point of its first gap, so that they do not start together.
    let due = started + Math.random() * meanGapMs;
    while (due < end) {
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const request = options.next(c);
      const at = due;
      const sent = send(agent, base, request).then((status) => {
        request.done?.(status);
        if (request.expect(status)) latencies.push(performance.now() - at);
        else {
          failures++;
          failed[status] = (failed[status] ?? 0) + 1;
        }
      });
      pending.add(sent);
      void sent.finally(() => pending.delete(sent));
      due += -Math.log(1 - Math.random()) * meanGapMs;
    }
    await Promise.all(pending);
    agent.destroy();
  });
  await Promise.all(clients);
  const cpu = process.cpuUsage(cpuBefore);
  latencies.sort((a, b) => a - b);
  return { answered: latencies.length + failures, failures, latencies, generatorCpu: (cpu.user + cpu.system) / 1e6, seconds: (performance.now() - started) / 1000, failed };
}

/** The status of one request (0 when it got no answer), its body read and dropped. */
function send(agent: http.Agent, base: URL, request: OpenLoopRequest): Promise<number> {
  return new Promise((resolve) => {
    const req = http.request(
      { agent, host: base.hostname, port: base.port, method: request.method, path: request.path, headers: { ...request.headers, ...(request.body !== undefined ? { 'content-length': Buffer.byteLength(request.body) } : {}) } },
      (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode ?? 0));
        res.once('error', () => resolve(0));
      },
    );
    req.once('error', () => resolve(0));
    req.end(request.body);
  });
}

/** The `q`-quantile of sorted values. */
export function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? Number.NaN;
}
