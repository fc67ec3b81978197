import Negotiator from 'negotiator';
import type { Context } from 'koa';
import { MEDIA_TYPES, RESOURCE_MEDIA_TYPES } from '../../generated/rest/contract.js';
import { HttpError } from '../http/errors.js';

// The media types are the contract table's (generator/model/http.ts).
export const TOPOLOGY_JSON = MEDIA_TYPES.topology;
export const PERFSONAR_JSON = MEDIA_TYPES.perfsonar;
export const JSON_TYPE = MEDIA_TYPES.json;
export const MERGE_PATCH = MEDIA_TYPES.mergePatch;

/** Body types every write accepts (docs/rest-interface.md); UNIS clients send perfsonar+json. */
const RESOURCE_TYPES: readonly string[] = RESOURCE_MEDIA_TYPES;

interface MediaType {
  readonly type: string;
  readonly parameters: ReadonlyMap<string, string>;
}

/**
 * One media type of a Content-Type header, read as leniently as UNIS (Tornado) read it: the
 * parameters may follow `;` or only whitespace (BLiPP writes `application/perfsonar+json
 * profile=<schema>`), and a value may be a bare URL (`profile=http://…/node#`), which RFC 9110's
 * token grammar, and so the strict parsers, refuse.
 */
function parseMediaType(text: string): MediaType | undefined {
  const match = /^\s*([A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+)\s*(?:[;\s]\s*(.*))?$/.exec(text);
  if (!match) return undefined;
  const parameters = new Map<string, string>();
  const parameter = /([A-Za-z0-9!#$&^_.+-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;\s]*)/g;
  for (const [, name, raw] of (match[2] ?? '').matchAll(parameter)) {
    const value = raw!.startsWith('"') ? raw!.slice(1, -1).replace(/\\(.)/g, '$1') : raw!;
    parameters.set(name!.toLowerCase(), value);
  }
  return { type: match[1]!.toLowerCase(), parameters };
}

/**
 * The request body's media type, checked; returns its `profile` parameter, if any. A header may
 * list several types separated by commas (libunis-c sends `application/json,application/perfsonar+json`):
 * the first acceptable one counts. A body without Content-Type is JSON, as UNIS read every body
 * (BLiPP sends none on some writes).
 */
export function requestProfile(ctx: Context, options: { mergePatch: boolean }): string | undefined {
  const header = ctx.get('content-type');
  if (header.trim() === '') return undefined;
  const accepted = options.mergePatch ? [...RESOURCE_TYPES, MERGE_PATCH] : RESOURCE_TYPES;
  const listed = header.split(',').map(parseMediaType);
  const chosen = listed.find((m) => m !== undefined && accepted.includes(m.type));
  if (!chosen) {
    const named = listed.map((m) => m?.type ?? 'a malformed type').join(', ');
    throw new HttpError(415, `unsupported Content-Type ${named.slice(0, 200)}`, [{ path: 'Content-Type', message: `accepted: ${accepted.join(', ')}` }]);
  }
  const charset = chosen.parameters.get('charset')?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new HttpError(415, `unsupported charset ${charset.slice(0, 100)}`, [{ path: 'Content-Type', message: 'bodies are UTF-8' }]);
  }
  return chosen.parameters.get('profile');
}

/**
 * Whether the request body is written in UNIS's media type: its Content-Type names
 * `application/perfsonar+json` (with or without `profile`, also in the lenient forms
 * requestProfile reads). A comma-separated list counts when it lists perfsonar+json anywhere:
 * only UNIS clients write such lists (libunis-c), and UNIS read every body as its own. A PUT in
 * UNIS's type updates as UNIS HEAD did (rest-contract §4, revised 2026-11-28); no Content-Type
 * at all is not UNIS's type (no UNIS client PUTs without one).
 */
export function unisBody(ctx: Context): boolean {
  return ctx.get('content-type').split(',').some((text) => parseMediaType(text)?.type === PERFSONAR_JSON);
}

/**
 * The media type of a response that carries resources: topology+json unless the client's
 * Accept admits only application/json (or asks for UNIS's perfsonar+json); 406 when it admits none.
 */
export function responseType(ctx: Context): string {
  const chosen = negotiatedType(ctx.get('accept'));
  if (chosen === undefined) {
    throw new HttpError(406, 'none of the acceptable media types can be produced', [{ path: 'Accept', message: `available: ${TOPOLOGY_JSON}, ${JSON_TYPE}` }]);
  }
  return chosen;
}

/** The response media type an `Accept` header chooses (see responseType); undefined when it admits none. */
export function negotiatedType(accept: string): string | undefined {
  if (accept === '') return TOPOLOGY_JSON;
  return new Negotiator({ headers: { accept } }).mediaType([TOPOLOGY_JSON, PERFSONAR_JSON, JSON_TYPE]);
}

/** `Content-Type` header value for a resource response. */
export function contentTypeHeader(type: string, profile: string | undefined): string {
  return type === JSON_TYPE || profile === undefined ? `${type}; charset=utf-8` : `${type}; profile="${profile}"`;
}

/** The types whose naming in `Accept` makes a request typed (see typedRequest). */
const TYPED = new Set<string>([JSON_TYPE, TOPOLOGY_JSON]);

// A typed request names `application/json` or `application/topology+json` in its `Accept` (the
// SDK, `/ui`, typed clients); a UNIS-form one does not (no `Accept`, `*/*`,
// `application/perfsonar+json`: what UNIS clients send). rest-contract §3 and §4 (revised
// 2026-11-26 and 2026-11-28) answer each differently where UNIS clients can tell: an unknown id
// on GET and DELETE, a POST of a one-element array, a read of data points. A type listed with
// `q=0` is refused, not named.
export function typedRequest(accept: string): boolean {
  if (accept === '') return false;
  for (const range of accept.split(',')) {
    const [type, ...parameters] = range.split(';');
    if (!TYPED.has(type!.trim().toLowerCase())) continue;
    const q = parameters.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('q='));
    if (q === undefined || Number(q.slice(2)) > 0) return true;
  }
  return false;
}
