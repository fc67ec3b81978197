import { checkAnswer } from './openapi.js';

/** A parsed HTTP answer: status, headers, and the body as text and (when it is JSON) as a value. */
export interface Answer<T = any> {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly body: T;
}

export interface RequestOptions {
  readonly body?: unknown;
  /** A body sent exactly as given (no JSON encoding). */
  readonly raw?: string | Buffer;
  readonly headers?: Readonly<Record<string, string>>;
}

export const TOPOLOGY = 'application/topology+json';

/** One request through the real HTTP interface. JSON bodies default to topology+json. */
export async function request<T = any>(method: string, url: string, options: RequestOptions = {}): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | Buffer | undefined = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= TOPOLOGY;
  } else if (options.raw !== undefined) {
    headers['content-type'] ??= TOPOLOGY;
  }
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const accept = Object.entries(headers).find(([name]) => name.toLowerCase() === 'accept')?.[1] ?? null;
  checkAnswer({ method, url, status: response.status, contentType: response.headers.get('content-type'), requestId: response.headers.get('x-request-id'), text, accept });
  return { status: response.status, headers: response.headers, text, body: parsed as T };
}

export const get = <T = any>(url: string, headers?: Record<string, string>) => request<T>('GET', url, headers ? { headers } : {});
export const post = <T = any>(url: string, body: unknown, headers?: Record<string, string>) => request<T>('POST', url, { body, ...(headers ? { headers } : {}) });
export const put = <T = any>(url: string, body: unknown, headers?: Record<string, string>) => request<T>('PUT', url, { body, ...(headers ? { headers } : {}) });
export const patch = <T = any>(url: string, body: unknown, headers?: Record<string, string>) =>
  request<T>('PATCH', url, { body, headers: { 'content-type': 'application/merge-patch+json', ...headers } });
export const del = <T = any>(url: string, headers?: Record<string, string>) => request<T>('DELETE', url, headers ? { headers } : {});
