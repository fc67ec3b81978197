import assert from 'node:assert/strict';
import { del, patch, post, put } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { SocketClient } from '../helpers/subscribers.js';
import { eventually } from '../helpers/wait.js';

/** UNIS's publish/subscribe protocol over WebSockets (docs/subscriptions.md). */
describe('subscriptions: UNIS WebSocket protocol', function () {
  let server: RunningServer;
  const open: SocketClient[] = [];
  const socket = async (path: string, headers?: Record<string, string>): Promise<SocketClient> => {
    const client = await SocketClient.open(server.url, path, headers);
    open.push(client);
    return client;
  };
  before(async () => {
    server = await startServer({ env: { MAX_SUBSCRIPTIONS_PER_CONNECTION: '20' } });
  });
  afterEach(() => {
    for (const client of open.splice(0)) client.close();
  });
  after(async () => {
    await server.stop();
  });

  it('UNISrt: /subscribe, one message per collection, frames of every action with the stored representation (a re-POST as POST)', async () => {
    const client = await socket('/subscribe');
    for (const resourceType of ['nodes', 'ports']) client.send({ query: {}, resourceType });
    await client.settled();
    const created = (await post(`${server.url}/nodes`, { id: 'rt-1', name: 'one' })).body;
    await post(`${server.url}/ports`, [{ id: 'rt-p1' }, { id: 'rt-p2' }]);
    await post(`${server.url}/nodes`, { id: 'rt-1', name: 'again' });
    await put(`${server.url}/nodes/rt-1`, { id: 'rt-1' });
    await patch(`${server.url}/nodes/rt-1`, { description: 'patched' });
    await put(`${server.url}/nodes/rt-1`, { name: 'replaced' });
    await del(`${server.url}/nodes/rt-1`);
    const frames = await client.changesAtLeast(8);
    assert.deepEqual(
      frames.map((f) => `${f.headers!.action} ${f.headers!.collection} ${f.headers!.id}`),
      // The re-POST is a POST here, as UNIS HEAD published it (rest-contract §11, revised 2026-11-28).
      ['POST nodes rt-1', 'POST ports rt-p1', 'POST ports rt-p2', 'POST nodes rt-1', 'PUT nodes rt-1', 'PUT nodes rt-1', 'PUT nodes rt-1', 'DELETE nodes rt-1'],
    );
    // What UNISrt's callback reads: $schema, selfRef and ts on POST and PUT; id on DELETE.
    assert.deepEqual(frames[0]!.data, created);
    assert.equal(frames[4]!.data.name, 'again');
    assert.equal(frames[5]!.data.description, 'patched');
    assert.equal(frames[6]!.data.name, 'replaced');
    for (const frame of frames.slice(0, 7)) assert.ok(frame.data.$schema && frame.data.selfRef && frame.data.ts, JSON.stringify(frame));
    assert.deepEqual(frames[7]!.data, { id: 'rt-1' });
  });

  it('dlt-web: one socket per collection with ?query=, per-id interest sent on the socket', async () => {
    const services = await socket(`/subscribe/services?query=${encodeURIComponent(JSON.stringify({ serviceType: { in: ['ibp_server'] } }))}`);
    const nodes = await socket('/subscribe/nodes');
    nodes.send({ query: { id: 'watched' }, resourceType: 'nodes' });
    nodes.send({ id: 'watched', disconnect: true });
    await Promise.all([services.settled(), nodes.settled()]);
    await post(`${server.url}/services`, [{ name: 'depot', serviceType: 'ibp_server' }, { name: 'other', serviceType: 'ps:tools:blipp' }]);
    await post(`${server.url}/nodes`, [{ id: 'watched' }, { id: 'unwatched' }]);
    assert.deepEqual((await services.changesAtLeast(1)).map((f) => f.data.name), ['depot']);
    // The per-collection subscription hears both, the per-id one only its own: three frames.
    const frames = await nodes.changesAtLeast(3);
    assert.deepEqual(frames.map((f) => f.headers!.id).sort(), ['unwatched', 'watched', 'watched']);
    // What dlt-web consumes: JSON.parse(frame).data.
    assert.equal(frames.find((f) => f.headers!.id === 'watched')!.data.id, 'watched');
  });

  it('/subscribe/<collection>/<id> follows one resource; fields= trims the data', async () => {
    const one = await socket('/subscribe/ports/followed?fields=id,name');
    await post(`${server.url}/ports`, [{ id: 'followed', name: 'f', capacity: 1 }, { id: 'not-followed', name: 'n' }]);
    await patch(`${server.url}/ports/followed`, { capacity: 2 });
    const frames = await one.changesAtLeast(2);
    assert.deepEqual(frames.map((f) => f.data), [{ id: 'followed', name: 'f' }, { id: 'followed', name: 'f' }]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(one.changes.length, 2);
  });

  const operators: [string, { query: Record<string, unknown>; want: string[] }][] = [
    ['a scalar is equality', { query: { name: 'n3' }, want: ['q3'] }],
    ['equal', { query: { capacity: { equal: 20 } }, want: ['q2'] }],
    ['gt', { query: { capacity: { gt: 20 } }, want: ['q3', 'q4'] }],
    ['gte and lt together', { query: { capacity: { gte: 20, lt: 40 } }, want: ['q2', 'q3'] }],
    ['lte', { query: { capacity: { lte: 10 } }, want: ['q1'] }],
    ['in', { query: { name: { in: ['n1', 'n4', 'zz'] } }, want: ['q1', 'q4'] }],
    ['in of mixed types', { query: { capacity: { in: [10, '40', 40] } }, want: ['q1', 'q4'] }],
    ['reg', { query: { name: { reg: '^n[23]$' } }, want: ['q2', 'q3'] }],
    ['a dotted path', { query: { 'location.institution': 'IU' }, want: ['q1', 'q3'] }],
    ['two keys AND', { query: { 'location.institution': 'IU', capacity: { gt: 15 } }, want: ['q3'] }],
    ['a key that no resource has', { query: { nowhere: 1 }, want: [] }],
    ['an element of a list', { query: { tags: 'red' }, want: ['q2'] }],
  ];
  for (const [name, { query, want }] of operators) {
    it(`query operators: ${name}`, async () => {
      const client = await socket('/subscribe');
      client.send({ resourceType: 'ports', query });
      client.send({ resourceType: 'links', query: {} });
      await client.settled();
      const prefix = `op-${name.replace(/\W+/g, '-')}`;
      await post(`${server.url}/ports`, [
        { id: `${prefix}-q1`, name: 'n1', capacity: 10, location: { institution: 'IU' } },
        { id: `${prefix}-q2`, name: 'n2', capacity: 20, tags: ['red', 'blue'] },
        { id: `${prefix}-q3`, name: 'n3', capacity: 30, location: { institution: 'IU' } },
        { id: `${prefix}-q4`, name: 'n4', capacity: 40 },
      ]);
      // A marker on another collection: every port frame that will come has come before it.
      await post(`${server.url}/links`, { directed: false, endpoints: [{ href: 'http://h/p/1' }, { href: 'http://h/p/2' }] });
      await eventually('the marker', () => client.changes.find((f) => f.headers!.collection === 'links'));
      assert.deepEqual(client.changes.filter((f) => f.headers!.collection === 'ports').map((f) => f.headers!.id.slice(prefix.length + 1)), want);
    });
  }

  it('a composite insert publishes every embedded resource and the container', async () => {
    const client = await socket('/subscribe');
    for (const resourceType of ['topologies', 'nodes', 'ports']) client.send({ resourceType, query: {} });
    await client.settled();
    await post(`${server.url}/topologies`, { id: 'topo', nodes: [{ id: 'tn', ports: [{ id: 'tp' }] }] });
    const frames = await client.changesAtLeast(3);
    assert.deepEqual(frames.map((f) => `${f.headers!.collection}/${f.headers!.id}`).sort(), ['nodes/tn', 'ports/tp', 'topologies/topo']);
  });

  const malformed: [string, { message: string; path?: string }][] = [
    ['not JSON', { message: '{"resourceType": ', path: '' }],
    ['not an object', { message: '[1, 2]', path: '' }],
    ['no resourceType', { message: '{"query": {}}', path: 'resourceType' }],
    ['an unknown collection', { message: '{"resourceType": "nothing"}', path: 'resourceType' }],
    ['an unknown operator', { message: '{"resourceType": "nodes", "query": {"name": {"like": "x"}}}', path: 'name' }],
    ['a list as a value', { message: '{"resourceType": "nodes", "query": {"name": ["x"]}}', path: 'name' }],
    ['a bad field name', { message: '{"resourceType": "nodes", "query": {"a..b": 1}}', path: 'a..b' }],
    ['a regular expression with a backreference', { message: '{"resourceType": "nodes", "query": {"name": {"reg": "(a)\\\\1"}}}', path: 'name' }],
    ['fields that are no list', { message: '{"resourceType": "nodes", "fields": "id"}', path: 'fields' }],
  ];
  for (const [name, { message, path }] of malformed) {
    it(`a malformed subscription gets an error frame and the socket stays open: ${name}`, async () => {
      const client = await socket('/subscribe');
      client.send(message);
      const error = await client.nextError();
      if (path !== undefined) assert.equal(error.details[0]!.path, path, JSON.stringify(error));
      client.send({ resourceType: 'domains', query: {} });
      await client.settled();
      await post(`${server.url}/domains`, { name: `after-${name}` });
      assert.equal((await client.changesAtLeast(1))[0]!.data.name, `after-${name}`);
      assert.equal(client.closed, undefined);
    });
  }

  it('a bad query= on the URL gets an error frame; the socket stays usable', async () => {
    const client = await socket('/subscribe/nodes?query=%7Bnot-json');
    assert.match((await client.nextError()).message, /could not decode the subscription query/);
    client.send({ resourceType: 'nodes', query: { name: 'after-bad-url' } });
    await client.settled();
    await post(`${server.url}/nodes`, { name: 'after-bad-url' });
    await client.changesAtLeast(1);
  });

  it('answers 404 to a WebSocket on any other path', async () => {
    await assert.rejects(SocketClient.open(server.url, '/nodes'), (error: { status?: number }) => error.status === 404);
  });

  it('refuses subscriptions past the limit of one socket with an error frame, and keeps the rest', async () => {
    const client = await socket('/subscribe');
    for (let i = 0; i < 25; i++) client.send({ resourceType: 'paths', query: { name: `p${i}` } });
    await client.settled();
    await eventually('5 refusals', () => (client.frames.filter((f) => f.error).length === 5 ? true : undefined));
    await post(`${server.url}/paths`, [{ name: 'p19' }, { name: 'p20' }]);
    assert.deepEqual((await client.changesAtLeast(1)).map((f) => f.data.name), ['p19']);
  });

  it('the same subscription twice on one socket delivers each change once', async () => {
    const client = await socket('/subscribe');
    for (let i = 0; i < 3; i++) client.send({ resourceType: 'metadata', query: {} });
    await client.settled();
    await post(`${server.url}/metadata`, { subject: { href: 'http://h/ports/1' }, eventType: 'once' });
    await client.changesAtLeast(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(client.changes.length, 1);
  });
});
