import type { SortKey } from '../query/syntax.js';
import { ArrayBytes } from './array-bytes.js';
import type { OrderKey } from './order.js';
import { SortKeyReader } from './sort-key-bytes.js';

/** Why an instance is left out of a federated answer (named in `Federation-Partial`). */
export class InstanceFailure extends Error {
  constructor(
    readonly instance: string,
    readonly reason: string,
  ) {
    super(`${instance}: ${reason}`);
  }
}

export interface InstanceRequest {
  readonly instance: string;
  /** Path and query asked of it (`/nodes?…`). */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Time for its answer to start (status and first element), then the longest a read may wait. */
  readonly timeoutMs: number;
  readonly sort: readonly SortKey[];
}

/**
 * One instance's list, read as a stream of bytes: `open` resolves once its first element (or its
 * end) is there, within the time budget. The head element is where its bytes are (`bytes`,
 * `start`, `end`, as the instance sent them) and its sort key (`key`, undefined once the list
 * ended). `next` moves to the next element of the chunk read last, and says false when the
 * chunk is used up: `more` then reads on, within the budget (counted only while waiting on the
 * instance, not while the caller reads slowly). Only one chunk of its answer is held at a time.
 */
export class InstanceList {
  /** What the merge compares of the head element; undefined once the list ended. */
  key: OrderKey | undefined;
  private readonly controller = new AbortController();
  private reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  private readonly elements: ArrayBytes;
  /** The head's index among the elements of the chunk read last. */
  private at = 0;
  private done = false;
  private timedOut = false;

  constructor(private readonly request: InstanceRequest) {
    this.elements = new ArrayBytes(new SortKeyReader(request.sort));
  }

  get instance(): string {
    return this.request.instance;
  }

  /** The bytes the head element is in, at [start, end). */
  get bytes(): Buffer {
    return this.elements.buffer;
  }

  get start(): number {
    return this.elements.starts[this.at]!;
  }

  get end(): number {
    return this.elements.ends[this.at]!;
  }

  async open(): Promise<void> {
    const { instance, path, headers } = this.request;
    await this.withinBudget(async () => {
      const answer = await fetch(`${instance}${path}`, { headers, signal: this.controller.signal, redirect: 'error' });
      if (!answer.ok || !answer.body) {
        await answer.body?.cancel();
        throw new InstanceFailure(instance, `status ${answer.status}`);
      }
      this.reader = answer.body.getReader();
      await this.fill();
    });
    this.moveTo(0);
  }

  /** Move to the next element without reading: false when the chunk read last is used up and the list goes on (call `more`). */
  next(): boolean {
    if (this.at + 1 < this.elements.count) {
      this.moveTo(this.at + 1);
      return true;
    }
    while (this.elements.unscanned) {
      this.elements.scanRest();
      if (this.elements.count > 0) {
        this.moveTo(0);
        return true;
      }
    }
    if (this.done) {
      this.moveTo(this.elements.count);
      return true;
    }
    return false;
  }

  /** Read on to the next element; throws an InstanceFailure when the instance fails or stalls. */
  async more(): Promise<void> {
    await this.withinBudget(() => this.fill());
    this.moveTo(0);
  }

  private moveTo(at: number): void {
    this.at = at;
    this.key = this.elements.keys[at];
  }

  /**
   * `work` on the instance within the time budget (counted only while waiting on it); any
   * failure stops reading the list and is thrown as the InstanceFailure that names why.
   */
  private async withinBudget(work: () => Promise<void>): Promise<void> {
    const timer = setTimeout(() => this.timeOut(), this.request.timeoutMs);
    try {
      await work();
    } catch (error) {
      const failure = this.failure(error);
      this.cancel();
      throw failure;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Stop reading (the merged answer is complete, or the caller went away). */
  cancel(): void {
    this.done = true;
    this.key = undefined;
    this.controller.abort();
    this.reader?.cancel().catch(() => {});
  }

  private timeOut(): void {
    this.timedOut = true;
    this.controller.abort();
  }

  /** Read until a chunk completes an element or the list ends. */
  private async fill(): Promise<void> {
    const reader = this.reader!;
    do {
      const { value, done } = await reader.read();
      if (done) {
        this.elements.end();
        this.done = true;
      } else this.elements.push(value);
      while (this.elements.count === 0 && this.elements.unscanned) this.elements.scanRest();
    } while (this.elements.count === 0 && !this.done);
  }

  private failure(error: unknown): InstanceFailure {
    if (error instanceof InstanceFailure) return error;
    if (this.timedOut) return new InstanceFailure(this.instance, `no answer within ${this.request.timeoutMs} ms`);
    if (error instanceof SyntaxError) return new InstanceFailure(this.instance, 'not a list');
    return new InstanceFailure(this.instance, 'unreachable');
  }
}
