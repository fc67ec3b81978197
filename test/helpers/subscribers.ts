import { request as httpRequest, type IncomingMessage } from 'node:http';
import WebSocket from 'ws';

import { eventually } from './wait.js';

export interface Frame {
  readonly headers?: { readonly action: string; readonly collection: string; readonly id: string };
  readonly data?: any;
  readonly error?: { readonly message: string; readonly details: { path: string; message: string }[] };
}

/** A UNIS WebSocket subscriber that keeps every frame it receives. */
export class SocketClient {
  readonly frames: Frame[] = [];
  closed: { code: number; reason: string } | undefined;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => this.frames.push(JSON.parse(data.toString()) as Frame));
    ws.on('close', (code, reason) => (this.closed = { code, reason: reason.toString() }));
  }

  /** Open `ws://…<path>` and resolve once it is open (or reject with the HTTP status of a refusal). */
  static open(url: string, path: string, headers: Record<string, string> = {}): Promise<SocketClient> {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}${path}`, { headers });
    const client = new SocketClient(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(client));
      ws.once('unexpected-response', (_req, res: IncomingMessage) => reject(Object.assign(new Error(`refused with ${res.statusCode}`), { status: res.statusCode })));
      ws.once('error', reject);
    });
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** Frames of changes (not errors). */
  get changes(): Frame[] {
    return this.frames.filter((f) => f.headers !== undefined);
  }

  /** Resolve once `count` change frames have arrived. */
  async changesAtLeast(count: number, ms?: number): Promise<Frame[]> {
    return eventually(`${count} frames (have ${this.changes.length})`, () => (this.changes.length >= count ? this.changes : undefined), ms);
  }

  private errorsTaken = 0;

  /** Resolve with the first error frame not taken yet (it may have come already). */
  async nextError(): Promise<NonNullable<Frame['error']>> {
    const index = this.errorsTaken++;
    return eventually('an error frame', () => this.frames.filter((f) => f.error)[index]?.error);
  }

  /**
   * A round trip through the server: once it has answered a ping, every subscription sent
   * before is registered (messages on one socket are handled in order).
   */
  async settled(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.ws.once('pong', () => resolve());
      this.ws.ping();
    });
  }

  close(): void {
    this.ws.close();
  }
}

export interface ServerSentEvent {
  readonly id: string;
  readonly event: string;
  readonly data: any;
}

/** An event-stream reader over a connection of its own, parsing Server-Sent Events as they come. */
export class StreamClient {
  readonly events: ServerSentEvent[] = [];
  status = 0;
  headers: Record<string, string | string[] | undefined> = {};
  ended = false;
  private response: IncomingMessage | undefined;

  private constructor() {}

  static open(url: string, headers: Record<string, string> = {}): Promise<StreamClient> {
    const client = new StreamClient();
    return new Promise((resolve, reject) => {
      const req = httpRequest(url, { headers: { accept: 'text/event-stream', ...headers }, agent: false }, (res) => {
        client.response = res;
        client.status = res.statusCode ?? 0;
        client.headers = res.headers;
        let buffer = '';
        res.on('data', (chunk: Buffer) => {
          buffer += chunk.toString();
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const fields = Object.fromEntries(block.split('\n').filter((l) => !l.startsWith(':') && l.includes(':')).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trimStart()]));
            if (fields.data !== undefined) client.events.push({ id: fields.id ?? '', event: fields.event ?? 'message', data: JSON.parse(fields.data) });
          }
        });
        res.on('end', () => (client.ended = true));
        res.on('close', () => (client.ended = true));
        resolve(client);
      });
      req.on('error', reject);
      req.end();
    });
  }

  async atLeast(count: number, ms?: number): Promise<ServerSentEvent[]> {
    return eventually(`${count} events (have ${this.events.length})`, () => (this.events.length >= count ? this.events : undefined), ms);
  }

  /** Stop reading (the socket stays open, its buffers fill). */
  pause(): void {
    this.response?.socket.pause();
  }

  close(): void {
    this.response?.destroy();
  }
}
