import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { get, post } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';

describe('REST discovery: /, /health, /openapi.json and the schemas', function () {
  let server: RunningServer;
  before(async () => {
    server = await startServer({ env: { PUBLIC_URL: 'https://topo.example.org/api' } });
  });
  after(async () => {
    await server.stop();
  });

  it('GET / lists the collections in UNIS\'s shape, with hrefs and schema addresses from PUBLIC_URL', async () => {
    const answer = await get(`${server.url}/`);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.length, 12);
    const nodes = answer.body.find((c: { href: string }) => c.href.endsWith('/nodes'));
    assert.deepEqual(nodes, {
      href: 'https://topo.example.org/api/nodes',
      rel: 'full',
      targetschema: { type: 'array', items: { rel: 'full', href: 'https://topo.example.org/api/schema/20120709/node#' } },
    });
  });

  it('GET /about answers UNIS\'s identity, the same uid every time', async () => {
    const first = await get(`${server.url}/about`);
    assert.equal(first.status, 200);
    assert.match(first.body.uid, /^[0-9a-f-]{36}$/);
    assert.deepEqual(first.body, { uid: first.body.uid, haschild: false, depth: 0, version: first.body.version });
    assert.equal((await get(`${server.url}/about`)).body.uid, first.body.uid);
  });

  it('selfRef and Location come from PUBLIC_URL, never from the Host header', async () => {
    const answer = await post(`${server.url}/nodes`, { name: 'h' }, { host: 'evil.example.com' });
    assert.equal(answer.status, 201);
    assert.equal(answer.body.selfRef, `https://topo.example.org/api/nodes/${answer.body.id}`);
    assert.equal(answer.headers.get('location'), answer.body.selfRef);
  });

  it('GET /health answers 200 while the storage answers', async () => {
    const health = (await get(`${server.url}/health`)).body;
    // In the run with a standby (test/run.ts), how it is.
    const standbys = process.env.TOPOCAT_TEST_READ_URLS ? { standbys: [{ name: health.standbys?.[0]?.name, status: 'ok', lagBytes: health.standbys?.[0]?.lagBytes, lagSeconds: health.standbys?.[0]?.lagSeconds }] } : {};
    assert.deepEqual(health, { status: 'ok', version: health.version, ...standbys });
  });

  it('serves the OpenAPI 3.1 description with every operation and the configured server', async () => {
    const answer = await get(`${server.url}/openapi.json`);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.openapi, '3.1.0');
    assert.deepEqual(answer.body.servers, [{ url: 'https://topo.example.org/api' }]);
    const ids = Object.values(answer.body.paths as Record<string, Record<string, { operationId?: string }>>).flatMap((item) => Object.values(item).map((op) => op.operationId).filter(Boolean));
    // Six operations per collection and HEAD beside each GET (list and read), and the discovery
    // paths: /, /about, /health, /metrics, /openapi.json, /docs, /docs/{asset}, /ui, /ui/{asset}, /schema/…/{slug}; and the
    // measurement store's: /events (POST, GET, HEAD), /events/{mid} (GET, HEAD, DELETE), /data
    // (POST), /data/{mid} (POST, GET, HEAD, DELETE); and /register's eight (docs/federation.md).
    assert.equal(ids.length, 12 * 8 + 10 + 11 + 8);
    assert.ok(ids.includes('createRegistration') && ids.includes('listRegistrations'));
    assert.ok(ids.includes('registerSeries') && ids.includes('appendData') && ids.includes('readData'));
    assert.ok(ids.includes('replaceLink') && ids.includes('listTopologies'));
    // Every $ref resolves inside the document.
    const refs = [...JSON.stringify(answer.body).matchAll(/"\$ref":"#\/([^"]+)"/g)].map((m) => m[1]!);
    assert.ok(refs.length > 50);
    for (const ref of refs) {
      const pointer = ref.split('/');
      let node: unknown = answer.body;
      for (const token of pointer) node = (node as Record<string, unknown>)[token.replace(/~1/g, '/').replace(/~0/g, '~')];
      assert.ok(node, `${ref} resolves`);
    }
  });

  it('serves every integer that holds µs or bytes as an int64: only counts, depths and seconds are left without', async () => {
    const { body } = await get(`${server.url}/openapi.json`);
    const escape = (token: string): string => token.replace(/~/g, '~0').replace(/\//g, '~1');
    const without: string[] = [];
    const walk = (value: unknown, pointer: string): void => {
      if (value === null || typeof value !== 'object') return;
      const schema = value as Record<string, unknown>;
      if (schema.type === 'integer' && schema.format !== 'int64') without.push(pointer);
      for (const [key, child] of Object.entries(schema)) walk(child, `${pointer}/${escape(key)}`);
    };
    walk(body, '');
    // Timestamps and the query parameters that take one (µs), sizes (bytes), capacities (bits/s):
    assert.equal(body.components.schemas.Series.properties.ts.format, 'int64', 'Series.ts');
    for (const parameter of ['At', 'Since', 'Until']) assert.equal(body.components.parameters[parameter].schema.format, 'int64', parameter);
    assert.equal(body.components.parameters.Ts.schema.anyOf[0].format, 'int64', 'Ts');
    for (const [kind, member] of [['NetworkResource', 'ts'], ['Exnode', 'size'], ['Extent', 'offset'], ['Port', 'capacity'], ['Registration', 'ttl']] as const) {
      assert.equal(body.components.schemas[kind].properties[member].format, 'int64', `${kind}.${member}`);
    }
    // What is left is neither µs nor bytes: a new integer must be one of these or an int64.
    const series = '/components/schemas/SeriesSummary/allOf/1/properties';
    const appended = '/components/schemas/DataAppended/properties';
    assert.deepEqual(without.sort(), [
      '/components/headers/RetryAfter/schema', // seconds
      '/components/parameters/Limit/schema', // counts of representations
      '/components/parameters/Skip/schema',
      '/components/schemas/Registration/properties/properties/properties/depth', // lookup levels
      ...['stored', 'series/items/properties/stored', 'series/items/properties/duplicates', 'series/items/properties/expired', 'series/items/properties/dropped'].map((p) => `${appended}/${p}`), // counts of points
      ...['count', 'generic/properties/count', 'generic/properties/max', 'queried/properties/numRecords'].map((p) => `${series}/${p}`),
      '/components/schemas/Series/properties/collection_size', // at most 10^9 points
      '/components/schemas/SeriesRegistration/properties/collection_size',
      '/paths/~1about/get/responses/200/content/application~1json/schema/properties/depth',
    ].sort());
  });

  it('serves a description that is valid against the official OpenAPI 3.1 schema', async () => {
    const result = await new Validator().validate((await get(`${server.url}/openapi.json`)).body);
    assert.deepEqual(result.errors ?? [], []);
    assert.equal(result.valid, true);
  });

  it('serves each kind\'s schema at its address under the base URL, readable by draft-04 clients', async () => {
    const answer = await get(`${server.url}/schema/20120709/link`);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.$schema, 'http://json-schema.org/draft-04/schema#');
    assert.equal(answer.body.$id, 'https://topo.example.org/api/schema/20120709/link');
    // UNISrt builds its classes from id, name and allOf; dlt-web follows allOf[0].$ref.
    assert.equal(answer.body.id, 'https://topo.example.org/api/schema/20120709/link#');
    assert.equal(answer.body.name, 'Link');
    assert.deepEqual(answer.body.allOf, [{ $ref: 'https://topo.example.org/api/schema/20120709/networkresource#' }]);
    assert.equal(answer.body.title, 'Link');
    assert.equal((await get(`${server.url}/schema/20120709/nothing`)).status, 404);
  });
});
