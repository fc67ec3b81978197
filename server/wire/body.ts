import type { Context } from 'koa';
import getRawBody from 'raw-body';
import type { Limits } from '../config.js';
import { HttpError, badRequest } from '../http/errors.js';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Read and parse a JSON request body within the limits: size (413), strict UTF-8, nesting depth
 * (400, checked before parsing so a 100,000-level document costs one linear scan), and strings
 * that no database can store (NUL, unpaired surrogates). Nothing reaches storage that could
 * fail there for a reason the client caused.
 */
export async function readJsonBody(ctx: Context, limits: Limits): Promise<unknown> {
  let buffer: Buffer;
  try {
    buffer = await getRawBody(ctx.req, { limit: limits.bodyBytes, length: ctx.get('content-length') || undefined });
  } catch (error) {
    const type = (error as { type?: string }).type;
    if (type === 'entity.too.large') throw new HttpError(413, `body larger than ${limits.bodyBytes} bytes`);
    if (type === 'request.size.invalid') throw badRequest('body shorter or longer than its Content-Length');
    if (type === 'request.aborted') throw new HttpError(400, 'request aborted');
    throw error;
  }
  let text: string;
  try {
    text = utf8.decode(buffer);
  } catch {
    throw badRequest('body is not valid UTF-8');
  }
  if (text.trim() === '') throw badRequest('body is empty; expected JSON');
  const problem = scanJson(text, limits.jsonDepth);
  if (problem) throw badRequest(problem);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw badRequest(`malformed JSON: ${(error as Error).message}`);
  }
}

/** What a document deeper than the limit (MAX_JSON_DEPTH) is told, in JSON text here and in any other form (server/unis/sources). */
export function nestedTooDeep(maxDepth: number): string {
  return `nested deeper than ${maxDepth} levels`;
}

/**
 * One pass over JSON text (valid or not): nesting depth and forbidden string escapes. Also the
 * check of every JSON text an import reads (server/unis/sources): a document 200,000 levels deep
 * parses, but every recursive walk after it (unescaping, validation, JSON.stringify) overflows
 * the stack.
 */
export function scanJson(text: string, maxDepth: number): string | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x22) inString = false;
      else if (c === 0x5c) {
        if (text.charCodeAt(i + 1) === 0x75) {
          const code = parseInt(text.slice(i + 2, i + 6), 16);
          if (code === 0) return 'strings must not contain NUL (\\u0000)';
          if (code >= 0xd800 && code <= 0xdbff) {
            const next = text.slice(i + 6, i + 8) === '\\u' ? parseInt(text.slice(i + 8, i + 12), 16) : NaN;
            if (!(next >= 0xdc00 && next <= 0xdfff)) return 'strings must not contain unpaired surrogates';
            i += 11;
            continue;
          }
          if (code >= 0xdc00 && code <= 0xdfff) return 'strings must not contain unpaired surrogates';
          i += 5;
        } else {
          i += 1;
        }
      }
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return `JSON ${nestedTooDeep(maxDepth)}`;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return undefined;
}
