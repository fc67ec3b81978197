import { CONSISTENCY_TOKEN, MEDIA_TYPES, type ErrorStatus } from '../../model/http.js';
import type { Model } from '../../model/model.js';
import { ref, type Json } from './components.js';

/** Headers a response may carry, described once. */
export const HEADERS: Json = {
  FederationPartial: {
    description:
      'On a lookup\'s `federate=true` answer: the instances whose lists are missing from it, `<accessPoint>; reason="unreachable" | "no answer within N ms" | "status N" | "not a list"`, comma-separated; absent when every instance answered. Decided when the answer starts: an instance that fails after that cuts the answer off (the connection is reset), never silently.',
    schema: { type: 'string' },
  },
  ConsistencyToken: { description: CONSISTENCY_TOKEN.answered, schema: { type: 'string', pattern: '^[0-9A-F]{1,8}/[0-9A-F]{1,8}$' } },
  ETag: { description: 'The strong validator of this representation: its `ts` in quotes (a projection has one of its own).', schema: { type: 'string' } },
  ListETag: {
    description:
      'A weak validator of the list (absent with `at`, `since`/`until`): where the collection stands in the event log (every kind with `expand`, or `inline` on exnodes), with the query string, the media type, the service\'s base addresses and its version. Any committed write that could change the list changes it; `If-None-Match` with it answers 304 without reading the list.',
    schema: { type: 'string', pattern: '^W/"[^"]*"$' },
  },
  LastModified: { description: 'The time of `ts`.', schema: { type: 'string' } },
  Location: { description: 'The address of the resource.', schema: { type: 'string', format: 'uri' } },
  RetryAfter: { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
  WWWAuthenticate: { description: '`Bearer`.', schema: { type: 'string' } },
  XRequestId: { description: 'The request id, also in the error body and the server log.', schema: { type: 'string' } },
};

export const header = (name: string): Json => ({ $ref: `#/components/headers/${name}` });

const ERROR_HEADERS: Readonly<Record<number, Json>> = {
  401: { 'WWW-Authenticate': header('WWWAuthenticate') },
  503: { 'Retry-After': header('RetryAfter') },
};

/** The error responses from the model's error table, each the one error body. */
export function errorResponseComponents(model: Model, used: ReadonlySet<number>): Json {
  const components: Json = {};
  for (const status of model.errors.statuses.filter((s) => used.has(s.status))) components[status.className] = errorResponse(status);
  return components;
}

function errorResponse(status: ErrorStatus): Json {
  return {
    description: `${status.meaning[0]!.toUpperCase()}${status.meaning.slice(1)}.`,
    headers: { 'X-Request-Id': header('XRequestId'), ...ERROR_HEADERS[status.status] },
    content: { [MEDIA_TYPES.json]: { schema: ref('ErrorBody') } },
  };
}

/** References to the error responses of `statuses`, keyed by status. */
export function errors(model: Model, statuses: readonly number[], used: Set<number>): Json {
  const out: Json = {};
  for (const status of statuses) {
    const row = model.errors.statuses.find((s) => s.status === status);
    if (!row) throw new Error(`status ${status} is not in the error table (generator/model/http.ts)`);
    used.add(status);
    out[status] = { $ref: `#/components/responses/${row.className}` };
  }
  return out;
}
