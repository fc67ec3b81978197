import { CONSISTENCY_TOKEN, QUERY_OPERATORS, VALUE_TYPES } from '../../model/http.js';
import type { Json } from './components.js';

const param = (name: string): Json => ({ $ref: `#/components/parameters/${name}` });

/** Parameters by operation: what each REST action reads from the path, the query and the headers. */
export const PARAMETERS = {
  list: ['Conditions', 'Fields', 'Limit', 'Skip', 'Sort', 'Unique', 'Inline', 'Expand', 'At', 'Since', 'Until', 'Federate', 'IfNoneMatch', 'LastEventId', 'AccessToken', 'ConsistencyToken'].map(param),
  read: ['Ts', 'Conditions', 'Fields', 'Limit', 'Skip', 'Sort', 'Unique', 'Inline', 'Expand', 'At', 'IfNoneMatch', 'IfModifiedSince', 'LastEventId', 'AccessToken', 'ConsistencyToken'].map(param),
  create: ['IfNoneMatchCreate'].map(param),
  write: ['IfMatch'].map(param),
  id: param('Id'),
};

/** The grammar of the contract table (generator/model/http.ts): typed values, the operators that order, and the others. */
const TYPED_VALUE = VALUE_TYPES.map((t) => `\`${t.type}:${t.example}\``).join(', ');
const [FIRST_ORDERING, ...OTHER_ORDERING] = QUERY_OPERATORS.filter((o) => o.orders).map((o) => o.prefix);
const ORDERING = [FIRST_ORDERING, ...OTHER_ORDERING].join('|');
const UNIS_OPERATORS = QUERY_OPERATORS.filter((o) => !o.orders).map((o) => {
  if (o.described === undefined) throw new Error(`the query operator ${o.prefix}= has no description (generator/model/http.ts)`);
  return o.described;
});
const OPERATORS_DESCRIBED = `\`a=${FIRST_ORDERING}=v\` (also ${OTHER_ORDERING.map((p) => `\`${p}\``).join(', ')}), typed values ${TYPED_VALUE}; UNIS's ${UNIS_OPERATORS.slice(0, -1).join(', ')}, and ${UNIS_OPERATORS.at(-1)}`;

/** The parameter components the operations refer to. */
export const PARAMETER_COMPONENTS: Json = {
  Id: { name: 'id', in: 'path', required: true, description: 'The resource id: percent-encoded, or as it is where it is a valid path segment (as `selfRef` writes it). A segment with a `%` names the id spelled as sent when one was ever stored, else the decoded one (docs/rest-interface.md, "Ids in paths").', schema: { type: 'string', minLength: 1 } },
  Ts: {
    name: 'ts',
    in: 'query',
    description: 'One timestamp (µs since the epoch, `T` or `integer:T`) selects that version: an object. A comparison (`gt=T`, `gte=T`, `lt=T`, `lte=T`) or a list (`T1,T2`) is a condition on the versions: the array of those that match, newest first. Conditions on other fields search the versions too (`id=string:<id>` matches every version).',
    schema: { anyOf: [{ type: 'integer', format: 'int64' }, { type: 'string', pattern: `^((integer:|number:)?[0-9]+|(${ORDERING})=.+|[^,]*(,[^,]*)+)$` }] },
  },
  Conditions: {
    name: 'conditions',
    in: 'query',
    style: 'form',
    explode: true,
    description: `Conditions, one parameter per field in dot notation (the field names are the parameter names): \`a=v\`, \`a=v1,v2\` (any of them), ${OPERATORS_DESCRIBED}; repeated parameters AND, \`a=v|b=w\` ORs terms in one parameter. A separator inside a value is written percent-encoded (\`%2C\`, \`%7C\`).`,
    schema: { type: 'object', additionalProperties: { type: 'string' } },
    // Without it, Swagger UI's "Try it out" sends `additionalProp1=string&…`, which matches nothing.
    example: {},
  },
  Fields: {
    name: 'fields',
    in: 'query',
    style: 'form',
    explode: false,
    description:
      'Return only these fields (dot notation reaches nested ones): `fields=id,name`; or every field except these: `fields=neg=name,properties` (UNIS HEAD; lists on the way are projected element by element). The answer is a projection, with an ETag of its own.',
    schema: { type: 'array', items: { type: 'string' } },
  },
  Limit: { name: 'limit', in: 'query', description: 'At most this many representations; `0` is no limit (as MongoDB and UNIS read it).', schema: { type: 'integer', minimum: 0 } },
  Skip: { name: 'skip', in: 'query', description: 'Leave out the first this many.', schema: { type: 'integer', minimum: 0 } },
  Sort: {
    name: 'sort',
    in: 'query',
    description:
      '`f1:1,f2:-1` (1 ascending, -1 descending; missing values first ascending, last descending). Without `sort`, newest first: `ts` descending, ties by `id` descending, as UNIS HEAD lists (`limit=1` is the newest); that order also breaks the ties of a `sort`. The changes of `since`/`until` are in the order of their last change, oldest first.',
    schema: { type: 'string', pattern: '^[^:,]+:-?1(,[^:,]+:-?1)*$' },
  },
  Unique: { name: 'unique', in: 'query', description: '`true`: one representation per resource id.', schema: { type: 'string', enum: ['', 'true', 'false', '1', '0', 'TRUE', 'FALSE', 'True', 'False'] } },
  Inline: {
    name: 'inline',
    in: 'query',
    description: "UNIS HEAD's switch (any value, also empty): on `/exnodes`, each file gets `extents`, the array of its extents; on every other collection it changes nothing (use `expand`).",
    schema: { type: 'string' },
  },
  Expand: { name: 'expand', in: 'query', description: "Any value, also empty: replace references to this service's resources by those resources' newest representations, one level deep.", schema: { type: 'string' } },
  At: {
    name: 'at',
    in: 'query',
    description: 'Answer as at this instant (µs since the epoch, the unit of `ts`): each resource\'s newest version with `ts` ≤ it, unless it was deleted at or before it; conditions, `fields`, `sort`, paging, `unique` and `expand` apply to that state. A resource absent then is a 404. Not with `since`/`until`.',
    schema: { type: 'integer', format: 'int64', minimum: 0 },
  },
  Since: {
    name: 'since',
    in: 'query',
    description: 'With or without `until`: instead of the resources, what changed in (`since`, `until`]: one `{id, change, before, after}` per resource (`created`, `updated` or `deleted`; its representations at both instants), filtered by the conditions against `after` (`before` for a deletion). µs since the epoch; default 0.',
    schema: { type: 'integer', format: 'int64', minimum: 0 },
  },
  Until: { name: 'until', in: 'query', description: 'The end of the interval of `since` (µs since the epoch, included); default: now.', schema: { type: 'integer', format: 'int64', minimum: 0 } },
  Federate: {
    name: 'federate',
    in: 'query',
    description:
      'On a lookup (LOOKUP=true, docs/federation.md): `true` runs the query on every registered instance that may hold a match instead of answering with the redirect, and answers their lists merged (`sort`, `skip` and `limit` over the merged list; every element as its instance answered it), streamed; the instances that failed are named in `Federation-Partial`. Ignored by an instance that is not a lookup.',
    schema: { type: 'string', enum: ['true', '1', 'TRUE', 'True'] },
  },
  LastEventId: { name: 'Last-Event-ID', in: 'header', description: 'With `Accept: text/event-stream`: resume after this event; the missed changes come first.', schema: { type: 'string' } },
  AccessToken: { name: 'access_token', in: 'query', description: 'With `Accept: text/event-stream`, for browsers (EventSource cannot set headers): the bearer token.', schema: { type: 'string' } },
  ConsistencyToken: { name: CONSISTENCY_TOKEN.header, in: 'header', description: CONSISTENCY_TOKEN.sent, schema: { type: 'string' } },
  IfMatch: { name: 'If-Match', in: 'header', description: 'Apply the write only while this ETag is the newest representation\'s (412 otherwise).', schema: { type: 'string' } },
  IfNoneMatch: { name: 'If-None-Match', in: 'header', description: 'Answer 304 while one of these ETags is current.', schema: { type: 'string' } },
  IfNoneMatchCreate: { name: 'If-None-Match', in: 'header', description: '`*`: create only; 412 when a live resource has the id.', schema: { type: 'string', enum: ['*'] } },
  IfModifiedSince: { name: 'If-Modified-Since', in: 'header', description: 'Answer 304 unless the representation changed after this date (without If-None-Match).', schema: { type: 'string' } },
};
