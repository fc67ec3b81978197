import { ACTION_STATUSES, ALWAYS, CONSISTENCY_TOKEN, MEDIA_TYPES, RESOURCE_MEDIA_TYPES } from '../../model/http.js';
import type { Kind, Model, Operation } from '../../model/model.js';
import { ref, type Json } from './components.js';
import { PARAMETERS } from './parameters.js';
import { errors, header } from './responses.js';

const content = (schema: Json, media: readonly string[] = RESOURCE_MEDIA_TYPES): Json => ({ content: Object.fromEntries(media.map((m) => [m, { schema }])) });

/** `Accept: text/event-stream`: the changes the query selects, as they are committed (Server-Sent Events). */
const STREAM: Json = {
  type: 'string',
  description: 'Events `id: <event id>`, `event: POST | PUT | DELETE`, `data: <the stored representation, or {"id"} for a deletion>`; a reconnect with `Last-Event-ID` first receives what it missed.',
};

/**
 * The answers whose shape the request chooses (the query, `Accept`), listed beside a response
 * by what makes them, with their schemas: OpenAPI cannot make a response's schema depend on the
 * query. The response's `content` keeps the answer of the plain request, so that a client
 * generated from it types a plain read as the resource: openapi-typescript 7.13 turns a
 * `content` schema into one union, and openapi-fetch 0.17 answers the union of every media
 * type's schema as `data` (a `text/event-stream` entry, with or without a schema, adds `string`
 * or `unknown` to it). The project's answer checker (test/helpers/openapi.ts) reads this list,
 * so every answer the tests see is still checked against a schema.
 * `when.query`: one of these parameters is given (`conditions` stands for any condition on a
 * field); `when.accept`: `unis` for a request in UNIS form, or the media type asked for, which
 * then is the answer's (`media`).
 */
export const ANSWERS = 'x-topocat-answers';
interface Answer {
  readonly when: { readonly query?: readonly string[]; readonly accept?: string };
  readonly media?: string;
  readonly description: string;
  readonly schema: Json;
}
const EVENTS: Answer = {
  when: { accept: MEDIA_TYPES.eventStream },
  media: MEDIA_TYPES.eventStream,
  description: 'The changes, as they happen (Server-Sent Events)',
  schema: STREAM,
};
const oneOrMany = (schema: Json): Json => ({ oneOf: [schema, { type: 'array', items: schema }] });

/** One entry of `since`/`until`: a resource that changed between two instants, and its representations at both. */
const changeBetween = (shown: Json): Json => ({
  type: 'object',
  required: ['id', 'change', 'before', 'after'],
  additionalProperties: false,
  properties: {
    id: { type: 'string' },
    change: { type: 'string', enum: ['created', 'updated', 'deleted'] },
    before: { anyOf: [shown, { type: 'null' }], description: 'The representation at `since`; null when it had none (created).' },
    after: { anyOf: [shown, { type: 'null' }], description: 'The representation at `until`; null when it had none (deleted).' },
  },
});

/** A lookup's answer (rest-contract §13): the instances that may hold a match. */
const REDIRECT = ref('Redirect');

/**
 * Who serves the description (docs/federation.md): any instance (generated/openapi.json), or a
 * lookup (LOOKUP=true: generated/openapi-lookup.json), whose resource collections' reads may
 * answer a `Redirect`. Only the lookup's description says so, so that a client generated from an
 * instance's reads a node it fetched without narrowing a Redirect away.
 */
export type Role = 'instance' | 'lookup';

/** The OpenAPI operation of one REST operation of the model, and, for GETs, its HEAD twin. */
export function restOperation(model: Model, op: Operation, kind: Kind, used: Set<number>, role: Role): Json {
  const lookup = role === 'lookup';
  /** A list's answer, and on a lookup its Redirect besides. */
  const orRedirect = (schema: Json): Json => (lookup ? { anyOf: [schema, REDIRECT] } : schema);
  const full = ref(kind.typeName);
  const shown = { anyOf: [full, ref(`${kind.typeName}Projection`)] };
  const base = { operationId: op.name, summary: op.summary, tags: [kind.collection] };
  const validators = { ETag: header('ETag'), 'Last-Modified': header('LastModified'), 'X-Request-Id': header('XRequestId') };
  /** What every write answer carries besides (rest-contract §15). */
  const written = { [CONSISTENCY_TOKEN.header]: header('ConsistencyToken') };
  const { action } = op.rest!;
  // The action's statuses (generator/model/http.ts): its success, and the errors it may answer besides ALWAYS.
  const { success, unisForm } = ACTION_STATUSES[action];
  const failures = errors(model, [...ACTION_STATUSES[action].errors, ...ALWAYS].sort(), used);
  /** The action's description, followed by what UNIS's clients are answered otherwise. */
  const described = (text?: string): { description: string } | Record<string, never> => {
    const parts = [text, unisForm].filter((part) => part !== undefined);
    return parts.length > 0 ? { description: parts.join(' ') } : {};
  };
  switch (action) {
    case 'create':
      return {
        ...base,
        ...described('One object, or an array stored all or nothing. A POST of a live id stores a new version of it; one whose `id` and `ts` equal a stored version is a replay (409).'),
        parameters: PARAMETERS.create,
        // Containers take whole resources in their embeddable arrays (composite insert).
        requestBody: { required: true, ...content(oneOrMany(kind.embeds.length > 0 ? ref(`${kind.typeName}Insert`) : full)) },
        responses: {
          [success]: {
            description: 'Created. One object answers with `Location` and its validators; an array with the created representations (in UNIS form, one of one element as that object).',
            headers: { Location: header('Location'), ...validators, ...written },
            ...content(oneOrMany(full)),
          },
          ...failures,
        },
      };
    case 'list':
      return {
        ...base,
        description: `Conditions use the query language on any field (${kind.fields.map((f) => `\`${f.path}\``).join(', ')}).`,
        parameters: PARAMETERS.list,
        responses: {
          [success]: {
            description: `The current representations that match (with \`at\`: those of that instant), streamed, in \`ts\` order unless sorted; with \`since\`/\`until\`, what changed between them; with \`Accept: text/event-stream\`, the changes that match, as they happen (described in \`x-topocat-answers\`)${
              lookup ? '. A lookup (docs/federation.md) answers `Redirect` instead, or with `federate=true` the merged list of its instances' : ''}`,
            headers: { ETag: header('ListETag'), 'X-Request-Id': header('XRequestId'), 'Federation-Partial': header('FederationPartial') },
            ...content(orRedirect({ type: 'array', items: { anyOf: [shown, changeBetween(shown)] } })),
            [ANSWERS]: [EVENTS],
          },
          304: { description: 'Nothing the list could show has changed since the answer that carried this ETag (`If-None-Match`)', headers: { ETag: header('ListETag'), 'X-Request-Id': header('XRequestId') } },
          ...failures,
        },
      };
    case 'read':
      return {
        ...base,
        ...described('Without conditions: the newest representation (or the one with `ts`). With conditions: the matching representations of this resource, current and older, newest first. With `at`: all of this as it was at that instant.'),
        parameters: PARAMETERS.read,
        responses: {
          [success]: {
            description: `The representation (an object). The query and \`Accept\` choose other answers, listed with their schemas in \`x-topocat-answers\`: with \`fields=\`/\`expand\`, a projection; with conditions, an array of versions (\`[]\` for an unknown id in UNIS's form); with \`Accept: text/event-stream\`, the resource's changes, as they happen${
              lookup ? '. A lookup answers `Redirect` (every unexpired instance)' : ''}`,
            headers: validators,
            // The plain read's answer is the resource (a lookup's: or the Redirect); the others are listed beside it.
            ...content(orRedirect(full)),
            [ANSWERS]: [
              { when: { query: ['fields', 'expand', 'inline'] }, description: '`fields=`: only the named members; `expand`: resources in place of the references to them; `inline`: a file\'s extents', schema: shown },
              { when: { query: ['conditions', 'ts'] }, description: 'Conditions (also on `ts`, `?ts=gt=…`): the matching versions, newest first', schema: { type: 'array', items: shown } },
              { when: { accept: 'unis' }, description: "UNIS form: `[]` for an unknown id, and UNIS's arrays", schema: { type: 'array', items: shown } },
              EVENTS,
            ] satisfies Answer[],
          },
          304: { description: 'The cached representation is current', headers: validators },
          ...failures,
        },
      };
    case 'replace':
      return {
        ...base,
        ...described('Stores the body as the new representation. A body with no member besides `id`, `ts`, `$schema` and `selfRef` (a touch) stores the current one again with a new `ts`.'),
        parameters: PARAMETERS.write,
        requestBody: { required: true, ...content(full) },
        responses: {
          [success]: { description: 'The new representation', headers: { Location: header('Location'), ...validators, ...written }, ...content(full) },
          ...failures,
        },
      };
    case 'patch':
      return {
        ...base,
        parameters: PARAMETERS.write,
        requestBody: { required: true, ...content(ref(`${kind.typeName}Patch`), [MEDIA_TYPES.mergePatch, ...RESOURCE_MEDIA_TYPES]) },
        responses: {
          [success]: { description: 'The patched representation, stored as a new version', headers: { ...validators, ...written }, ...content(full) },
          ...failures,
        },
      };
    case 'remove':
      return {
        ...base,
        ...described(),
        parameters: PARAMETERS.write,
        responses: {
          [success]: { description: 'Deleted; older representations stay stored', headers: { 'X-Request-Id': header('XRequestId'), ...written } },
          ...failures,
        },
      };
  }
}

/** HEAD answers wherever GET does, with the same status and headers and no body. */
export function headOf(get: Json): Json {
  const responses = Object.fromEntries(
    Object.entries(get.responses as Record<string, Json>).map(([status, response]) => [status, '$ref' in response ? response : { description: response.description, ...(response.headers ? { headers: response.headers } : {}) }]),
  );
  return { ...get, operationId: `${String(get.operationId)}Head`, summary: `${String(get.summary)} (headers only)`, responses };
}
