import type { SortKey } from '../query/syntax.js';
import { JsonElements } from './json-elements.js';
import { orderKey, type OrderKey } from './order.js';

/** One element of an instance's list: its text as the instance answered it, and what the merge compares. */
export interface Element {
  readonly text: string;
  readonly key: OrderKey;
}

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
 * One instance's list, read as a stream: `open` resolves once its first element (or its end) is
 * there, within the time budget; `advance` moves to the next element, each read also within the
 * budget (counted only while waiting on the instance, not while the caller reads slowly). Only
 * one chunk of its answer is held at a time.
 */
export class InstanceList {
  /** The element the merge looks at; undefined once the list ended. */
  head: Element | undefined;
  private readonly controller = new AbortController();
  private reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  private readonly decoder = new TextDecoder();
  private readonly elements = new JsonElements();
  private queue: Element[] = [];
  private done = false;
  private timedOut = false;

  constructor(private readonly request: InstanceRequest) {}

  get instance(): string {
    return this.request.instance;
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
    this.head = this.queue.shift();
  }

  /** Move to the next element; throws an InstanceFailure when the instance fails or stalls. */
  async advance(): Promise<void> {
    if (this.queue.length === 0 && !this.done) await this.withinBudget(() => this.fill());
    this.head = this.queue.shift();
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
    this.queue = [];
    this.head = undefined;
    this.controller.abort();
    this.reader?.cancel().catch(() => {});
  }

  private timeOut(): void {
    this.timedOut = true;
    this.controller.abort();
  }

  /** Read until an element is queued or the list ends. */
  private async fill(): Promise<void> {
    const reader = this.reader!;
    while (this.queue.length === 0 && !this.done) {
      const { value, done } = await reader.read();
      const texts = done ? this.elements.push(this.decoder.decode()) : this.elements.push(this.decoder.decode(value, { stream: true }));
      if (done) {
        this.elements.end();
        this.done = true;
      }
      for (const text of texts) this.queue.push({ text, key: orderKey(JSON.parse(text), this.request.sort) });
    }
  }

  private failure(error: unknown): InstanceFailure {
    if (error instanceof InstanceFailure) return error;
    if (this.timedOut) return new InstanceFailure(this.instance, `no answer within ${this.request.timeoutMs} ms`);
    if (error instanceof SyntaxError) return new InstanceFailure(this.instance, 'not a list');
    return new InstanceFailure(this.instance, 'unreachable');
  }
}
