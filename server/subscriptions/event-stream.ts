import { PassThrough } from 'node:stream';
import type { RouterContext } from '@koa/router';
import type { KindDescriptor } from '../../generated/rest/handler.js';
import { HttpError } from '../http/errors.js';
import type { Logger } from '../log.js';
import { project } from '../query/project.js';
import type { ParsedQuery } from '../query/syntax.js';
import type { Condition } from '../query/tree.js';
import { SubscriberGate, type Refusal } from './gate.js';
import type { Hub } from './hub.js';
import type { Published } from './subscription.js';
import { type Position, START, upTo } from '../storage/contract/events.js';

/** A comment line this often keeps proxies from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;
/** What EventSource waits before it reconnects. */
const RETRY_MS = 2_000;

export interface EventStreamOptions {
  readonly hub: Hub;
  readonly gate: SubscriberGate;
  readonly logger: Logger;
  /** The open streams' close functions, for the server's stop. */
  readonly streams: Set<() => void>;
}

/** A refusal of the gate as this transport's answer. */
function refused(refusal: Refusal): HttpError {
  return new HttpError(refusal.status, refusal.message, [], refusal.retryAfter !== undefined ? { 'Retry-After': String(refusal.retryAfter) } : {});
}

/** Whether the request asks for Server-Sent Events (EventSource sends exactly this Accept). */
export function wantsEventStream(ctx: RouterContext): boolean {
  return /(^|,)\s*text\/event-stream\s*(;|,|$)/i.test(ctx.get('accept'));
}

/**
 * Where a reconnecting client stopped: the position of the event whose id it sends (EventSource:
 * the Last-Event-ID header), undefined without one. Ids identify events; their order is the
 * event log's (on PostgreSQL not always the ids' own), so the id is looked up.
 */
async function lastEventPosition(ctx: RouterContext, hub: Hub): Promise<Position | undefined> {
  const header = ctx.get('last-event-id').trim();
  if (header === '') return undefined;
  const refused = (why: string) => new HttpError(400, why, [{ path: 'Last-Event-ID', message: header.slice(0, 100) }]);
  if (!/^\d{1,16}$/.test(header)) throw refused('Last-Event-ID must be an event id this service sent');
  // 0: before every event (what a client that has seen none may send).
  if (Number(header) === 0) return START;
  const position = await hub.positionOf(Number(header));
  if (position === undefined) throw refused('Last-Event-ID names no event of this service');
  return position;
}

/** What one stream follows: a collection, or one resource of it, and the conditions a change must meet. */
export interface StreamTarget {
  readonly kind: KindDescriptor;
  readonly id?: string;
  readonly conditions: readonly Condition[];
}

/** One change as an SSE event: its id names the change (Last-Event-ID resumes after it); `data` renders its data line. */
function sseEvent(change: Published, data: (change: Published) => string): string {
  return `id: ${change.event}\nevent: ${change.action}\ndata: ${data(change)}\n\n`;
}

/** The data of a collection's (or resource's) stream: the representation, projected by `fields=`. */
export function representationData(fields: ParsedQuery['fields']): (change: Published) => string {
  return (change) => (fields && change.action !== 'DELETE' ? JSON.stringify(project(JSON.parse(change.data), fields)) : change.data);
}

/**
 * `GET /<collection>` or `GET /<collection>/<id>` with `Accept: text/event-stream`
 * (docs/subscriptions.md): the changes of the collection (or resource) whose representation the
 * query selects, with exactly a list query's conditions (`fields=` projects each one too), as
 * they are committed. With `Last-Event-ID`, the changes after that event come first, from the
 * stored event log, so a client that reconnects misses none and gets none twice, whichever
 * process it reaches and however long it was away.
 */
export function followStream(ctx: RouterContext, kind: KindDescriptor, id: string | undefined, query: ParsedQuery, conditions: readonly Condition[], options: EventStreamOptions): Promise<void> {
  return openStream(ctx, [{ kind, ...(id !== undefined ? { id } : {}), conditions }], representationData(query.fields), options);
}

/**
 * An event stream of the changes `targets` select, each event's data rendered by `data`, resumed
 * after `Last-Event-ID` from the event log: the REST streams have one target, the service-wide
 * stream (server/subscriptions/service-stream.ts) one per collection.
 */
export async function openStream(ctx: RouterContext, targets: readonly StreamTarget[], data: (change: Published) => string, options: EventStreamOptions): Promise<void> {
  const { hub, gate, logger, streams } = options;
  const resumeAfter = await lastEventPosition(ctx, hub);
  // What the client has, or what was committed before it asked: never sent. (This process may
  // be behind the one the client last read from.)
  const floor = resumeAfter === undefined ? await hub.now() : upTo(resumeAfter);

  const stream = new PassThrough();
  const unsent = (): number => stream.readableLength + ctx.res.writableLength;
  const ticket = gate.admit(unsent);
  if (!ticket.admitted) throw refused(ticket);
  let open = true;
  /** Events of the live feed while the log is replayed: written after it, in order. */
  let held: Published[] | undefined = resumeAfter === undefined ? undefined : [];
  let heldBytes = 0;

  const close = (reason?: string): void => {
    if (!open) return;
    open = false;
    streams.delete(close);
    clearInterval(heartbeat);
    for (const subscription of subscriptions) subscription.remove();
    ticket.leave();
    if (reason) logger.warn({ reason, collections: targets.map((t) => t.kind.collection).join(',') }, 'event stream closed');
    stream.end();
  };
  const write = (text: string): void => {
    if (!open) return;
    if (!ticket.fits(text.length)) {
      close(SubscriberGate.slow);
      return;
    }
    stream.write(text);
  };
  const deliver = (change: Published): void => {
    if (held) {
      held.push(change);
      heldBytes += change.data.length;
      // Too much arrives while the missed events are read: the client resumes again from its last id.
      if (heldBytes > ticket.bufferedBytes) close('too many live events while catching up');
      return;
    }
    write(sseEvent(change, data));
  };

  const subscriptions = targets.map((target) => hub.add({ ...target, floor, deliver }));
  streams.add(close);
  const heartbeat = setInterval(() => write(': keep-alive\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  ctx.res.once('close', () => close());

  ctx.status = 200;
  ctx.set('Content-Type', 'text/event-stream; charset=utf-8');
  ctx.set('Cache-Control', 'no-cache');
  ctx.set('X-Accel-Buffering', 'no');
  ctx.body = stream;
  stream.write(`retry: ${RETRY_MS}\n\n`);

  // Every subscription was added in the same turn, so they share the feed position.
  const until = subscriptions[0]?.after ?? START;
  if (resumeAfter === undefined || resumeAfter >= until) {
    held = undefined;
    return;
  }
  // After the answer has begun: the missed events flow as the client reads them.
  const replayed = targets.map((target) => ({ ...target, deliver: (change: Published) => write(sseEvent(change, data)) }));
  const ready = (): Promise<void> => (unsent() < ticket.bufferedBytes / 2 || !open ? Promise.resolve() : new Promise<void>((resolve) => ctx.res.once('drain', resolve).once('close', resolve)));
  hub
    .replay(replayed, resumeAfter, until, ready)
    .then(() => {
      const pending = held ?? [];
      held = undefined;
      for (const change of pending) write(sseEvent(change, data));
    })
    .catch((error: unknown) => {
      logger.error({ err: error }, 'replaying missed events failed');
      close('the event log could not be read');
    });
}
