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
 * Whether the request body is read as UNIS's media type: its Content-Type names
 * `application/perfsonar+json` (with or without `profile`, also in the lenient forms
 * requestProfile reads), or there is no Content-Type at all. A comma-separated list counts when
 * it lists perfsonar+json anywhere: only UNIS clients write such lists (libunis-c), and UNIS read
 * every body as its own. A body without the header is UNIS's too (rest-contract §2, revised
 * 2026-11-29): UNIS read every body as its own, and Python `requests` with `data=` sends none, so
 * a PUT of a partial description must update, never replace (a missing header never turns an
 * update into a replacement). A PUT in UNIS's type updates as UNIS HEAD did (§4).
 */
export function unisBody(ctx: Context): boolean {
  const header = ctx.get('content-type');
  return header.trim() === '' || header.split(',').some((text) => parseMediaType(text)?.type === PERFSONAR_JSON);
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
  return acceptOf(accept).type;
}

/** What an `Accept` header decides: the response type (undefined: a 406) and whether the request is typed. */
interface AcceptDecision {
  readonly type: string | undefined;
  readonly typed: boolean;
}

interface MediaRange {
  readonly type: string;
  readonly q: number;
}

/**
 * Decisions by `Accept` header: clients send the same few headers again and again, and the hot
 * path (rest/operations/hot-read.ts) asks on every GET. Bounded: cleared when it holds too many.
 */
const decisions = new Map<string, AcceptDecision>();
const MAX_DECISIONS = 256;

function acceptOf(accept: string): AcceptDecision {
  let decision = decisions.get(accept);
  if (decision === undefined) {
    if (decisions.size >= MAX_DECISIONS) decisions.clear();
    decisions.set(accept, (decision = decide(accept)));
  }
  return decision;
}

/**
 * rest-contract §2 and §3 (revised 2026-11-29). Parameters of a range other than `q`
 * (`application/perfsonar+json; profile=<schema>`, `; charset=utf-8`) are dropped before
 * matching, as UNIS matched types: strict matching (Negotiator's) made them a 406. An `Accept`
 * that names `application/perfsonar+json` at the highest `q` it gives is UNIS form, answered
 * in perfsonar+json whatever else it lists (libunis-c sends
 * `text/html,application/json,application/perfsonar+json`, and UNIS answered it in its own type).
 * Otherwise Negotiator chooses among ours; a request is typed when it names `application/json`
 * or `application/topology+json` (a type listed with `q=0` is refused, not named).
 */
function decide(accept: string): AcceptDecision {
  if (accept.trim() === '') return { type: TOPOLOGY_JSON, typed: false };
  const ranges = mediaRanges(accept);
  const top = Math.max(0, ...ranges.map((r) => r.q));
  if (top > 0 && ranges.some((r) => r.type === PERFSONAR_JSON && r.q === top)) return { type: PERFSONAR_JSON, typed: false };
  const plain = ranges.map((r) => `${r.type};q=${r.q}`).join(',');
  return {
    type: new Negotiator({ headers: { accept: plain } }).mediaType([TOPOLOGY_JSON, PERFSONAR_JSON, JSON_TYPE]),
    typed: ranges.some((r) => TYPED.has(r.type) && r.q > 0),
  };
}

/** The ranges of an `Accept` header, each its type (lower case) and its `q` (1 unless given); other parameters dropped. */
function mediaRanges(accept: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  // A quoted parameter value may hold a comma: split outside quotes only.
  for (const range of accept.match(/(?:[^,"]|"(?:[^"\\]|\\.)*")+/g) ?? []) {
    const [type, ...parameters] = range.split(';');
    // The type is the range's first word: parameters after a space alone (as BLiPP writes its Content-Type) are dropped too.
    const name = (/^\s*([^\s;]*)/.exec(type!)?.[1] ?? '').toLowerCase();
    if (name === '') continue;
    const q = parameters.map((p) => p.trim().toLowerCase()).find((p) => /^q\s*=/.test(p));
    const value = q === undefined ? 1 : Number(q.slice(q.indexOf('=') + 1).trim());
    ranges.push({ type: name, q: Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0 });
  }
  return ranges;
}

/** `Content-Type` header value for a resource response. */
export function contentTypeHeader(type: string, profile: string | undefined): string {
  return type === JSON_TYPE || profile === undefined ? `${type}; charset=utf-8` : `${type}; profile="${profile}"`;
}

/** The types whose naming in `Accept` makes a request typed (see typedRequest). */
const TYPED = new Set<string>([JSON_TYPE, TOPOLOGY_JSON]);

// A typed request names `application/json` or `application/topology+json` in its `Accept` (the
// SDK, `/ui`, typed clients), and does not name `application/perfsonar+json` at its highest
// `q`; a UNIS-form one is any other (no `Accept`, `*/*`, `application/perfsonar+json`, libunis-c's
// `text/html,application/json,application/perfsonar+json`: what UNIS clients send). rest-contract
// §3 and §4 (revised 2026-11-26, 2026-11-28 and 2026-11-29) answer each differently where UNIS
// clients can tell: an unknown id on GET and DELETE, a POST of a one-element array, a read of
// data points, `fields=` on one resource. See decide.
export function typedRequest(accept: string): boolean {
  return acceptOf(accept).typed;
}
