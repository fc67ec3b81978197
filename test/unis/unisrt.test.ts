import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startServer, type RunningServer } from '../helpers/server.js';
import { PSJSON, UNISRT_AIOHTTP, unisrtRequests } from '../helpers/unis-clients.js';
import { wire } from '../helpers/wire.js';

/**
 * UNISrt (periscope-ps/UNISrt@5647648), the runtime under Flange, libdlt, IDMS and the analysis
 * engine, as unis-clients.md §2.1 records it: python-requests for /about and its schema fetches,
 * aiohttp for the rest, `Content-Type` and `Accept` application/perfsonar+json on every call,
 * query strings joined by hand (`_get_conn_args`), updates by re-POST, keep-alive by PUT {"id"}.
 */
/** UnisClient._get_conn_args: `?k=v&…`, lists joined with ",", falsy values dropped. */
function connArgs(path: string, query: Record<string, string | string[] | null | 0>): string {
  const pairs = Object.entries(query).filter(([, v]) => v).map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : v}`);
  return pairs.length > 0 ? `${path}?${pairs.join('&')}` : path;
}

/** The defaults UNISrt gives a model from its schema's properties (models.py `_schemaFactory`). */
function modelDefaults(schema: { properties?: Record<string, { type?: unknown; default?: unknown }>; required?: string[] }): Record<string, unknown> {
  const empty: Record<string, unknown> = { null: null, string: '', boolean: false, number: 0, integer: 0, object: {}, array: [] };
  const defaults: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    const type = property.type ?? 'null';
    // UNISrt looks the type up as one name: a list of types makes it fail.
    assert.equal(typeof type, 'string', `property ${key} has one type name`);
    assert.ok(Object.hasOwn(empty, type as string), `property ${key} has a type UNISrt knows: ${String(type)}`);
    const value = property.default ?? empty[type as string];
    if ((schema.required ?? []).includes(key) || value !== null) defaults[key] = value;
  }
  delete defaults.$schema;
  return defaults;
}

describe('UNIS clients: UNISrt', function () {
  let server: RunningServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.stop();
  });

  it('runs its flow: /about, discovery and schemas, stubs, insert, load, update by re-POST, touch, delete', async () => {
    const url = server.url;
    // Runtime(url): the instance's uid, or Runtime() fails.
    const about = await wire(url, { method: 'GET', target: '/about', headers: unisrtRequests(PSJSON, [['Content-Type', PSJSON]]) });
    assert.equal(about.status, 200, about.text);
    assert.equal(typeof about.body.uid, 'string');

    // addSources: the root lists the collections; each schema is fetched by URL and made a class.
    const root = await wire(url, { method: 'GET', target: '/', headers: UNISRT_AIOHTTP });
    assert.equal(root.status, 200);
    const collections = new Map<string, string>();
    for (const entry of root.body as { href: string; targetschema: { items: { href: string } } }[]) {
      collections.set(new URL(entry.href).pathname.split('/')[1]!, entry.targetschema.items.href);
    }
    assert.ok(['nodes', 'ports', 'measurements', 'exnodes', 'extents'].every((c) => collections.has(c)));
    const classes = new Map<string, Record<string, unknown>>();
    const getClass = async (schemaUri: string): Promise<Record<string, unknown>> => {
      const known = classes.get(schemaUri);
      if (known) return known;
      // requests.get(schema_uri): the fragment stays on the client.
      const target = new URL(schemaUri);
      assert.equal(target.origin, url, 'every schema address resolves to this service');
      const fetched = await wire(url, { method: 'GET', target: target.pathname, headers: unisrtRequests('*/*') });
      assert.equal(fetched.status, 200, schemaUri);
      const schema = fetched.body as { id: string; name: string; allOf?: { $ref: string }[] } & Parameters<typeof modelDefaults>[0];
      assert.equal(schema.id, schemaUri.endsWith('#') ? schemaUri : `${schemaUri}#`);
      assert.equal(typeof schema.name, 'string');
      for (const parent of schema.allOf ?? []) await getClass(parent.$ref);
      modelDefaults(schema);
      classes.set(schemaUri, schema);
      return schema;
    };
    for (const schemaUri of collections.values()) await getClass(schemaUri);

    // Each collection's stubs, one per resource.
    const stubs = await wire(url, { method: 'GET', target: connArgs('/nodes', { fields: 'selfRef', unique: 'true' }), headers: UNISRT_AIOHTTP });
    assert.equal(stubs.status, 200);
    assert.deepEqual(stubs.body, []);

    // insert + flush: one POST of an array, client ids and selfRefs, the 20160630 schema, no ts.
    const nodeSchema = (await getClass(collections.get('nodes')!)) as Parameters<typeof modelDefaults>[0];
    const ids = [randomUUID(), randomUUID()];
    const records = ids.map((id, i) => ({
      ...modelDefaults(nodeSchema),
      id,
      selfRef: `${url}/nodes/${id}`,
      $schema: 'http://unis.crest.iu.edu/schema/20160630/node#',
      name: `rt-node-${i}`,
    }));
    const posted = await wire(url, { method: 'POST', target: '/nodes', headers: UNISRT_AIOHTTP, body: JSON.stringify(records) });
    assert.ok(posted.status >= 200 && posted.status < 300, posted.text);
    const answered = posted.body as { id: string; selfRef: string; ts: number; $schema: string }[];
    for (const id of ids) {
      const match = answered.find((o) => o.id === id);
      assert.ok(match, `answer holds ${id}`);
      assert.equal(match.selfRef, `${url}/nodes/${id}`);
      // The pub/sub callback and later fetches need `$schema` to name a class the runtime has:
      // the address it sent, kept as sent (rest-contract §2, revised 2026-11-26).
      assert.equal(match.$schema, 'http://unis.crest.iu.edu/schema/20160630/node#');
    }

    // load: `?id=a,b` (skip=0 and limit=None are dropped as falsy).
    const loaded = await wire(url, { method: 'GET', target: connArgs('/nodes', { id: ids, skip: 0, limit: null }), headers: UNISRT_AIOHTTP });
    assert.deepEqual((loaded.body as { id: string }[]).map((o) => o.id).sort(), [...ids].sort());

    // change + flush: the same id POSTed again is a new version.
    const changed = { ...records[0], name: 'rt-node-0-renamed', description: 'changed' };
    const update = await wire(url, { method: 'POST', target: '/nodes', headers: UNISRT_AIOHTTP, body: JSON.stringify([changed]) });
    assert.ok(update.status >= 200 && update.status < 300, update.text);
    const afterUpdate = (await wire(url, { method: 'GET', target: `/nodes/${ids[0]}`, headers: UNISRT_AIOHTTP })).body;
    assert.equal(afterUpdate.name, 'rt-node-0-renamed');
    assert.ok(afterUpdate.ts > answered.find((o) => o.id === ids[0])!.ts);

    // touch: PUT {"id"} keeps the record and renews ts.
    const touched = await wire(url, { method: 'PUT', target: `/nodes/${ids[0]}`, headers: UNISRT_AIOHTTP, body: JSON.stringify({ id: ids[0] }) });
    assert.ok(touched.status >= 200 && touched.status < 300, touched.text);
    const afterTouch = (await wire(url, { method: 'GET', target: `/nodes/${ids[0]}`, headers: UNISRT_AIOHTTP })).body;
    assert.equal(afterTouch.name, 'rt-node-0-renamed');
    assert.equal(afterTouch.description, 'changed');
    assert.ok(afterTouch.ts > afterUpdate.ts);

    // delete: any 2xx.
    const deleted = await wire(url, { method: 'DELETE', target: `/nodes/${ids[1]}`, headers: UNISRT_AIOHTTP });
    assert.ok(deleted.status >= 200 && deleted.status < 300, deleted.text);
    const remaining = await wire(url, { method: 'GET', target: connArgs('/nodes', { fields: 'selfRef', unique: 'true' }), headers: UNISRT_AIOHTTP });
    assert.deepEqual(remaining.body, [{ selfRef: `${url}/nodes/${ids[0]}` }]);
  });

  it('inserts exnodes and extents as libdlt does, under the exnode/6 schemas', async () => {
    const url = server.url;
    const exnode = { id: randomUUID(), $schema: 'http://unis.crest.iu.edu/schema/exnode/6/exnode#', name: 'data.tif', size: 2048, mode: 'file', created: 1_600_000_000, modified: 1_600_000_000, parent: null, extents: [] };
    const extents = [0, 1].map((i) => ({
      id: randomUUID(),
      $schema: 'http://unis.crest.iu.edu/schema/exnode/6/extent#',
      location: `ibp://depot${i}.example.net:6714`,
      size: 1024,
      offset: 1024 * i,
      index: i,
      parent: { href: `${url}/exnodes/${exnode.id}`, rel: 'full' },
    }));
    for (const [collection, body] of [['exnodes', [exnode]], ['extents', extents]] as const) {
      const answer = await wire(url, { method: 'POST', target: `/${collection}`, headers: UNISRT_AIOHTTP, body: JSON.stringify(body) });
      assert.ok(answer.status >= 200 && answer.status < 300, answer.text);
    }
    const found = await wire(url, { method: 'GET', target: connArgs('/extents', { 'parent.href': `${url}/exnodes/${exnode.id}` }), headers: UNISRT_AIOHTTP });
    assert.equal((found.body as unknown[]).length, 2);
    // UNISrt matches resources to collections by the schema `name`: UNIS's own names.
    const schema = (await wire(url, { method: 'GET', target: '/schema/20120709/exnode', headers: unisrtRequests('*/*') })).body;
    assert.equal(schema.name, 'eXnode');
  });
});
