import { request as httpRequest } from 'node:http';
import type { Answer } from './http.js';

/** A request exactly as a client writes it: the raw target, headers in its order and case. */
export interface WireRequest {
  readonly method: string;
  /** Path and query string as the client builds them, sent as they are. */
  readonly target: string;
  readonly headers: readonly (readonly [string, string])[];
  readonly body?: string;
}

/**
 * Send `request` to the server at `base` without any header of Node's own choosing (no added
 * Host, Connection or Transfer-Encoding): the replay of a real client's bytes. The answer is
 * parsed like the suite's other requests.
 */
export function wire(base: string, request: WireRequest): Promise<Answer> {
  const url = new URL(base);
  const host = request.headers.some(([name]) => name.toLowerCase() === 'host') ? [] : [['Host', url.host] as const];
  const lengthNeeded = request.body !== undefined && !request.headers.some(([name]) => name.toLowerCase() === 'content-length');
  const headers = [...host, ...request.headers, ...(lengthNeeded ? [['Content-Length', String(Buffer.byteLength(request.body!))] as const] : [])];
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: url.hostname, port: url.port, method: request.method, path: request.target, headers: headers.flat() as string[], setHost: false, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = text === '' ? undefined : JSON.parse(text);
          } catch {
            body = undefined;
          }
          const answerHeaders = new Headers();
          for (const [name, value] of Object.entries(response.headers)) if (typeof value === 'string') answerHeaders.set(name, value);
          resolve({ status: response.statusCode ?? 0, headers: answerHeaders, text, body });
        });
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}
