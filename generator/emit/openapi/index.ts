import type { ServerCollectionName } from '../../model/http.js';
import type { Model } from '../../model/model.js';
import { jsonNotice, jsonText, type GeneratedFile } from '../output.js';
import { schemaComponents, type Json } from './components.js';
import { COLLECTION_ENTRY, discoveryPaths } from './discovery.js';
import { MEASUREMENT_SCHEMAS, measurementPaths } from './measurements.js';
import { federationPaths, REDIRECT_SCHEMA, registrationSchema } from './federation.js';
import { headOf, restOperation, type Role } from './operations.js';
import { PARAMETER_COMPONENTS, PARAMETERS } from './parameters.js';
import { errorResponseComponents, HEADERS } from './responses.js';

/**
 * The OpenAPI 3.1 descriptions of the REST interface, built from the model: one transform per
 * object of the description (components.ts: schemas; parameters.ts; responses.ts: from the
 * error table; operations.ts: one per REST action; discovery.ts; measurements.ts). Schemas are copied into
 * `components.schemas` with every `$ref` rewritten to point there, so the description stands
 * alone. The server replaces `servers` with its configured base URL.
 *
 * Two files: `openapi.json`, what every instance serves, and `openapi-lookup.json`, what a
 * lookup (LOOKUP=true) serves, where the resource collections' reads may also answer the
 * lookup's `Redirect` (operations.ts `Role`). The Redirect is described only there, so a client
 * generated from an instance's description reads what it fetched without narrowing it away.
 */
export function emitOpenApi(model: Model): GeneratedFile[] {
  return [
    { path: 'openapi.json', content: jsonText(describe(model, 'instance')) },
    { path: 'openapi-lookup.json', content: jsonText(describe(model, 'lookup')) },
  ];
}

/** The operations of the kinds' collections, as `role` answers them. */
function collectionPaths(model: Model, used: Set<number>, role: Role): Json {
  const paths: Json = {};
  for (const op of model.operations) {
    if (!op.rest) continue;
    const kind = model.kinds.find((k) => k.slug === op.rest!.kind)!;
    const item = (paths[op.rest.path] ??= {}) as Json;
    const operation = restOperation(model, op, kind, used, role);
    item[op.rest.method.toLowerCase()] = operation;
    if (op.rest.method === 'GET') item.head = headOf(operation);
    if (op.rest.path.includes('{id}')) item.parameters = [PARAMETERS.id];
  }
  return paths;
}

/**
 * How each collection the server owns (model/http.ts `SERVER_COLLECTIONS`) is described; `instance`
 * is what an instance describes for the kinds' collections. `/register` is served as on any
 * instance, also by a lookup: made from an instance's `/services`.
 */
const SERVER_COLLECTION_PATHS: { readonly [C in ServerCollectionName]: (model: Model, used: Set<number>, instance: () => Json) => Json } = {
  events: (model, used) => measurementPaths(model, used, 'events'),
  data: (model, used) => measurementPaths(model, used, 'data'),
  register: (_model, _used, instance) => federationPaths(instance()),
};

function describe(model: Model, role: Role): Json {
  const used = new Set<number>();
  const paths = collectionPaths(model, used, role);
  Object.assign(paths, discoveryPaths(model, used));
  const instance = (): Json => (role === 'instance' ? paths : collectionPaths(model, used, 'instance'));
  for (const { segment } of model.http.serverCollections) Object.assign(paths, SERVER_COLLECTION_PATHS[segment](model, used, instance));

  const schemas = schemaComponents(model);
  return {
    ...jsonNotice(model.documents.map((d) => d.file)),
    openapi: '3.1.0',
    info: {
      title: 'topocat topology service',
      version: model.schemaVersion,
      description:
        `Network topology resources in the style of UNIS (the Unified Network Information Service of the Periscope project) as versioned JSON over HTTP. Every write stores a new representation with a new \`ts\` (microseconds); older ones stay readable. Errors have one body (\`ErrorBody\`).${
          role === 'lookup' ? ' This is the description a lookup serves (docs/federation.md): reads of its resource collections answer `Redirect`, or with `federate=true` the merged lists of its instances.' : ''}`,
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
      schemas: { ...schemas, Registration: registrationSchema(schemas.Service as Json), ...(role === 'lookup' ? { Redirect: REDIRECT_SCHEMA } : {}), CollectionEntry: COLLECTION_ENTRY, ...MEASUREMENT_SCHEMAS },
      parameters: PARAMETER_COMPONENTS,
      headers: HEADERS,
      responses: errorResponseComponents(model, used),
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Tokens carry scopes: read (GET, HEAD), create (POST), update (PUT, PATCH), delete (DELETE).' } },
    },
  };
}
