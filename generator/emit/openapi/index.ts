import type { Model } from '../../model/model.js';
import { jsonNotice, jsonText, type GeneratedFile } from '../output.js';
import { schemaComponents, type Json } from './components.js';
import { COLLECTION_ENTRY, discoveryPaths } from './discovery.js';
import { MEASUREMENT_SCHEMAS, measurementPaths } from './measurements.js';
import { federationPaths, REDIRECT_SCHEMA, registrationSchema } from './federation.js';
import { headOf, restOperation } from './operations.js';
import { PARAMETER_COMPONENTS, PARAMETERS } from './parameters.js';
import { errorResponseComponents, HEADERS } from './responses.js';

/**
 * The OpenAPI 3.1 description of the REST interface, built from the model: one transform per
 * object of the description (components.ts: schemas; parameters.ts; responses.ts: from the
 * error table; operations.ts: one per REST action; discovery.ts; measurements.ts). Schemas are copied into
 * `components.schemas` with every `$ref` rewritten to point there, so the description stands
 * alone. The server replaces `servers` with its configured base URL.
 */
export function emitOpenApi(model: Model): GeneratedFile[] {
  const used = new Set<number>();
  const paths: Json = {};
  for (const op of model.operations) {
    if (!op.rest) continue;
    const kind = model.kinds.find((k) => k.slug === op.rest!.kind)!;
    const item = (paths[op.rest.path] ??= {}) as Json;
    const operation = restOperation(model, op, kind, used);
    item[op.rest.method.toLowerCase()] = operation;
    if (op.rest.method === 'GET') item.head = headOf(operation);
    if (op.rest.path.includes('{id}')) item.parameters = [PARAMETERS.id];
  }
  Object.assign(paths, discoveryPaths(model, used));
  Object.assign(paths, measurementPaths(model, used));
  Object.assign(paths, federationPaths(paths));

  const schemas = schemaComponents(model);
  const document = {
    ...jsonNotice(model.documents.map((d) => d.file)),
    openapi: '3.1.0',
    info: {
      title: 'topocat topology service',
      version: model.schemaVersion,
      description:
        'Network topology resources in the style of UNIS (the Unified Network Information Service of the Periscope project) as versioned JSON over HTTP. Every write stores a new representation with a new `ts` (microseconds); older ones stay readable. Errors have one body (`ErrorBody`).',
      license: { name: model.project.license, identifier: model.project.license },
    },
    servers: [{ url: 'http://127.0.0.1:8080', description: 'The default address; a server answers with its own PUBLIC_URL here.' }],
    security: [{}, { bearer: [] }],
    tags: [
      { name: 'discovery', description: 'Finding the collections, the schemas and this description.' },
      ...model.kinds.map((k) => ({ name: k.collection, description: `${k.name} resources (schema \`${k.file}\`).` })),
      { name: 'measurement store', description: 'UNIS\'s measurement store: series of data points of metadata resources (`/events`, `/data`).' },
      { name: 'federation', description: 'Instances that register with a lookup (`/register`, docs/federation.md).' },
    ],
    paths,
    components: {
      schemas: { ...schemas, Registration: registrationSchema(schemas.Service as Json), Redirect: REDIRECT_SCHEMA, CollectionEntry: COLLECTION_ENTRY, ...MEASUREMENT_SCHEMAS },
      parameters: PARAMETER_COMPONENTS,
      headers: HEADERS,
      responses: errorResponseComponents(model, used),
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Tokens carry scopes: read (GET, HEAD), create (POST), update (PUT, PATCH), delete (DELETE).' } },
    },
  };
  return [{ path: 'openapi.json', content: jsonText(document) }];
}
