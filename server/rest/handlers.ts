import { Readable } from 'node:stream';
import type { RouterContext, RouterMiddleware } from '@koa/router';
import type { KindDescriptor, RestHandlers } from '../../generated/rest/handler.js';
import { authorize, scopeOf } from '../auth.js';
import type { Limits } from '../config.js';
import { HttpError, badRequest, notFound } from '../http/errors.js';
import { PreconditionFailed, ResourceConflict, ResourceMissing } from '../storage/errors.js';
import { parseQuery, project, QueryError, versionSelector, type ParsedQuery } from '../storage/query-language.js';
import type { Representation, ResourceStore } from '../storage/resource-store.js';
import { readJsonBody } from './body.js';
import { etagFor, expectation, isNotModified, lastModified } from './conditional.js';
import { applyMergePatch } from './merge-patch.js';
import { contentTypeHeader, requestProfile, responseType } from './media.js';
import type { Representations } from './representation.js';

export interface RestDependencies {
  readonly store: ResourceStore;
  readonly representations: Representations;
  readonly limits: Limits;
}

/** Bytes gathered before a list response writes to the socket. */
const LIST_CHUNK = 64 * 1024;

/**
 * The six operations of every collection (rest-contract §3–5), implemented once over the
 * resource store and bound to each kind by the generated routes.
 */
export function createRestHandlers({ store, representations, limits }: RestDependencies): RestHandlers {
  const malformedQuery = (error: QueryError) => badRequest(`malformed query: ${error.message}`, [{ path: error.parameter, message: error.message }]);

  const parse = (ctx: RouterContext): ParsedQuery => {
    try {
      return parseQuery(ctx.querystring, limits.queryParameters);
    } catch (error) {
      throw error instanceof QueryError ? malformedQuery(error) : error;
    }
  };

  /** Start a read; the compiler types values by field, so a query can still be malformed here. */
  const select = (open: () => AsyncIterable<Representation>): AsyncIterable<Representation> => {
    try {
      return open();
    } catch (error) {
      throw error instanceof QueryError ? malformedQuery(error) : error;
    }
  };

  /** Run a storage call and present its outcomes as HTTP errors. */
  const storage = async <T>(work: () => Promise<T>, conflictPath = '/id', batch = false): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ResourceMissing) throw notFound('no resource with that id');
      if (error instanceof PreconditionFailed) throw new HttpError(412, 'If-Match does not match the newest representation');
      if (error instanceof ResourceConflict) {
        const path = batch && error.index !== undefined ? `/${error.index}${conflictPath}` : conflictPath;
        throw new HttpError(409, error.message, [{ path, message: error.message }]);
      }
      throw error;
    }
  };

  const checkProfile = (ctx: RouterContext, kind: KindDescriptor, mergePatch: boolean): void => {
    const profile = requestProfile(ctx, { mergePatch });
    if (profile === undefined) return;
    const problem = representations.schemaProblem(kind, profile, 'Content-Type');
    if (problem) throw badRequest(`profile ${problem.message}`, [problem]);
  };

  const sendOne = (ctx: RouterContext, kind: KindDescriptor, type: string, rep: Representation, query: ParsedQuery | undefined, status = 200): void => {
    const fields = query?.fields;
    const etag = etagFor(rep.ts, fields ? fields.map((f) => f.join('.')).join(',') : undefined);
    ctx.set('ETag', etag);
    ctx.set('Last-Modified', lastModified(rep.ts));
    if (status === 200 && (ctx.method === 'GET' || ctx.method === 'HEAD') && isNotModified(ctx, etag, rep.ts)) {
      ctx.status = 304;
      return;
    }
    ctx.set('Content-Type', contentTypeHeader(type, representations.schemaAddress(kind)));
    ctx.status = status;
    ctx.body = fields ? JSON.stringify(project(JSON.parse(rep.doc), fields)) : rep.doc;
  };

  /** Stream a JSON array; the first row is read before answering so that query errors get a status. */
  const sendList = async (ctx: RouterContext, kind: KindDescriptor, type: string, rows: AsyncIterable<Representation>, query: ParsedQuery): Promise<void> => {
    const iterator = rows[Symbol.asyncIterator]();
    const first = await iterator.next();
    ctx.set('Content-Type', contentTypeHeader(type, representations.schemaAddress(kind)));
    ctx.status = 200;
    if (ctx.method === 'HEAD') {
      await iterator.return?.();
      ctx.body = '';
      return;
    }
    const render = query.fields ? (r: Representation) => JSON.stringify(project(JSON.parse(r.doc), query.fields!)) : (r: Representation) => r.doc;
    ctx.body = Readable.from(
      (async function* () {
        let buffer = '[';
        let next = first;
        let separator = '';
        try {
          while (!next.done) {
            buffer += separator + render(next.value);
            separator = ',';
            if (buffer.length >= LIST_CHUNK) {
              yield buffer;
              buffer = '';
            }
            next = await iterator.next();
          }
          yield `${buffer}]`;
        } finally {
          await iterator.return?.();
        }
      })(),
      { objectMode: false },
    );
  };

  /**
   * The id of the path. One with control characters cannot exist (ids are stored text, and
   * PostgreSQL cannot even hold a NUL), so it is a 404 before any database sees it.
   */
  const pathId = (ctx: RouterContext, kind: KindDescriptor): string => {
    const id = ctx.params.id!;
    // eslint-disable-next-line no-control-regex -- control characters are what it looks for
    if (/[\u0000-\u001f\u007f]/.test(id)) throw notFound(`no ${kind.name} with that id`);
    return id;
  };

  const requireObject = (value: unknown, what: string): Record<string, unknown> => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw badRequest(`${what} must be a JSON object`, [{ path: '', message: 'must be an object' }]);
    return value as Record<string, unknown>;
  };

  const create = (kind: KindDescriptor): RouterMiddleware => async (ctx) => {
    checkProfile(ctx, kind, false);
    const type = responseType(ctx);
    const body = await readJsonBody(ctx, limits);
    const many = Array.isArray(body);
    const items: unknown[] = many ? body : [body];
    if (items.length > limits.arrayItems) throw new HttpError(413, `array of ${items.length} items; at most ${limits.arrayItems} are accepted`);
    const issues = [];
    const accepted: Record<string, unknown>[] = [];
    for (let i = 0; i < items.length; i++) {
      const incoming = representations.incoming(kind, items[i], many ? `/${i}` : '');
      issues.push(...incoming.issues);
      accepted.push(incoming.body);
    }
    if (issues.length > 0) throw badRequest('body failed validation', issues);
    const stored = await storage(() =>
      store.insert(
        kind.collection,
        accepted.map((body) => ({ ...(typeof body.id === 'string' ? { id: body.id } : {}), build: (id: string, ts: number) => representations.stored(kind, id, ts, body) })),
      ),
      '/id',
      many,
    );
    if (many) {
      ctx.set('Content-Type', contentTypeHeader(type, representations.schemaAddress(kind)));
      ctx.status = 201;
      ctx.body = `[${stored.map((r) => r.doc).join(',')}]`;
      return;
    }
    const created = stored[0]!;
    ctx.set('Location', representations.selfRef(kind, created.id));
    sendOne(ctx, kind, type, created, undefined, 201);
  };

  const list = (kind: KindDescriptor): RouterMiddleware => async (ctx) => {
    const type = responseType(ctx);
    const query = parse(ctx);
    await sendList(ctx, kind, type, select(() => store.list(kind.collection, { query, fields: kind.fields })), query);
  };

  const read = (kind: KindDescriptor): RouterMiddleware => async (ctx) => {
    const type = responseType(ctx);
    const query = parse(ctx);
    const id = pathId(ctx, kind);
    const ts = versionSelector(query);
    if (ts !== undefined) {
      const version = await store.version(kind.collection, id, ts);
      if (!version) throw notFound(`no ${kind.name} "${id}" with ts ${ts}`);
      return sendOne(ctx, kind, type, version, query);
    }
    if (query.conditions.length > 0) {
      if (!(await store.known(kind.collection, id))) throw notFound(`no ${kind.name} "${id}"`);
      return sendList(ctx, kind, type, select(() => store.versions(kind.collection, id, { query, fields: kind.fields })), query);
    }
    const current = await store.current(kind.collection, id);
    if (!current) throw notFound(`no ${kind.name} "${id}"`);
    sendOne(ctx, kind, type, current, query);
  };

  const replace = (kind: KindDescriptor): RouterMiddleware => async (ctx) => {
    checkProfile(ctx, kind, false);
    const type = responseType(ctx);
    const id = pathId(ctx, kind);
    const body = requireObject(await readJsonBody(ctx, limits), 'a PUT body');
    if (body.id !== undefined && body.id !== id) {
      throw badRequest('the body id differs from the id in the path', [{ path: '/id', message: `must be "${id}" or absent` }]);
    }
    const replayedTs = typeof body.ts === 'number' && Number.isSafeInteger(body.ts) ? body.ts : undefined;
    const incoming = representations.incoming(kind, { ...body, id }, '');
    if (incoming.issues.length > 0) throw badRequest('body failed validation', incoming.issues);
    const expect = expectation(ctx);
    const stored = await storage(
      () => store.update(kind.collection, id, (_current, ts) => representations.stored(kind, id, ts, incoming.body), { ...(expect ? { expect } : {}), ...(replayedTs !== undefined ? { replayedTs } : {}) }),
      '/ts',
    );
    ctx.set('Location', representations.selfRef(kind, id));
    sendOne(ctx, kind, type, stored, undefined, 201);
  };

  const patch = (kind: KindDescriptor): RouterMiddleware => async (ctx) => {
    checkProfile(ctx, kind, true);
    const type = responseType(ctx);
    const id = pathId(ctx, kind);
    const changes = requireObject(await readJsonBody(ctx, limits), 'a merge patch of a resource');
    if ('id' in changes && changes.id !== id) {
      throw badRequest('a patch cannot change the id', [{ path: '/id', message: `must be "${id}" or absent` }]);
    }
    const expect = expectation(ctx);
    const stored = await storage(() =>
      store.update(
        kind.collection,
        id,
        (current, ts) => {
          const merged = applyMergePatch(representations.withoutVersion(current), changes);
          const incoming = representations.incoming(kind, merged, '');
          // Thrown inside the transaction: nothing is stored.
          if (incoming.issues.length > 0) throw badRequest('the patched resource failed validation', incoming.issues);
          return representations.stored(kind, id, ts, incoming.body);
        },
        expect ? { expect } : {},
      ),
    );
    sendOne(ctx, kind, type, stored, undefined, 200);
  };

  const remove = (kind: KindDescriptor): RouterMiddleware => async (ctx) => {
    const expect = expectation(ctx);
    const id = pathId(ctx, kind);
    await storage(() => store.remove(kind.collection, id, expect ? { expect } : {}));
    ctx.status = 204;
  };

  /** Every collection operation needs the scope of its method (rest-contract §8). */
  const guarded =
    (operation: (kind: KindDescriptor) => RouterMiddleware) =>
    (kind: KindDescriptor): RouterMiddleware => {
      const handle = operation(kind);
      return (ctx, next) => {
        authorize(ctx, scopeOf(ctx.method));
        return handle(ctx, next);
      };
    };

  return { create: guarded(create), list: guarded(list), read: guarded(read), replace: guarded(replace), patch: guarded(patch), remove: guarded(remove) } as RestHandlers;
}
