import { pointerJoin } from '../errors.js';
import type { Kind, Model, Operation, SchemaDocument } from '../model/model.js';
import type { References } from '../model/refs.js';
import { jsonNotice, jsonText, type GeneratedFile } from './output.js';

type Json = Record<string, unknown>;

const MEDIA = 'application/topology+json';
const ERROR_REF = { $ref: '#/components/schemas/ErrorBody' };

/**
 * The OpenAPI 3.1 description of the REST interface, built from the model's operations.
 * Schemas are copied into `components.schemas` with every `$ref` rewritten to point there, so
 * the description stands alone. The server replaces `servers` with its configured base URL.
 */
export function emitOpenApi(model: Model): GeneratedFile[] {
  const schemas: Json = {};
  for (const document of model.documents) schemas[document.typeName] = componentSchema(document, model.refs);
  schemas.ErrorBody = ERROR_BODY;

  const paths: Json = {};
  for (const op of model.operations) {
    if (!op.rest) continue;
    const kind = model.kinds.find((k) => k.slug === op.rest!.kind)!;
    const item = (paths[op.rest.path] ??= {}) as Json;
    item[op.rest.method.toLowerCase()] = operationObject(op, kind);
    if (op.rest.path.includes('{id}')) item.parameters = [ID_PARAMETER];
  }
  paths['/'] = { get: { operationId: 'listCollections', summary: 'The collections and their schema addresses', responses: { 200: { description: 'Collections', content: { 'application/json': { schema: COLLECTIONS } } } } } };
  paths['/health'] = { get: { operationId: 'health', summary: 'Answers 200 when the storage answers', responses: { 200: { description: 'Healthy' }, 503: errorResponse('Storage unavailable') } } };

  const document = {
    ...jsonNotice(model.documents.map((d) => d.file)),
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'topocat topology service',
      version: model.schemaVersion,
      description: 'Network topology resources (UNIS lineage) as versioned JSON over HTTP. Every write stores a new representation with a new `ts` (microseconds).',
    },
    servers: [{ url: 'http://127.0.0.1:8080' }],
    security: [{}, { bearer: [] }],
    paths,
    components: {
      schemas,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Tokens carry scopes read, create, update and delete.' } },
    },
  };
  return [{ path: 'openapi.json', content: jsonText(document) }];
}

function operationObject(op: Operation, kind: Kind): Json {
  const ref = { $ref: `#/components/schemas/${kind.typeName}` };
  const resource = { content: { [MEDIA]: { schema: ref }, 'application/json': { schema: ref } } };
  const common = { 401: errorResponse('Credentials missing, unknown or insufficient'), 500: errorResponse('The operation failed; retry') };
  const base = { operationId: op.name, summary: op.summary, tags: [kind.collection] };
  const fieldList = kind.fields.map((f) => `\`${f.path}\``).join(', ');
  switch (op.rest!.action) {
    case 'create':
      return {
        ...base,
        requestBody: {
          required: true,
          content: { [MEDIA]: { schema: { oneOf: [ref, { type: 'array', items: ref }] } } },
        },
        responses: {
          201: {
            description: 'Created. One object answers with `Location`; an array answers with the array of created representations.',
            headers: { Location: { schema: { type: 'string', format: 'uri' } } },
            content: { [MEDIA]: { schema: { oneOf: [ref, { type: 'array', items: ref }] } } },
          },
          400: errorResponse('Validation failed; `details` name JSON pointers (prefixed by the array index for arrays)'),
          409: errorResponse('A live resource has that id'),
          413: errorResponse('Body or array over the limit'),
          415: errorResponse('Unsupported Content-Type'),
          ...common,
        },
      };
    case 'list':
      return {
        ...base,
        description: `Conditions use the query language on any field (${fieldList}).`,
        parameters: [CONDITIONS, FIELDS, LIMIT, SKIP, SORT],
        responses: {
          200: { description: 'Array of current representations, streamed', content: { [MEDIA]: { schema: { type: 'array', items: ref } } } },
          400: errorResponse('Malformed query; the message names the parameter'),
          406: errorResponse('Unsatisfiable Accept'),
          ...common,
        },
      };
    case 'read':
      return {
        ...base,
        description: 'Without conditions: the newest representation (or the one with `ts`). With conditions: the matching representations of this resource, current and older, newest first.',
        parameters: [TS, CONDITIONS, FIELDS, { name: 'If-None-Match', in: 'header', schema: { type: 'string' } }],
        responses: {
          200: {
            description: 'The representation (an object), or an array when conditions are given',
            headers: { ETag: { schema: { type: 'string' } }, 'Last-Modified': { schema: { type: 'string' } } },
            content: { [MEDIA]: { schema: { oneOf: [ref, { type: 'array', items: ref }] } } },
          },
          304: { description: 'The cached representation is current' },
          400: errorResponse('Malformed query'),
          404: errorResponse('No resource with that id (or no version with that ts)'),
          406: errorResponse('Unsatisfiable Accept'),
          ...common,
        },
      };
    case 'replace':
      return {
        ...base,
        parameters: [IF_MATCH],
        requestBody: { required: true, ...resource },
        responses: {
          201: { description: 'The new representation', headers: { Location: { schema: { type: 'string', format: 'uri' } } }, ...resource },
          400: errorResponse('Validation failed, or the body id differs from the path'),
          404: errorResponse('No resource with that id'),
          409: errorResponse('A representation with the body `ts` exists already'),
          412: errorResponse('If-Match does not match the newest representation'),
          413: errorResponse('Body over the limit'),
          415: errorResponse('Unsupported Content-Type'),
          ...common,
        },
      };
    case 'patch':
      return {
        ...base,
        parameters: [IF_MATCH],
        requestBody: { required: true, content: { 'application/merge-patch+json': { schema: { type: 'object' } } } },
        responses: {
          200: { description: 'The patched representation, stored as a new version', ...resource },
          400: errorResponse('The patched resource failed validation'),
          404: errorResponse('No resource with that id'),
          412: errorResponse('If-Match does not match the newest representation'),
          415: errorResponse('Unsupported Content-Type'),
          ...common,
        },
      };
    case 'remove':
      return {
        ...base,
        parameters: [IF_MATCH],
        responses: {
          204: { description: 'Deleted; older representations stay stored' },
          404: errorResponse('No resource with that id'),
          412: errorResponse('If-Match does not match the newest representation'),
          ...common,
        },
      };
  }
}

/** A document as a component: no `$id`, every `$ref` pointing into `components.schemas`. */
function componentSchema(document: SchemaDocument, refs: References): Json {
  const rewrite = (value: unknown, at: string): unknown => {
    if (Array.isArray(value)) return value.map((item, i) => rewrite(item, pointerJoin(at, i)));
    if (value === null || typeof value !== 'object') return value;
    const copy: Json = {};
    for (const [key, child] of Object.entries(value)) {
      if (key === '$id' || key === '$schema' || key === 'tsType') continue;
      if (key === '$ref' && typeof child === 'string') {
        const target = refs.at(document, at);
        copy.$ref = `#/components/schemas/${target.document.typeName}${target.pointer}`;
      } else {
        copy[key] = rewrite(child, pointerJoin(at, key));
      }
    }
    return copy;
  };
  return rewrite(document.json, '') as Json;
}

function errorResponse(description: string): Json {
  return { description, content: { 'application/json': { schema: ERROR_REF } } };
}

const ERROR_BODY = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['status', 'message'],
      properties: {
        status: { type: 'integer' },
        message: { type: 'string' },
        details: {
          type: 'array',
          items: { type: 'object', required: ['path', 'message'], properties: { path: { type: 'string', description: 'JSON pointer' }, message: { type: 'string' } } },
        },
        requestId: { type: 'string' },
      },
    },
  },
};

const COLLECTIONS = {
  type: 'object',
  properties: {
    collections: {
      type: 'array',
      items: { type: 'object', properties: { name: { type: 'string' }, href: { type: 'string' }, schema: { type: 'string' } } },
    },
  },
};

const ID_PARAMETER = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const TS = { name: 'ts', in: 'query', description: 'Select the representation with this timestamp (µs).', schema: { type: 'integer' } };
const FIELDS = { name: 'fields', in: 'query', description: 'Comma-separated field paths to return.', schema: { type: 'string' } };
const LIMIT = { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 0 } };
const SKIP = { name: 'skip', in: 'query', schema: { type: 'integer', minimum: 0 } };
const SORT = { name: 'sort', in: 'query', description: '`f1:1,f2:-1` (1 ascending, -1 descending); default order is by ts.', schema: { type: 'string' } };
const IF_MATCH = { name: 'If-Match', in: 'header', description: 'Make the write conditional on this ETag.', schema: { type: 'string' } };
const CONDITIONS = {
  name: 'conditions',
  in: 'query',
  style: 'form',
  explode: true,
  description:
    'Query conditions, one parameter per field in dot notation: `a=v`, `a=v1,v2` (IN), `a=lt=v` (also lte, gt, gte), typed values `number:5`, `integer:5`, `boolean:true`, `string:5`; repeated keys AND; `a=v|b=w` ORs terms in one parameter.',
  schema: { type: 'object', additionalProperties: { type: 'string' } },
};
