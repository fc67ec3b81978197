import type { RouterMiddleware } from '@koa/router';
import type { KindDescriptor } from '../../../generated/rest/handler.js';
import { notFound } from '../../http/errors.js';
import type { ParsedQuery } from '../../storage/query-language.js';
import { responseType } from '../media.js';
import { asQueryErrors, pathId, requestQuery } from '../request.js';
import type { OperationContext } from './context.js';

/**
 * GET /<collection>/<id> (rest-contract §3): the newest representation; `?ts=T` the version with
 * that ts (an object, or 404); with conditions, the matching versions, newest first.
 */
export function read({ store, representations, limits, respond }: OperationContext) {
  return (kind: KindDescriptor): RouterMiddleware =>
    async (ctx) => {
      const type = responseType(ctx);
      const query = requestQuery(ctx, kind, 'resource', limits, representations);
      const presentation = respond.presentation(kind, type, query);
      const id = pathId(ctx, kind);
      const absent = () => notFound(`no ${kind.name} "${id}"${query.version != null ? ` with ts ${query.version}` : ''}`);

      if (query.version !== undefined) {
        // A ts beyond every integer a version can have selects nothing.
        if (query.version === null) throw absent();
        const version =
          query.conditions.length === 0
            ? await store.version(kind.collection, id, query.version)
            : await first(asQueryErrors(() => store.versions(kind.collection, id, { query: atVersion(query, query.version as number), fields: kind.fields })));
        if (!version) throw absent();
        return respond.one(ctx, presentation, version);
      }
      if (query.conditions.length > 0) {
        if (!(await store.known(kind.collection, id))) throw absent();
        return respond.list(ctx, presentation, asQueryErrors(() => store.versions(kind.collection, id, { query, fields: kind.fields })));
      }
      const current = await store.current(kind.collection, id);
      if (!current) throw absent();
      await respond.one(ctx, presentation, current);
    };
}

/** The query's conditions and the version `ts`: that version, if it matches them. */
function atVersion(query: ParsedQuery, ts: number): ParsedQuery {
  const term = { field: ['ts'], operator: 'eq' as const, values: [{ value: ts, type: 'integer' as const }], parameter: 'ts' };
  return { ...query, conditions: [...query.conditions, { terms: [term] }], limit: 1 };
}

async function first<T>(rows: AsyncIterable<T>): Promise<T | undefined> {
  for await (const row of rows) return row;
  return undefined;
}
