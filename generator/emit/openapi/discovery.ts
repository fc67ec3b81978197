import type { Model } from '../../model/model.js';
import type { Json } from './components.js';
import { errors, header } from './responses.js';

const json = (schema: Json): Json => ({ content: { 'application/json': { schema } } });
const html = { 'text/html': { schema: { type: 'string' } } };
const tags = ['discovery'];
const open = { security: [{}] };
/** The service's version (package.json's), in /health and /about. */
const version = { type: 'string', description: 'The version of topocat serving the request (its package.json), e.g. 0.1.0' };

/** /health's body: with standbys (DATABASE_READ_URLS), how each is; a standby that fails is read around, never a failure of the service. */
const HEALTH = {
  type: 'object',
  required: ['status', 'version'],
  properties: {
    status: { const: 'ok' },
    version,
    standbys: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'status', 'lagBytes', 'lagSeconds'],
        properties: {
          name: { type: 'string', description: 'host:port/database' },
          status: { enum: ['ok', 'unavailable'] },
          lagBytes: { type: 'integer', format: 'int64', description: 'WAL bytes the primary had that it had not replayed, at the last look' },
          lagSeconds: { type: 'number', description: 'Seconds since its last replayed commit while it has WAL left to replay (0 when caught up)' },
        },
      },
    },
  },
};

/** The paths the service answers besides the collections: what a client needs to find its way. */
export function discoveryPaths(model: Model, used: Set<number>): Json {
  const requestId = { 'X-Request-Id': header('XRequestId') };
  return {
    '/': {
      get: {
        operationId: 'listCollections',
        summary: 'The collections, in UNIS\'s shape (an HTML page linking the API reference for a browser); with `Accept: text/event-stream`, the changes of every collection in one stream',
        description: 'The list and the page are open. The event stream needs the `read` scope when tokens are configured; its events are `id: <event id>`, `event: POST | PUT | DELETE`, `data: <UNIS\'s frame {"headers": {"action", "collection", "id"}, "data"}>`, and a reconnect with `Last-Event-ID` first receives what it missed.',
        tags,
        ...open,
        parameters: [
          { name: 'collections', in: 'query', description: 'With `Accept: text/event-stream`: the collections to follow, comma-separated (all by default).', schema: { type: 'string' }, example: 'nodes,ports,links' },
          { $ref: '#/components/parameters/LastEventId' },
          { $ref: '#/components/parameters/AccessToken' },
        ],
        responses: {
          200: {
            description: 'Each collection\'s address and its kind\'s schema address; or the event stream',
            headers: requestId,
            content: {
              'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/CollectionEntry' } } },
              ...html,
              'text/event-stream': { schema: { type: 'string', description: 'Server-Sent Events whose data is UNIS\'s frame of each change' } },
            },
          },
          ...errors(model, [400, 401, 500, 503], used),
        },
      },
    },
    '/about': {
      get: {
        operationId: 'about',
        summary: 'The service\'s identity, as UNIS answers it',
        tags,
        ...open,
        responses: {
          200: {
            description: 'A uid that stays the same for the database',
            headers: requestId,
            ...json({ type: 'object', required: ['uid', 'haschild', 'depth', 'version'], properties: { uid: { type: 'string', format: 'uuid' }, haschild: { type: 'boolean' }, depth: { type: 'integer' }, version } }),
          },
          ...errors(model, [500, 503], used),
        },
      },
    },
    '/health': {
      get: {
        operationId: 'health',
        summary: 'Answers 200 when the storage answers (with standbys: the primary; each standby is a detail)',
        tags,
        ...open,
        responses: { 200: { description: 'Healthy', headers: requestId, ...json(HEALTH) }, ...errors(model, [500, 503], used) },
      },
    },
    '/metrics': {
      get: {
        operationId: 'metrics',
        summary: 'Metrics in the Prometheus text format (docs/operating.md); with tokens, for credentials with the metrics scope. Absent with METRICS=false',
        tags,
        responses: {
          200: { description: 'The metrics of the service (of every worker, with --workers N)', headers: requestId, content: { 'text/plain': { schema: { type: 'string' } } } },
          ...errors(model, [401, 404, 500, 503], used),
        },
      },
    },
    '/openapi.json': {
      get: { operationId: 'openapi', summary: 'This description', tags, ...open, responses: { 200: { description: 'The OpenAPI 3.1 description', headers: requestId, ...json({ type: 'object' }) } } },
    },
    '/docs': {
      get: { operationId: 'docs', summary: 'An interactive reference of this description, for a browser', tags, ...open, responses: { 200: { description: 'An HTML page', headers: requestId, content: html } } },
    },
    '/docs/{asset}': {
      get: {
        operationId: 'docsAsset',
        summary: 'A file of the reference page (Swagger UI\'s script, style sheet and icon)',
        tags,
        ...open,
        parameters: [{ name: 'asset', in: 'path', required: true, schema: { type: 'string', enum: ['start.js', 'swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png'] } }],
        responses: {
          200: { description: 'The file', headers: requestId, content: { 'text/javascript': { schema: { type: 'string' } }, 'text/css': { schema: { type: 'string' } }, 'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } } } },
          ...errors(model, [404], used),
        },
      },
    },
    '/ui': {
      get: { operationId: 'ui', summary: 'A live picture of the topology, for a browser (docs/ui.md)', tags, ...open, responses: { 200: { description: 'An HTML page', headers: requestId, content: html }, 304: { description: 'Not modified (If-None-Match)' } } },
    },
    '/ui/{asset}': {
      get: {
        operationId: 'uiAsset',
        summary: 'A file of the topology picture (its script and style sheet)',
        tags,
        ...open,
        parameters: [{ name: 'asset', in: 'path', required: true, schema: { type: 'string', enum: ['app.js', 'app.css'] } }],
        responses: {
          200: { description: 'The file', headers: requestId, content: { 'text/javascript': { schema: { type: 'string' } }, 'text/css': { schema: { type: 'string' } } } },
          304: { description: 'Not modified (If-None-Match)' },
          ...errors(model, [404], used),
        },
      },
    },
    [`/schema/${model.schemaVersion}/{slug}`]: {
      get: {
        operationId: 'schema',
        summary: 'A schema document at its address (when SCHEMA_BASE lies under PUBLIC_URL, as by default)',
        tags,
        ...open,
        parameters: [{ name: 'slug', in: 'path', required: true, description: 'The schema file name, e.g. `node`.', schema: { type: 'string', enum: model.documents.map((d) => d.slug) } }],
        responses: { 200: { description: 'The JSON Schema (2020-12)', headers: requestId, content: { 'application/schema+json': { schema: { type: 'object' } } } }, ...errors(model, [404], used) },
      },
    },
  };
}

export const COLLECTION_ENTRY: Json = {
  type: 'object',
  description: 'One collection as `GET /` lists it.',
  required: ['href', 'rel', 'targetschema'],
  properties: {
    href: { type: 'string', format: 'uri', description: 'The collection\'s address.' },
    rel: { const: 'full' },
    targetschema: {
      type: 'object',
      required: ['type', 'items'],
      properties: {
        type: { const: 'array' },
        items: { type: 'object', required: ['rel', 'href'], properties: { rel: { const: 'full' }, href: { type: 'string', format: 'uri', description: 'The kind\'s schema address.' } } },
      },
    },
  },
};
