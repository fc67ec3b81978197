import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { MEDIA_TYPES } from '../../generated/rest/contract.js';
import type { KindDescriptor } from '../../generated/rest/handler.js';
import { CredentialsRejected, type Authenticator } from '../auth.js';
import type { SubscriptionLimits } from '../config.js';
import { errorBody, type ErrorStatus } from '../http/errors.js';
import type { Logger } from '../log.js';
import { QueryError } from '../query/errors.js';
import type { EventCondition } from '../query/tree.js';
import { subscriptionConditions } from '../query/unis-subscription.js';
import { SubscriberGate, type Refusal, type Ticket } from './gate.js';
import { socketAction, unisFrame } from './frames.js';
import type { Hub } from './hub.js';
import type { Floor } from '../storage/contract/events.js';
import type { ResourceStore } from '../storage/resource-store.js';
import { chosenReading, readingsOf } from '../storage/id-segment.js';

/** How often an open socket is pinged; one that has not answered the last ping is dropped. */
const PING_MS = 30_000;
/** After closing a subscriber that does not read, how long its close handshake may take. */
const CLOSE_GRACE_MS = 1_000;
/** The endpoints: `/subscribe`, `/subscribe/<collection>`, `/subscribe/<collection>/<id>`. */
const ENDPOINT = /^\/subscribe(?:\/([^/]+)(?:\/([^/]+))?)?\/?$/;

export interface UnisSocketOptions {
  readonly hub: Hub;
  /** Where a subscription's id is looked up (see idOfSegment). */
  readonly store: Pick<ResourceStore, 'known'>;
  readonly kinds: readonly KindDescriptor[];
  readonly authenticator: Authenticator;
  readonly gate: SubscriberGate;
  readonly limits: SubscriptionLimits;
  readonly logger: Logger;
}

/** A subscription request: UNIS's message, or the one the URL of the socket makes. */
interface Request {
  readonly resourceType?: unknown;
  readonly query?: unknown;
  readonly fields?: unknown;
}

/** An error frame (the error body of the contract table): the socket stays open. */
/** A collection's segment decoded; as sent when it cannot be (it then names no collection). */
function safelyDecoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function errorFrame(message: string, path = '', status: ErrorStatus = 400): string {
  return JSON.stringify(errorBody(status, message, [{ path, message }], undefined));
}

/** Refuse an upgrade with an HTTP answer carrying the error body (the socket is no WebSocket yet). */
function refuse(socket: Duplex, status: ErrorStatus, message: string, extra = ''): void {
  const body = JSON.stringify(errorBody(status, message, [], undefined));
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]!}\r\nContent-Type: ${MEDIA_TYPES.json}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`);
}

/** A refusal of the gate as the upgrade's answer. */
function refuseUpgrade(socket: Duplex, refusal: Refusal): void {
  refuse(socket, refusal.status, refusal.message, refusal.retryAfter !== undefined ? `Retry-After: ${refusal.retryAfter}\r\n` : '');
}

/**
 * UNIS's publish/subscribe protocol over WebSockets (docs/subscriptions.md), on
 * the server's own port: subscriptions from the URL (`/subscribe/<collection>[/<id>]`, `query=`,
 * `fields=`) and from messages on the open socket; frames of every committed change that
 * matches. With tokens configured, the `read` scope is needed (the `Authorization` header, or
 * `access_token=` for browsers). A subscriber whose unsent frames pass the limit is closed.
 */
export function attachUnisSockets(server: Server, options: UnisSocketOptions): { close(): void } {
  const { hub, store, authenticator, gate, limits, logger } = options;
  const kinds = new Map(options.kinds.map((k) => [k.collection, k]));
  // Pings are answered in turn with the subscription messages before them (see Subscriber).
  const sockets = new WebSocketServer({ noServer: true, maxPayload: limits.messageBytes, perMessageDeflate: false, autoPong: false });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    void upgrade(req, socket, head).catch((error: unknown) => {
      logger.error({ err: error }, 'WebSocket upgrade failed');
      socket.destroy();
    });
  });

  const idOfSegment = (collection: string | undefined, raw: string): Promise<string> => {
    const readings = readingsOf(raw);
    return collection === undefined || !kinds.has(collection) ? Promise.resolve(readings[readings.length - 1]!) : chosenReading(readings, (id) => store.known(collection, id));
  };

  const upgrade = async (req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const endpoint = ENDPOINT.exec(url.pathname);
    if (!endpoint) return refuse(socket, 404, 'no WebSocket endpoint here; subscribe at /subscribe');
    const token = url.searchParams.get('access_token');
    try {
      const principal = authenticator.authenticate(req.headers.authorization ?? (token !== null ? `Bearer ${token}` : undefined));
      if (!principal?.scopes.has('read')) return refuse(socket, 401, 'credentials with the read scope are required', 'WWW-Authenticate: Bearer realm="topocat"\r\n');
    } catch (error) {
      if (!(error instanceof CredentialsRejected)) throw error;
      return refuse(socket, 401, error.message, 'WWW-Authenticate: Bearer realm="topocat"\r\n');
    }
    const collection = endpoint[1] === undefined ? undefined : safelyDecoded(endpoint[1]);
    // `/subscribe/<c>/<id>` names its id as a REST path does (rest/request.ts pathId): a segment
    // with a `%` as sent when that id was ever stored, else decoded.
    const id = endpoint[2] === undefined ? undefined : await idOfSegment(collection, endpoint[2]);
    let opened: WebSocket | undefined;
    const ticket = gate.admit(() => opened?.bufferedAmount ?? 0);
    if (!ticket.admitted) return refuseUpgrade(socket, ticket);
    // Where the URL's subscription starts, read before the handshake ends: the client can write
    // nothing it expects to hear before it knows the socket is open.
    let floor: Floor;
    try {
      floor = await hub.now();
    } catch (error) {
      ticket.leave();
      logger.warn({ err: error }, 'a subscriber was refused: the event log could not be read');
      return refuseUpgrade(socket, SubscriberGate.feedUnavailable);
    }
    // A handshake the library refuses (no Sec-WebSocket-Key, say) is answered 400 and closed
    // without calling back: the place is given back when its socket closes unopened.
    const abandoned = (): void => {
      if (opened === undefined) ticket.leave();
    };
    socket.once('close', abandoned);
    sockets.handleUpgrade(req, socket, head, (ws) => {
      socket.off('close', abandoned);
      opened = ws;
      new Subscriber(ws, kinds, hub, ticket, logger).open(collection, id, url.searchParams, floor);
    });
  };

  const ping = setInterval(() => {
    for (const ws of sockets.clients) {
      if ((ws as WebSocket & { stale?: boolean }).stale) ws.terminate();
      else {
        (ws as WebSocket & { stale?: boolean }).stale = true;
        ws.ping();
      }
    }
  }, PING_MS);
  ping.unref();

  return {
    close() {
      clearInterval(ping);
      for (const ws of sockets.clients) ws.close(1001, 'server shutting down');
      sockets.close();
    },
  };
}

/**
 * One socket: its subscriptions, its frames, its end. A subscription hears the changes committed
 * after its message arrived: the position it starts from is read from the event log first, so
 * messages (and the pings after them, which UNIS clients and the tests use to know their
 * subscriptions are in place) are handled one after the other, each once the one before is done.
 */
class Subscriber {
  private readonly removals = new Map<string, () => void>();
  private closing = false;
  private turn: Promise<void> = Promise.resolve();

  constructor(
    private readonly ws: WebSocket,
    private readonly kinds: ReadonlyMap<string, KindDescriptor>,
    private readonly hub: Hub,
    private readonly ticket: Ticket,
    private readonly logger: Logger,
  ) {
    ws.on('pong', () => ((ws as WebSocket & { stale?: boolean }).stale = false));
    ws.on('message', (data, binary) => this.inTurn(() => this.message(binary ? undefined : data.toString())));
    ws.on('ping', (data) => this.inTurn(async () => ws.pong(data)));
    ws.on('error', (error) => this.logger.debug({ err: error }, 'subscriber socket error'));
    ws.once('close', () => {
      for (const remove of this.removals.values()) remove();
      this.removals.clear();
      ticket.leave();
    });
  }

  /** `work` after what the messages before it asked for is done. */
  private inTurn(work: () => Promise<void>): void {
    this.turn = this.turn.then(work).catch((error: unknown) => this.logger.error({ err: error }, 'a subscription message failed'));
  }

  /** The subscription the URL asks for, if it names a collection. */
  open(collection: string | undefined, id: string | undefined, parameters: URLSearchParams, floor: Floor): void {
    if (collection === undefined) return;
    let query: unknown = {};
    const text = parameters.get('query');
    if (text !== null && text !== '') {
      try {
        query = JSON.parse(text);
      } catch (error) {
        this.send(errorFrame(`could not decode the subscription query: ${(error as Error).message}`, 'query'));
        return;
      }
    }
    const fields = parameters.get('fields');
    this.subscribe({ resourceType: id === undefined ? collection : `${collection}/${id}`, query, ...(fields ? { fields: fields.split(',') } : {}) }, floor);
  }

  private async message(text: string | undefined): Promise<void> {
    let request: Request;
    try {
      request = JSON.parse(text ?? '') as Request;
    } catch {
      this.send(errorFrame('could not decode the subscription message: JSON text expected'));
      return;
    }
    if (request === null || typeof request !== 'object' || Array.isArray(request)) {
      this.send(errorFrame('a subscription message is a JSON object {"resourceType", "query", "fields"}'));
      return;
    }
    // dlt-web ends per-resource interest with {"id", "disconnect": true}; UNIS read it as a
    // subscription of no collection and did nothing, and so does this service.
    if (request.resourceType === undefined && (request as { disconnect?: unknown }).disconnect !== undefined) return;
    let floor: Floor;
    try {
      floor = await this.hub.now();
    } catch (error) {
      this.logger.warn({ err: error }, 'a subscription was refused: the event log could not be read');
      this.send(errorFrame('the change feed is unavailable; send the subscription again', '', 503));
      return;
    }
    this.subscribe(request, floor);
  }

  private subscribe(request: Request, floor: Floor): void {
    if (typeof request.resourceType !== 'string') {
      this.send(errorFrame('resourceType must name a collection, or a collection/id', 'resourceType'));
      return;
    }
    const slash = request.resourceType.indexOf('/');
    const collection = slash < 0 ? request.resourceType : request.resourceType.slice(0, slash);
    const kind = this.kinds.get(collection);
    if (!kind) {
      this.send(errorFrame(`no collection "${collection.slice(0, 100)}"`, 'resourceType'));
      return;
    }
    let id = slash < 0 ? undefined : request.resourceType.slice(slash + 1);
    const fields = request.fields === undefined ? undefined : request.fields;
    if (fields !== undefined && (!Array.isArray(fields) || !fields.every((f) => typeof f === 'string') || fields.length > 256)) {
      this.send(errorFrame('fields is a list of member names', 'fields'));
      return;
    }
    let conditions: EventCondition[];
    try {
      const query = { ...((request.query ?? {}) as Record<string, unknown>) };
      // An equality on id is the resource the subscription follows.
      if (typeof query.id === 'string' && (id === undefined || id === query.id)) {
        id = query.id;
        delete query.id;
      }
      conditions = subscriptionConditions(query, kind.fields);
    } catch (error) {
      if (!(error instanceof QueryError)) throw error;
      this.send(errorFrame(`malformed subscription query: ${error.message}`, error.parameter));
      return;
    }
    // The same subscription twice on one socket is one (UNIS shared a channel per query).
    const key = JSON.stringify([collection, id ?? null, request.query ?? {}, fields ?? null]);
    if (this.removals.has(key)) return;
    const refusal = this.ticket.another(this.removals.size);
    if (refusal) {
      this.send(errorFrame(refusal.message, '', refusal.status));
      return;
    }
    const { remove } = this.hub.add({
      kind,
      ...(id !== undefined ? { id } : {}),
      conditions,
      floor,
      deliver: (change) => this.send(unisFrame(change, fields as string[] | undefined, socketAction(change))),
    });
    this.removals.set(key, remove);
  }

  private send(text: string): void {
    if (this.closing) return;
    if (!this.ticket.fits(text.length)) {
      this.closing = true;
      this.logger.warn({ bufferedBytes: this.ws.bufferedAmount, limit: this.ticket.bufferedBytes }, 'subscriber does not read: closing its socket');
      for (const remove of this.removals.values()) remove();
      this.removals.clear();
      this.ws.close(1013, `${SubscriberGate.slow}; reconnect`);
      setTimeout(() => this.ws.terminate(), CLOSE_GRACE_MS).unref();
      return;
    }
    this.ws.send(text);
  }
}
