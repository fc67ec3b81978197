/**
 * One HTTP request over a kept-alive connection, timed to the microsecond with performance.now()
 * (from writing the request to the last byte of the answer), for loads that check every answer
 * rather than only count them (autocannon's rows do not look at bodies).
 */
import { Agent, request, type IncomingHttpHeaders } from 'node:http';

export interface TimedSpec {
  readonly method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** No answer within this many milliseconds counts as a connection error (default 30 s). */
  readonly timeoutMs?: number;
}

export interface TimedResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** Milliseconds from sending to the end of the body. */
  readonly ms: number;
}

/**
 * A keep-alive agent for one virtual client: its requests go one after the other over one
 * connection, as a real client's would. The agent honours the server's `Keep-Alive: timeout=`
 * hint, so it does not reuse a connection the server is about to close.
 */
export function keepAliveAgent(maxSockets = 1): Agent {
  return new Agent({ keepAlive: true, maxSockets });
}

/** Send one request and read the whole answer; rejects on connection errors and timeouts only. */
export function timedRequest(agent: Agent, url: URL, spec: TimedSpec = {}): Promise<TimedResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...spec.headers };
    if (spec.body !== undefined) headers['content-length'] = String(Buffer.byteLength(spec.body));
    const started = performance.now();
    const req = request(url, { agent, method: spec.method ?? 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started }));
      res.on('error', reject);
    });
    req.setTimeout(spec.timeoutMs ?? 30_000, () => req.destroy(new Error(`no answer within ${spec.timeoutMs ?? 30_000} ms`)));
    req.on('error', reject);
    req.end(spec.body);
  });
}
