import { Agent, type IncomingMessage, type ClientRequest, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { SortKey } from '../query/syntax.js';
import { ArrayBytes } from './array-bytes.js';
import type { OrderKey } from './order.js';
import { SortKeyReader } from './sort-key-bytes.js';

/** Connections to instances kept between merges (a lookup asks the same few again and again). */
const HTTP_AGENT = new Agent({ keepAlive: true });
const HTTPS_AGENT = new HttpsAgent({ keepAlive: true });

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
  private sent: ClientRequest | undefined;
  private answer: IncomingMessage | undefined;
  private chunks: AsyncIterator<Buffer> | undefined;
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
    const { instance, path } = this.request;
    await this.withinBudget(async () => {
      const answer = await this.get(`${instance}${path}`);
      this.answer = answer;
      const status = answer.statusCode ?? 0;
      if (status < 200 || status > 299) {
        answer.resume();
        throw new InstanceFailure(instance, `status ${status}`);
      }
      this.chunks = (answer as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
      await this.fill();
    });
    this.moveTo(0);
  }

  /**
   * The instance's answer, its head: node:http on a kept-alive connection. Node's fetch (undici,
   * web streams) took 2 to 2.5 times the CPU to read the same four lists of 10,000 nodes (6.6 MB
   * each): 44–113 ms against 19–35 ms a merge, three rounds each, scratch, 2026-11-29.
   */
  private get(url: string): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const https = url.startsWith('https:');
      const options = { headers: this.request.headers, agent: https ? HTTPS_AGENT : HTTP_AGENT };
      const request = https ? httpsRequest(url, options, resolve) : httpRequest(url, options, resolve);
      this.sent = request;
      request.on('error', reject);
      request.end();
    });
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
    this.stop();
  }

  private timeOut(): void {
    this.timedOut = true;
    this.stop();
  }

  /** Drop the connection (a list read to its end has let it go back to the agent already). */
  private stop(): void {
    const request = this.sent;
    if (request !== undefined && !request.destroyed && !(this.answer?.complete ?? false)) request.destroy(new Error('stopped'));
  }

  /** Read until a chunk completes an element or the list ends. */
  private async fill(): Promise<void> {
    const chunks = this.chunks!;
    do {
      const { value, done } = await chunks.next();
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
