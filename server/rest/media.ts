import { parse as parseContentType, type ContentType } from 'content-type';
import Negotiator from 'negotiator';
import type { Context } from 'koa';
import { HttpError, badRequest } from '../http/errors.js';

export const TOPOLOGY_JSON = 'application/topology+json';
export const PERFSONAR_JSON = 'application/perfsonar+json';
export const JSON_TYPE = 'application/json';
export const MERGE_PATCH = 'application/merge-patch+json';

/** Body types every write accepts (rest-contract §2); UNIS clients send perfsonar+json. */
const RESOURCE_TYPES = [TOPOLOGY_JSON, JSON_TYPE, PERFSONAR_JSON];

/** The request body's media type, checked; returns its `profile` parameter, if any. */
export function requestProfile(ctx: Context, options: { mergePatch: boolean }): string | undefined {
  const header = ctx.get('content-type');
  if (header === '') throw new HttpError(415, 'a body needs a Content-Type', [{ path: 'Content-Type', message: `use ${TOPOLOGY_JSON}` }]);
  let parsed: ContentType;
  try {
    parsed = parseContentType(header);
  } catch {
    throw badRequest('malformed Content-Type header', [{ path: 'Content-Type', message: header.slice(0, 200) }]);
  }
  const accepted = options.mergePatch ? [...RESOURCE_TYPES, MERGE_PATCH] : RESOURCE_TYPES;
  if (!accepted.includes(parsed.type)) {
    throw new HttpError(415, `unsupported Content-Type ${parsed.type}`, [{ path: 'Content-Type', message: `accepted: ${accepted.join(', ')}` }]);
  }
  const charset = parsed.parameters.charset?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new HttpError(415, `unsupported charset ${charset}`, [{ path: 'Content-Type', message: 'bodies are UTF-8' }]);
  }
  return parsed.parameters.profile;
}

/**
 * The media type of a response that carries resources: topology+json unless the client's
 * Accept admits only application/json (or asks for UNIS's perfsonar+json); 406 when it admits none.
 */
export function responseType(ctx: Context): string {
  const accept = ctx.get('accept');
  if (accept === '') return TOPOLOGY_JSON;
  const chosen = new Negotiator({ headers: { accept } }).mediaType([TOPOLOGY_JSON, PERFSONAR_JSON, JSON_TYPE]);
  if (chosen === undefined) {
    throw new HttpError(406, 'none of the acceptable media types can be produced', [{ path: 'Accept', message: `available: ${TOPOLOGY_JSON}, ${JSON_TYPE}` }]);
  }
  return chosen;
}

/** `Content-Type` header value for a resource response. */
export function contentTypeHeader(type: string, profile: string | undefined): string {
  return type === JSON_TYPE || profile === undefined ? `${type}; charset=utf-8` : `${type}; profile="${profile}"`;
}
