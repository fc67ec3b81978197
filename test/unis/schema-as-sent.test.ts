import assert from 'node:assert/strict';
import { get, patch, post, put } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { SocketClient } from '../helpers/subscribers.js';
import { wire } from '../helpers/wire.js';

/**
 * rest-contract.md §2 (revised 2026-11-26): a `$schema` that names a UNIS address is stored and
 * returned as the client sent it. dlt-web (datalogistics/dlt-web@8eec5b2 `app/routes.js:131-152`)
 * compares every resource's `$schema` with UNIS's 20160630 addresses to decide how to draw it;
 * UNISrt (`unis/rest/unis_client.py`, `models/models.py:516-565`) and libunis-c
 * (`src/unis_registration.c:243-315`) write `http://unis.crest.iu.edu/schema/20160630/<kind>#`.
 */
const UNIS_NODE = 'http://unis.crest.iu.edu/schema/20160630/node#';
const UNIS_PORT = 'http://unis.crest.iu.edu/schema/20160630/port#';

describe('UNIS $schema as the client sent it (rest-contract §2)', function () {
  let server: RunningServer;
  let ours: string;
  before(async () => {
    server = await startServer();
    ours = `${server.url}/schema/20120709/node#`;
  });
  after(async () => {
    await server.stop();
  });

  const sent: [string, { schema: string | undefined; want: (ours: string) => string }][] = [
    ['UNIS 20160630, as UNISrt and libunis-c write it', { schema: UNIS_NODE, want: () => UNIS_NODE }],
    ['UNIS 20120709 under the old host, no #', { schema: 'http://unis.incntre.iu.edu/schema/20120709/node', want: () => 'http://unis.incntre.iu.edu/schema/20120709/node' }],
    ['UNIS over https', { schema: 'https://unis.crest.iu.edu/schema/20151104/node#', want: () => 'https://unis.crest.iu.edu/schema/20151104/node#' }],
    ['none: ours', { schema: undefined, want: (o) => o }],
    ['ours: ours', { schema: 'OURS', want: (o) => o }],
  ];
  for (const [name, { schema, want }] of sent) {
    it(`${name}: in the POST's answer, GET by id (twice), the list, fields=$schema and a query of its versions`, async () => {
      const body = { name: `n${sent.findIndex(([n]) => n === name)}`, ...(schema === undefined ? {} : { $schema: schema === 'OURS' ? ours : schema }) };
      const created = await post(`${server.url}/nodes`, body, { 'content-type': 'application/perfsonar+json' });
      assert.equal(created.status, 201, created.text);
      const expected = want(ours);
      assert.equal(created.body.$schema, expected);
      assert.equal(created.body.selfRef, `${server.url}/nodes/${created.body.id}`);
      for (let i = 0; i < 2; i++) {
        const one = await wire(server.url, { method: 'GET', target: `/nodes/${created.body.id}`, headers: [] });
        assert.equal(one.body.$schema, expected, one.text);
        assert.equal(one.body.selfRef, created.body.selfRef);
        assert.equal(one.body.name, body.name);
        assert.equal((one.text.match(/"\$schema"/g) ?? []).length, 1, 'one $schema member');
      }
      const listed = await get(`${server.url}/nodes?name=${encodeURIComponent(body.name)}`);
      assert.deepEqual(listed.body.map((n: { $schema: string; id: string; selfRef: string }) => [n.$schema, n.id, n.selfRef]), [[expected, created.body.id, created.body.selfRef]]);
      assert.equal((listed.text.match(/"\$schema"/g) ?? []).length, 1);
      const projected = await get(`${server.url}/nodes?name=${encodeURIComponent(body.name)}&fields=$schema,id`);
      assert.deepEqual(projected.body, [{ $schema: expected, id: created.body.id }]);
      const versions = await get(`${server.url}/nodes/${created.body.id}?name=${encodeURIComponent(body.name)}`);
      assert.equal(versions.body[0].$schema, expected);
    });
  }

  it('a touch (PUT {id}) and a PATCH keep it; a PUT without $schema, or with ours, gives ours', async () => {
    const created = (await post(`${server.url}/nodes`, { $schema: UNIS_NODE, name: 'kept' })).body;
    const at = `${server.url}/nodes/${created.id}`;
    assert.equal((await put(at, { id: created.id })).body.$schema, UNIS_NODE);
    assert.equal((await patch(at, { description: 'd' })).body.$schema, UNIS_NODE);
    assert.equal((await get(at)).body.$schema, UNIS_NODE);
    assert.equal((await patch(at, { $schema: ours })).body.$schema, ours);
    assert.equal((await put(at, { id: created.id, $schema: UNIS_NODE, name: 'kept' })).body.$schema, UNIS_NODE);
    assert.equal((await put(at, { id: created.id, name: 'kept' })).body.$schema, ours);
    assert.equal((await get(at)).body.$schema, ours);
  });

  it('a re-POST of the id (UNISrt, libunis-c) and each element of an array keep theirs', async () => {
    const answer = await post(`${server.url}/nodes`, [
      { id: 'arr-1', $schema: UNIS_NODE, name: 'a' },
      { id: 'arr-2', name: 'b' },
    ]);
    assert.deepEqual(answer.body.map((n: { $schema: string }) => n.$schema), [UNIS_NODE, ours]);
    const again = await post(`${server.url}/nodes`, { id: 'arr-2', $schema: UNIS_NODE, name: 'b2' });
    assert.equal(again.body.$schema, UNIS_NODE);
    assert.deepEqual((await get(`${server.url}/nodes?id=arr-1,arr-2&sort=id:1`)).body.map((n: { $schema: string }) => n.$schema), [UNIS_NODE, UNIS_NODE]);
  });

  it('embedded objects of a composite insert keep theirs', async () => {
    const answer = await post(`${server.url}/topologies`, {
      $schema: 'http://unis.crest.iu.edu/schema/20160630/topology#',
      name: 't',
      ports: [{ $schema: UNIS_PORT, name: 'p0' }],
      nodes: [{ $schema: UNIS_NODE, name: 'tn', ports: [{ href: '#/ports/0', rel: 'full' }] }],
    });
    assert.equal(answer.status, 201, answer.text);
    assert.equal(answer.body.$schema, 'http://unis.crest.iu.edu/schema/20160630/topology#');
    const port = await get(answer.body.ports[0].href);
    assert.equal(port.body.$schema, UNIS_PORT);
  });

  it('frames of /subscribe carry it (dlt-web app/sockets.js:124-330 draws them)', async () => {
    const socket = await SocketClient.open(server.url, '/subscribe/nodes');
    try {
      await post(`${server.url}/nodes`, { $schema: UNIS_NODE, name: 'live' });
      const [frame] = await socket.changesAtLeast(1);
      assert.equal((frame!.data as { $schema: string }).$schema, UNIS_NODE);
    } finally {
      socket.ws.close();
    }
  });
});

describe('SCHEMA_BASE set to UNIS 20160630 (README, UNIS section)', function () {
  let server: RunningServer;
  before(async () => {
    server = await startServer({ env: { SCHEMA_BASE: 'http://unis.crest.iu.edu/schema/20160630' } });
  });
  after(async () => {
    await server.stop();
  });

  it('a body without $schema gets UNIS 20160630, the address dlt-web recognises', async () => {
    const created = await post(`${server.url}/nodes`, { name: 'other client' });
    assert.equal(created.body.$schema, UNIS_NODE);
    assert.equal((await get(`${server.url}/nodes/${created.body.id}`)).body.$schema, UNIS_NODE);
  });
});
