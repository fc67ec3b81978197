// Compiled from generated/client/rest-runtime.ts by npm run generate; do not edit. source 29503f185e8fc4ce5fd0a15dcb77e8209a1fbe00bdf4054ca48762878e56a092 output 02aeac4acd1592b44b42bc0bce6fa84c1e81ef56097c8cf53a0741b623dd2dfc
import { type QueryInput } from './rest-query.js';
export type { ErrorBody, ErrorDetail, QueryOperator } from '../rest/contract.js';
export { TopocatError } from './rest-error.js';
export * from './rest-errors.js';
export { Alternatives, Conditions, Query, type FieldPath, type Operand, type Operands, type QueryInput, type ValueAt } from './rest-query.js';
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
/** The answer to a conditional GET. */
export type Conditional<T> = ({
    readonly notModified: false;
} & Versioned<T>) | {
    readonly notModified: true;
    readonly etag: string;
};
/** The answer to a conditional list: the list and its (weak) ETag, or `notModified` while nothing it could show has changed. */
export type ConditionalList<T> = {
    readonly notModified: false;
    readonly items: T[];
    readonly etag: string;
} | {
    readonly notModified: true;
    readonly etag: string;
};
/**
 * The service's ETag of a whole representation: its `ts` in quotes. Arrays (a POST of several
 * resources) carry no ETag header, so their items' ETags are made by this rule.
 */
export declare function etagOf(resource: {
    readonly ts?: number | undefined;
}): string;
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
/** The transport shared by every collection. */
export declare class Http {
    private readonly options;
    private readonly base;
    private readonly fetchImpl;
    /**
     * The newest consistency token a write answer carried (rest-contract §15), sent with every
     * request after it: a server with standbys then serves this client's reads where its writes
     * have been replayed, without asking the primary.
     */
    private consistency;
    /** The consistency token this client sends (the newest it was answered), if any. */
    get consistencyToken(): string | undefined;
    /** Keep `token` when it is newer than the one kept. */
    private remember;
    constructor(options: ClientOptions);
    request(method: string, path: string, init?: RequestOptions): Promise<RawResponse>;
    /**
     * Open an event stream (`Accept: text/event-stream`) at `path`, resuming after `lastEventId`;
     * a refusal (4xx, 5xx) is a typed error, as for any request.
     */
    stream(path: string, lastEventId: string | undefined, signal: AbortSignal): Promise<ReadableStream<Uint8Array>>;
}
/** One change of a resource, as the event stream tells it. */
export type Change<T> = {
    readonly event: string;
    readonly action: 'POST' | 'PUT';
    readonly value: T;
} | {
    readonly event: string;
    readonly action: 'DELETE';
    readonly value: {
        readonly id: string;
    };
};
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
/** A JSON Merge Patch (RFC 7386) of `T`: `null` removes a member. */
export type MergePatch<T> = {
    [K in keyof T]?: T[K] | null;
};
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
/**
 * Follow the event stream at `path` as an async iterator of what `parse` makes of each event.
 * After a dropped connection it reconnects on its own and resumes after the last event it gave.
 */
export declare function follow<C>(http: Http, path: string, options: SubscribeOptions, parse: (event: StreamEvent) => C): AsyncGenerator<C, void, undefined>;
/** One collection of the service, e.g. `/nodes`, typed by its kind `T` and fields `F`. */
export declare class Collection<T extends {
    readonly ts?: number | undefined;
}, F> {
    private readonly http;
    /** Path segment of the collection, e.g. `nodes`. */
    readonly name: string;
    constructor(http: Http, name: string);
    private item;
    /** Insert one resource; the service assigns `id` (unless given), `ts` and `selfRef`. */
    create(resource: T): Promise<Versioned<T>>;
    /** Insert several resources, all or nothing. */
    createMany(resources: readonly T[]): Promise<Versioned<T>[]>;
    /** The current representation of every live resource that matches the query. */
    list(query?: QueryInput<F>): Promise<T[]>;
    /**
     * `list`, conditional: `notModified` while `ifNoneMatch` is still the list's ETag, which any
     * committed write that could change the list changes (rest-contract §5); the service then
     * reads no row. For a dashboard that polls a large list:
     *
     *     let last = await client.nodes.listIfChanged(query);
     *     const next = await client.nodes.listIfChanged(query, last.etag);
     */
    listIfChanged(query?: QueryInput<F>, ifNoneMatch?: string): Promise<ConditionalList<T>>;
    /**
     * On a lookup (rest-contract §13): the query run on every instance that may hold a match,
     * their lists merged (`sort`, `skip` and `limit` apply to the merged list; each element as its
     * instance answered it, its `selfRef` the instance's), with the instances that failed or ran
     * out of time in `partial` (the `Federation-Partial` header): nothing is silently missing.
     *
     *     const { items, partial } = await lookup.nodes.federated((q) => q.eq('name', 'n1'));
     */
    federated(query?: QueryInput<F>): Promise<Federated<T>>;
    /** The newest representation, or the one with timestamp `ts`. */
    get(id: string, options?: {
        readonly ts?: number | undefined;
    }): Promise<Versioned<T>>;
    /** A GET that answers `notModified` when `ifNoneMatch` is still the current ETag. */
    getIfChanged(id: string, ifNoneMatch?: string): Promise<Conditional<T>>;
    /** Representations of one resource, newest first, that match the query (all of them by default). */
    history(id: string, query?: QueryInput<F>): Promise<T[]>;
    /** Replace the resource with `resource` as a new representation. */
    replace(id: string, resource: T, options?: WriteOptions): Promise<Versioned<T>>;
    /** Apply a JSON Merge Patch to the newest representation. */
    patch(id: string, patch: MergePatch<T>, options?: WriteOptions): Promise<Versioned<T>>;
    /** Delete the resource; its older representations stay stored. */
    delete(id: string, options?: WriteOptions): Promise<void>;
    /**
     * The collection as it was at `instant` (µs since the epoch, or a Date): its reads answer as
     * the service would have then, deletions included.
     *
     *     const before = await client.nodes.at(new Date('2026-11-26T03:12:00Z')).list();
     */
    at(instant: Instant): CollectionAt<T, F>;
    /**
     * What changed in (`since`, `until`] (µs or Dates; `since` 0 and `until` now by default): one
     * entry per resource created, updated or deleted, with its representations at both ends; the
     * query filters them by the representation at `until` (at `since` for a deletion).
     */
    changes(since?: Instant, until?: Instant, query?: QueryInput<F>): Promise<ChangeBetween<T>[]>;
    /**
     * The changes of the collection that the query selects (as `list` would), as they are
     * committed: an async iterator that runs until you `break` or abort. After a dropped
     * connection it reconnects on its own and resumes after the last event it gave, so no change is
     * lost or given twice; `lastEventId` resumes from an earlier run.
     */
    subscribe(query?: QueryInput<F>, options?: SubscribeOptions): AsyncGenerator<Change<T>, void, undefined>;
    /** The changes of one resource that the query selects, as `subscribe` gives them. */
    subscribeTo(id: string, query?: QueryInput<F>, options?: SubscribeOptions): AsyncGenerator<Change<T>, void, undefined>;
}
/** A collection as it was at one instant (`Collection.at`). */
export declare class CollectionAt<T, F> {
    private readonly http;
    /** Path segment of the collection, e.g. `nodes`. */
    readonly name: string;
    /** The instant, µs since the epoch. */
    readonly instant: number;
    constructor(http: Http, name: string, instant: number);
    /** The representation every resource that matches the query had at the instant. */
    list(query?: QueryInput<F>): Promise<T[]>;
    /** The representation the resource had at the instant (a NotFoundError when it had none). */
    get(id: string): Promise<Versioned<T>>;
}
