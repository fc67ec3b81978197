/*
 * The REST client's transport, typed errors, collections and event streams; its query builder is
 * client-rest-query.ts. No runtime dependencies: it needs only a WHATWG `fetch` (Node 18+,
 * browsers, Deno, Bun).
 */

import { ERROR_CLASSES, ServerError } from '../../generated/client/rest-errors.js';
import { TopocatError } from '../../generated/client/rest-error.js';
import { CONSISTENCY_TOKEN_HEADER, MEDIA_TYPES, type ErrorBody } from '../../generated/rest/contract.js';
import { suffix, toQuery, withParameters, type QueryInput } from '../../generated/client/rest-query.js';

// The error body's types, the query operators and the exception classes, one per status of the
// contract table (generator/model/http.ts), are part of the client's interface.
export type { ErrorBody, ErrorDetail, QueryOperator } from '../../generated/rest/contract.js';
export { TopocatError } from '../../generated/client/rest-error.js';
export * from '../../generated/client/rest-errors.js';
export { Alternatives, Conditions, Query, type FieldPath, type Operand, type Operands, type QueryInput, type ValueAt } from '../../generated/client/rest-query.js';

export interface ClientOptions {
  /** Base address of the service, e.g. `http://127.0.0.1:8080`. */
  readonly baseUrl: string;
  /** Bearer token sent as `Authorization: Bearer <token>`. */
  readonly token?: string | undefined;
  /** A fetch implementation; defaults to the global one. */
  readonly fetch?: typeof globalThis.fetch | undefined;
  /** Extra headers sent with every request. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /**
   * A consistency token to start from (another client's `consistencyToken`): this client's reads
   * then see every write that client had seen answered. The client keeps the newest it is answered.
   */
  readonly consistencyToken?: string | undefined;
}

function errorFor(status: number, body: unknown): TopocatError {
  const parsed: ErrorBody =
    body !== null && typeof body === 'object' && 'error' in body
      ? (body as ErrorBody)
      : { error: { status, message: typeof body === 'string' && body !== '' ? body : `HTTP ${status}` } };
  const ErrorClass = ERROR_CLASSES[status] ?? (status >= 500 ? ServerError : TopocatError);
  return new ErrorClass(status, parsed);
}

/** A representation with the validators the service sent for it. */
export interface Versioned<T> {
  readonly value: T;
  /** The strong ETag of this representation; give it as `ifMatch` to make a write conditional. */
  readonly etag: string;
  readonly lastModified?: string | undefined;
}

/** A resource that changed between two instants (`Collection.changes`): its representation at each, null where it had none. */
export interface ChangeBetween<T> {
  readonly id: string;
  readonly change: 'created' | 'updated' | 'deleted';
  readonly before: T | null;
  readonly after: T | null;
}

/** An instant as the service reads it: µs since the epoch (the unit of `ts`), or a Date. */
export type Instant = number | Date;

function micros(instant: Instant): number {
  const value = instant instanceof Date ? instant.getTime() * 1000 : instant;
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`expected an instant (µs since the epoch, or a Date), got ${String(instant)}`);
  return value;
}

/** The answer to a conditional GET. */
export type Conditional<T> = ({ readonly notModified: false } & Versioned<T>) | { readonly notModified: true; readonly etag: string };

/** The answer to a conditional list: the list and its (weak) ETag, or `notModified` while nothing it could show has changed. */
export type ConditionalList<T> = { readonly notModified: false; readonly items: T[]; readonly etag: string } | { readonly notModified: true; readonly etag: string };

/**
 * The service's ETag of a whole representation: its `ts` in quotes. Arrays (a POST of several
 * resources) carry no ETag header, so their items' ETags are made by this rule.
 */
export function etagOf(resource: { readonly ts?: number | undefined }): string {
  if (resource.ts === undefined) throw new TypeError('a representation without ts has no ETag');
  return `"${resource.ts}"`;
}

const MEDIA_TYPE = MEDIA_TYPES.topology;

interface RequestOptions {
  readonly body?: unknown;
  readonly contentType?: string;
  readonly headers?: Readonly<Record<string, string | undefined>>;
}

interface RawResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
}

/** A consistency token (`16/B374D848`, a WAL position) as a number that compares; undefined when it is not one. */
function tokenPosition(token: string): bigint | undefined {
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(token);
  return match ? (BigInt(`0x${match[1]!}`) << 32n) + BigInt(`0x${match[2]!}`) : undefined;
}

/** The transport shared by every collection. */
export class Http {
  private readonly options: ClientOptions;
  private readonly base: string;
  private readonly fetchImpl: typeof globalThis.fetch;
  /**
   * The newest consistency token a write answer carried (rest-contract §15), sent with every
   * request after it: a server with standbys then serves this client's reads where its writes
   * have been replayed, without asking the primary.
   */
  private consistency: { readonly token: string; readonly position: bigint } | undefined;

  /** The consistency token this client sends (the newest it was answered), if any. */
  get consistencyToken(): string | undefined {
    return this.consistency?.token;
  }

  /** Keep `token` when it is newer than the one kept. */
  private remember(token: string | null): void {
    if (token === null) return;
    const position = tokenPosition(token);
    if (position !== undefined && (this.consistency === undefined || position > this.consistency.position)) this.consistency = { token, position };
  }

  constructor(options: ClientOptions) {
    this.options = options;
    this.base = options.baseUrl.replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.remember(options.consistencyToken ?? null);
  }

  async request(method: string, path: string, init: RequestOptions = {}): Promise<RawResponse> {
    const headers: Record<string, string> = { accept: MEDIA_TYPE, ...this.options.headers };
    if (this.options.token !== undefined) headers.authorization = `Bearer ${this.options.token}`;
    if (this.consistency !== undefined) headers[CONSISTENCY_TOKEN_HEADER.toLowerCase()] = this.consistency.token;
    for (const [name, value] of Object.entries(init.headers ?? {})) if (value !== undefined) headers[name] = value;
    const request: RequestInit = { method, headers };
    if (init.body !== undefined) {
      request.body = JSON.stringify(init.body);
      headers['content-type'] = init.contentType ?? MEDIA_TYPE;
    }
    const response = await this.fetchImpl(this.base + path, request);
    this.remember(response.headers.get(CONSISTENCY_TOKEN_HEADER));
    const text = await response.text();
    let parsed: unknown = undefined;
    if (text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    if (response.status >= 400) throw errorFor(response.status, parsed);
    return { status: response.status, headers: response.headers, body: parsed };
  }

  /**
   * Open an event stream (`Accept: text/event-stream`) at `path`, resuming after `lastEventId`;
   * a refusal (4xx, 5xx) is a typed error, as for any request.
   */
  async stream(path: string, lastEventId: string | undefined, signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
    const headers: Record<string, string> = { ...this.options.headers, accept: 'text/event-stream' };
    if (this.options.token !== undefined) headers.authorization = `Bearer ${this.options.token}`;
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
    const response = await this.fetchImpl(this.base + path, { headers, signal });
    if (response.status >= 400 || response.body === null) {
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // Not JSON: the text is the message.
      }
      throw errorFor(response.status, parsed);
    }
    return response.body;
  }
}

/** One change of a resource, as the event stream tells it. */
export type Change<T> =
  | { readonly event: string; readonly action: 'POST' | 'PUT'; readonly value: T }
  | { readonly event: string; readonly action: 'DELETE'; readonly value: { readonly id: string } };

export interface SubscribeOptions {
  /** Resume after this event (a `Change`'s `event`): every later change comes first. */
  readonly lastEventId?: string | undefined;
  /** Stops the subscription (the iterator ends); `break` out of the loop does too. */
  readonly signal?: AbortSignal | undefined;
  /** Called each time the stream is (re)opened: the service accepted it. */
  readonly onConnect?: (() => void) | undefined;
  /** Called when the connection is lost, before it is opened again. */
  readonly onDisconnect?: (() => void) | undefined;
}

/** One event of a Server-Sent Events stream. */
export interface StreamEvent {
  readonly id: string;
  readonly event: string;
  readonly data: string;
}

/**
 * The event stream format (WHATWG HTML, "Interpreting an event stream"): lines ended by CRLF, LF
 * or CR; `field: value` lines; a blank line dispatches; comments start with `:`. The service
 * sends only `id`, `event`, `data` and `retry`. Written out rather than taken from a package so
 * that this client keeps needing nothing but `fetch`.
 */
async function* serverSentEvents(body: ReadableStream<Uint8Array>, onRetry: (ms: number) => void): AsyncGenerator<StreamEvent> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = '';
  let fields = { id: '', event: '', data: [] as string[] };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: RegExpExecArray | null;
      while ((end = /\r\n|\n|\r(?!$)/.exec(buffer)) !== null) {
        const line = buffer.slice(0, end.index);
        buffer = buffer.slice(end.index + end[0].length);
        if (line === '') {
          if (fields.data.length > 0) yield { id: fields.id, event: fields.event || 'message', data: fields.data.join('\n') };
          fields = { id: fields.id, event: '', data: [] };
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const name = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (name === 'data') fields.data.push(text);
        else if (name === 'event') fields.event = text;
        else if (name === 'id' && !text.includes('\0')) fields.id = text;
        else if (name === 'retry' && /^\d+$/.test(text)) onRetry(Number(text));
      }
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * A resource id as a path segment that names it and nothing else (the service's
 * server/storage/id-segment.ts pathSegment): characters a segment allows unencoded (RFC 3986
 * `pchar`) stay, so an id without `%` reads the same decoded or as sent; `%` and anything else
 * are percent-encoded. `encodeURIComponent` would write `urn:a` as `urn%3Aa`, which the service
 * reads as sent first (an id may hold `%3A`: rest-contract §3, revised 2026-11-29).
 */
function idSegment(id: string): string {
  return /^[A-Za-z0-9\-._~!$&'()*+,;=:@]*$/.test(id) ? id : id.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@]+/gu, (run) => encodeURIComponent(run));
}

/** A JSON Merge Patch (RFC 7386) of `T`: `null` removes a member. */
export type MergePatch<T> = { [K in keyof T]?: T[K] | null };

export interface WriteOptions {
  /** Make the write conditional on this ETag being the newest (412 otherwise). */
  readonly ifMatch?: string | undefined;
}

/** An instance a federated answer lacks, and why (`unreachable`, `no answer within N ms`, `status N`). */
export interface PartialInstance {
  readonly instance: string;
  readonly reason: string;
}

/** A federated list (`Collection.federated`): the merged elements, and the instances that are missing from it. */
export interface Federated<T> {
  readonly items: T[];
  readonly partial: PartialInstance[];
}

/** The instances named in a `Federation-Partial` header: `<accessPoint>; reason="…"`, comma-separated. */
function partialInstances(header: string | null): PartialInstance[] {
  if (header === null) return [];
  return [...header.matchAll(/\s*([^;\s]+)\s*;\s*reason="((?:[^"\\]|\\.)*)"\s*(?:,|$)/g)].map(([, instance, reason]) => ({ instance: instance!, reason: reason!.replace(/\\(.)/g, '$1') }));
}

/** A response's representation with its ETag and Last-Modified. */
function versioned<T>(response: RawResponse): Versioned<T> {
  const lastModified = response.headers.get('last-modified');
  return { value: response.body as T, etag: response.headers.get('etag') ?? '', ...(lastModified === null ? {} : { lastModified }) };
}

/** A collection's (or resource's) event: the action is the event's name, the data the representation. */
function collectionChange<T>(event: StreamEvent): Change<T> {
  return { event: event.id, action: event.event as Change<T>['action'], value: JSON.parse(event.data) } as Change<T>;
}

/**
 * Follow the event stream at `path` as an async iterator of what `parse` makes of each event.
 * After a dropped connection it reconnects on its own and resumes after the last event it gave.
 */
export async function* follow<C>(http: Http, path: string, options: SubscribeOptions, parse: (event: StreamEvent) => C): AsyncGenerator<C, void, undefined> {
  const stop = new AbortController();
  const abort = () => stop.abort();
  options.signal?.addEventListener('abort', abort);
  let lastEventId = options.lastEventId;
  let retryMs = 2_000;
  try {
    while (!stop.signal.aborted) {
      try {
        const body = await http.stream(path, lastEventId, stop.signal);
        options.onConnect?.();
        for await (const event of serverSentEvents(body, (ms) => (retryMs = ms))) {
          lastEventId = event.id;
          yield parse(event);
        }
      } catch (error) {
        // A refusal (4xx) is final; a lost connection or an unavailable service (5xx) is
        // resumed after the pause the service asks for.
        if (stop.signal.aborted) return;
        if (error instanceof TopocatError && error.status < 500) throw error;
      }
      if (!stop.signal.aborted) {
        options.onDisconnect?.();
        await new Promise((resolve) => setTimeout(resolve, retryMs));
      }
    }
  } finally {
    options.signal?.removeEventListener('abort', abort);
    stop.abort();
  }
}

/** One collection of the service, e.g. `/nodes`, typed by its kind `T` and fields `F`. */
export class Collection<T extends { readonly ts?: number | undefined }, F> {
  private readonly http: Http;
  /** Path segment of the collection, e.g. `nodes`. */
  readonly name: string;

  constructor(http: Http, name: string) {
    this.http = http;
    this.name = name;
  }

  private item(id: string): string {
    return `/${this.name}/${idSegment(id)}`;
  }

  /** Insert one resource; the service assigns `id` (unless given), `ts` and `selfRef`. */
  async create(resource: T): Promise<Versioned<T>> {
    return versioned<T>(await this.http.request('POST', `/${this.name}`, { body: resource }));
  }

  /** Insert several resources, all or nothing. */
  async createMany(resources: readonly T[]): Promise<Versioned<T>[]> {
    const created = (await this.http.request('POST', `/${this.name}`, { body: resources })).body as T[];
    return created.map((value) => ({ value, etag: etagOf(value) }));
  }

  /** The current representation of every live resource that matches the query. */
  async list(query?: QueryInput<F>): Promise<T[]> {
    return (await this.http.request('GET', `/${this.name}${suffix(toQuery(query))}`)).body as T[];
  }

  /**
   * `list`, conditional: `notModified` while `ifNoneMatch` is still the list's ETag, which any
   * committed write that could change the list changes (rest-contract §5); the service then
   * reads no row. For a dashboard that polls a large list:
   *
   *     let last = await client.nodes.listIfChanged(query);
   *     const next = await client.nodes.listIfChanged(query, last.etag);
   */
  async listIfChanged(query?: QueryInput<F>, ifNoneMatch?: string): Promise<ConditionalList<T>> {
    const response = await this.http.request('GET', `/${this.name}${suffix(toQuery(query))}`, { headers: { 'if-none-match': ifNoneMatch } });
    const etag = response.headers.get('etag') ?? '';
    if (response.status === 304) return { notModified: true, etag };
    return { notModified: false, items: response.body as T[], etag };
  }

  /**
   * On a lookup (rest-contract §13): the query run on every instance that may hold a match,
   * their lists merged (`sort`, `skip` and `limit` apply to the merged list; each element as its
   * instance answered it, its `selfRef` the instance's), with the instances that failed or ran
   * out of time in `partial` (the `Federation-Partial` header): nothing is silently missing.
   *
   *     const { items, partial } = await lookup.nodes.federated((q) => q.eq('name', 'n1'));
   */
  async federated(query?: QueryInput<F>): Promise<Federated<T>> {
    const text = [toQuery(query).toString(), 'federate=true'].filter((p) => p !== '').join('&');
    const response = await this.http.request('GET', `/${this.name}?${text}`);
    return { items: response.body as T[], partial: partialInstances(response.headers.get('federation-partial')) };
  }

  /** The newest representation, or the one with timestamp `ts`. */
  async get(id: string, options: { readonly ts?: number | undefined } = {}): Promise<Versioned<T>> {
    const query = options.ts === undefined ? '' : `?ts=${options.ts}`;
    return versioned<T>(await this.http.request('GET', this.item(id) + query));
  }

  /** A GET that answers `notModified` when `ifNoneMatch` is still the current ETag. */
  async getIfChanged(id: string, ifNoneMatch?: string): Promise<Conditional<T>> {
    const response = await this.http.request('GET', this.item(id), { headers: { 'if-none-match': ifNoneMatch } });
    if (response.status === 304) return { notModified: true, etag: response.headers.get('etag') ?? '' };
    return { notModified: false, ...versioned<T>(response) };
  }

  /** Representations of one resource, newest first, that match the query (all of them by default). */
  async history(id: string, query?: QueryInput<F>): Promise<T[]> {
    const built = toQuery(query);
    // Conditions select the history search; every version has the resource's id.
    const text = built.hasConditions ? built.toString() : [`id=string:${encodeURIComponent(id)}`, built.toString()].filter(Boolean).join('&');
    return (await this.http.request('GET', `${this.item(id)}?${text}`)).body as T[];
  }

  /** Replace the resource with `resource` as a new representation. */
  async replace(id: string, resource: T, options: WriteOptions = {}): Promise<Versioned<T>> {
    return versioned<T>(await this.http.request('PUT', this.item(id), { body: resource, headers: { 'if-match': options.ifMatch } }));
  }

  /** Apply a JSON Merge Patch to the newest representation. */
  async patch(id: string, patch: MergePatch<T>, options: WriteOptions = {}): Promise<Versioned<T>> {
    const response = await this.http.request('PATCH', this.item(id), {
      body: patch,
      contentType: MEDIA_TYPES.mergePatch,
      headers: { 'if-match': options.ifMatch },
    });
    return versioned<T>(response);
  }

  /** Delete the resource; its older representations stay stored. */
  async delete(id: string, options: WriteOptions = {}): Promise<void> {
    await this.http.request('DELETE', this.item(id), { headers: { 'if-match': options.ifMatch } });
  }

  /**
   * The collection as it was at `instant` (µs since the epoch, or a Date): its reads answer as
   * the service would have then, deletions included.
   *
   *     const before = await client.nodes.at(new Date('2026-11-26T03:12:00Z')).list();
   */
  at(instant: Instant): CollectionAt<T, F> {
    return new CollectionAt<T, F>(this.http, this.name, micros(instant));
  }

  /**
   * What changed in (`since`, `until`] (µs or Dates; `since` 0 and `until` now by default): one
   * entry per resource created, updated or deleted, with its representations at both ends; the
   * query filters them by the representation at `until` (at `since` for a deletion).
   */
  async changes(since?: Instant, until?: Instant, query?: QueryInput<F>): Promise<ChangeBetween<T>[]> {
    const text = withParameters(toQuery(query), { since: micros(since ?? 0), until: until === undefined ? undefined : micros(until) });
    return (await this.http.request('GET', `/${this.name}${text}`)).body as ChangeBetween<T>[];
  }

  /**
   * The changes of the collection that the query selects (as `list` would), as they are
   * committed: an async iterator that runs until you `break` or abort. After a dropped
   * connection it reconnects on its own and resumes after the last event it gave, so no change is
   * lost or given twice; `lastEventId` resumes from an earlier run.
   */
  subscribe(query?: QueryInput<F>, options: SubscribeOptions = {}): AsyncGenerator<Change<T>, void, undefined> {
    return follow(this.http, `/${this.name}${suffix(toQuery(query))}`, options, collectionChange<T>);
  }

  /** The changes of one resource that the query selects, as `subscribe` gives them. */
  subscribeTo(id: string, query?: QueryInput<F>, options: SubscribeOptions = {}): AsyncGenerator<Change<T>, void, undefined> {
    return follow(this.http, `${this.item(id)}${suffix(toQuery(query))}`, options, collectionChange<T>);
  }
}

/** A collection as it was at one instant (`Collection.at`). */
export class CollectionAt<T, F> {
  private readonly http: Http;
  /** Path segment of the collection, e.g. `nodes`. */
  readonly name: string;
  /** The instant, µs since the epoch. */
  readonly instant: number;

  constructor(http: Http, name: string, instant: number) {
    this.http = http;
    this.name = name;
    this.instant = instant;
  }

  /** The representation every resource that matches the query had at the instant. */
  async list(query?: QueryInput<F>): Promise<T[]> {
    return (await this.http.request('GET', `/${this.name}${withParameters(toQuery(query), { at: this.instant })}`)).body as T[];
  }

  /** The representation the resource had at the instant (a NotFoundError when it had none). */
  async get(id: string): Promise<Versioned<T>> {
    return versioned<T>(await this.http.request('GET', `/${this.name}/${idSegment(id)}?at=${this.instant}`));
  }
}
