import type { Json } from './components.js';

/**
 * `/register` (rest-contract §13): the operations of `/services` on registrations, which are
 * `service` representations keyed by their accessPoint; a collection the server owns
 * (model/http.ts SERVER_COLLECTIONS, bound by server/collections.ts), so it is described here
 * from the service collection's as an instance serves it (`paths`: an instance's, which
 * describe no Redirect).
 */
export function federationPaths(paths: Json): Json {
  const out: Json = {};
  for (const [from, to] of [['/services', '/register'], ['/services/{id}', '/register/{id}']] as const) {
    const item = paths[from] as Json | undefined;
    if (!item) continue;
    // `/register` is served as on any instance, also by a lookup: no redirect, no `federate`.
    const text = JSON.stringify(item)
      .replaceAll('"#/components/schemas/Service"', '"#/components/schemas/Registration"')
      .replaceAll('{"$ref":"#/components/parameters/Federate"},', '')
      .replaceAll(',"Federation-Partial":{"$ref":"#/components/headers/FederationPartial"}', '')
      .replace(/\. A lookup [^"]*/g, '');
    const copy = JSON.parse(text) as Json;
    for (const operation of Object.values(copy)) {
      if (operation === null || typeof operation !== 'object' || Array.isArray(operation)) continue;
      const op = operation as Json;
      if (typeof op.operationId === 'string') op.operationId = op.operationId.replace(/Services?/, (s) => (s === 'Services' ? 'Registrations' : 'Registration'));
      op.tags = ['federation'];
      // A lookup takes registrations: only its resource collections answer writes with 405.
      if (op.responses !== null && typeof op.responses === 'object') delete (op.responses as Json)['405'];
    }
    const post = copy.post as Json | undefined;
    if (post) post.description = 'Register an instance (or report it again): a registration for an accessPoint already registered is a new version of it. Needs the `register` scope when tokens are configured.';
    out[to] = copy;
  }
  return out;
}

/** A registration: a Service whose `properties.summary` is UNIS's array of manifests, with an accessPoint. */
export function registrationSchema(service: Json): Json {
  const copy = JSON.parse(JSON.stringify(service)) as Json;
  copy.title = 'Registration';
  copy.description = 'An instance registered with a lookup (docs/federation.md): its accessPoint (an http or https URL, the key of its registration), communities and manifests.';
  delete copy['x-collection'];
  const properties = copy.properties as Json;
  properties.communities = { type: 'array', items: { type: 'string' }, description: 'Community labels (UNISrt `from_community`).' };
  const inner = (properties.properties as Json).properties as Json;
  inner.depth = { type: 'integer', description: 'How many lookup levels are below the instance: 0 for a leaf.' };
  inner.summary = {
    type: 'array',
    description: 'One manifest per collection: the value sets of each flattened field, or "*" past the configured size.',
    items: {
      type: 'object',
      required: ['$collection', 'properties'],
      properties: {
        $collection: { type: 'string' },
        properties: { type: 'object', additionalProperties: { oneOf: [{ type: 'array', items: {} }, { const: '*' }] } },
      },
    },
  };
  copy.required = ['accessPoint'];
  return copy;
}

/** A lookup's answer to a collection query (rest-contract §13, UNIS's form). */
export const REDIRECT_SCHEMA: Json = {
  title: 'Redirect',
  description:
    "A lookup's answer to `GET /<collection>?<query>` (LOOKUP=true, docs/federation.md): the accessPoints of the unexpired registered instances whose manifests may hold a match. A lookup with no registration at all answers `[]`, as UNIS does.",
  type: 'object',
  required: ['redirect', 'instances'],
  additionalProperties: false,
  properties: {
    redirect: { const: true },
    instances: { type: 'array', items: { type: 'string', format: 'uri' } },
  },
};
