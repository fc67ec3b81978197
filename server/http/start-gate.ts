import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorBody } from './errors.js';
import { requestIdOf } from './request-context.js';

/** Seconds a client is told to wait before it asks again: a start takes well under one (docs/running.md). */
const RETRY_AFTER_SECONDS = '1';
const MESSAGE = 'the service is starting; retry shortly';

/**
 * The answer of a server that listens but is not ready yet: the port must be open before the
 * service knows its own address (PORT=0), and opening the database, the subscriptions and the
 * application takes a few hundred milliseconds after that. Without a handler in that time, a
 * request that reached the socket was never answered (8–10 of 750 requests sent every 5 ms from
 * the spawn, each start). Until `open` is called, every request is answered 503 with
 * `Retry-After`, and every WebSocket upgrade refused the same way; `open` hands the server to
 * the service's own handlers.
 */
export class StartGate {
  private readonly onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const requestId = requestIdOf(req.headers['x-request-id']);
    const body = JSON.stringify(errorBody(503, MESSAGE, [], requestId));
    res.writeHead(503, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
      'Retry-After': RETRY_AFTER_SECONDS,
      'X-Request-Id': requestId,
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  private readonly onUpgrade = (_req: IncomingMessage, socket: Duplex): void => {
    const body = JSON.stringify(errorBody(503, MESSAGE, [], undefined));
    socket.end(`HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nRetry-After: ${RETRY_AFTER_SECONDS}\r\nConnection: close\r\n\r\n${body}`);
  };

  constructor(private readonly server: Server) {
    server.on('request', this.onRequest);
    server.on('upgrade', this.onUpgrade);
  }

  /** Stop answering 503: the caller attaches the service's `request` and `upgrade` handlers in the same turn. */
  open(): void {
    this.server.off('request', this.onRequest);
    this.server.off('upgrade', this.onUpgrade);
  }
}
