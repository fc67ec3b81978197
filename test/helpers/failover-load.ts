/**
 * The load of issue 46's table (rest-contract §16) against one server while its primary fails:
 * four writers, each a POST every 40 ms (100 a second together), GETs at 20 a second of the
 * newest acknowledged write (a 404 is a read back in time), and, when asked, /health and
 * /health/live ten times a second. Every answer is kept. Used by the failover suite
 * (test/failover/) and `npm run bench -- --only failover` (bench/rows/failover.ts).
 */

const WRITERS = 4;
const WRITE_EVERY_MS = 40;
const READ_EVERY_MS = 50;
const HEALTH_EVERY_MS = 100;

export interface Outcome {
  readonly status: number;
  /** performance.now() at the answer. */
  readonly at: number;
  /** From the request to its answer. */
  readonly ms: number;
  /** A write's id, when answered 201. */
  readonly id?: string;
  /** A write's name (unique). */
  readonly name?: string;
  readonly retryAfter: string | null;
}

export interface HealthProbe {
  /** /health (readiness) and /health/live, 0 when unanswered. */
  readonly ready: number;
  readonly live: number;
  readonly at: number;
}

export class FailoverLoad {
  readonly writes: Outcome[] = [];
  readonly reads: Outcome[] = [];
  readonly health: HealthProbe[] = [];
  /** Every id whose POST was answered 201, in order. */
  readonly acknowledged: string[] = [];
  private running = true;
  private readonly loops: Promise<void>[] = [];
  private written = 0;

  constructor(
    private readonly url: string,
    private readonly headers: Readonly<Record<string, string>>,
    label: string,
    options: { readonly health?: boolean } = {},
  ) {
    for (let w = 0; w < WRITERS; w++) this.loops.push(this.every(WRITE_EVERY_MS, () => this.write(`${label}-${w}`)));
    this.loops.push(this.every(READ_EVERY_MS, () => this.read()));
    if (options.health) this.loops.push(this.every(HEALTH_EVERY_MS, () => this.probe()));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  private async every(gap: number, act: () => Promise<void>): Promise<void> {
    while (this.running) {
      const next = performance.now() + gap;
      await act();
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
    }
  }

  private async write(writer: string): Promise<void> {
    const name = `${writer}-${this.written++}`;
    const started = performance.now();
    let status = 0;
    let retryAfter: string | null = null;
    let id: string | undefined;
    try {
      const answer = await fetch(`${this.url}/nodes`, { method: 'POST', headers: { ...this.headers, 'content-type': 'application/json' }, body: JSON.stringify({ name }) });
      status = answer.status;
      retryAfter = answer.headers.get('retry-after');
      const body = (await answer.json()) as { id?: unknown };
      if (status === 201) id = String(body.id);
    } catch {
      // No answer: status 0.
    }
    const at = performance.now();
    if (id !== undefined) this.acknowledged.push(id);
    this.writes.push({ status, at, ms: at - started, name, retryAfter, ...(id !== undefined ? { id } : {}) });
  }

  private async read(): Promise<void> {
    const id = this.acknowledged.at(-1);
    if (id === undefined) return;
    const started = performance.now();
    let status = 0;
    let retryAfter: string | null = null;
    try {
      const answer = await fetch(`${this.url}/nodes/${id}`, { headers: this.headers });
      status = answer.status;
      retryAfter = answer.headers.get('retry-after');
      await answer.arrayBuffer();
    } catch {
      // No answer: status 0.
    }
    const at = performance.now();
    this.reads.push({ status, at, ms: at - started, retryAfter });
  }

  private async probe(): Promise<void> {
    const status = (path: string): Promise<number> =>
      fetch(`${this.url}${path}`, { headers: this.headers }).then(
        async (answer) => {
          await answer.arrayBuffer();
          return answer.status;
        },
        () => 0,
      );
    const [ready, live] = await Promise.all([status('/health'), status('/health/live')]);
    this.health.push({ ready, live, at: performance.now() });
  }
}
