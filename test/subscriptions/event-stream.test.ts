import assert from 'node:assert/strict';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { del, get, patch, post } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { StreamClient } from '../helpers/subscribers.js';
import { eventually } from '../helpers/wait.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The resumable event stream (docs/subscriptions.md): `Accept: text/event-stream` on collections and resources. */
describe('subscriptions: Server-Sent Events', function () {
  let database: TestDatabase;
  let server: RunningServer;
  const streams: StreamClient[] = [];
  const stream = async (path: string, headers?: Record<string, string>): Promise<StreamClient> => {
    const client = await StreamClient.open(`${server.url}${path}`, headers);
    streams.push(client);
    return client;
  };
  before(async () => {
    database = await createTestDatabase();
    server = await startServer({ database });
  });
  afterEach(() => {
    for (const client of streams.splice(0)) client.close();
  });
  after(async () => {
    await server.stop();
    await database.drop();
  });

  it('streams the changes a list query selects, with event ids that order them', async () => {
    const client = await stream('/nodes?location.institution=IU');
    assert.equal(client.status, 200);
    assert.match(String(client.headers['content-type']), /^text\/event-stream/);
    await post(`${server.url}/nodes`, [{ id: 's1', name: 'a', location: { institution: 'IU' } }, { id: 's2', name: 'b', location: { institution: 'MIT' } }]);
    await patch(`${server.url}/nodes/s1`, { name: 'a2' });
    await del(`${server.url}/nodes/s1`);
    const events = await client.atLeast(3);
    assert.deepEqual(events.map((e) => `${e.event} ${e.data.id}`), ['POST s1', 'PUT s1', 'DELETE s1']);
    assert.deepEqual(events[2]!.data, { id: 's1' });
    assert.equal(events[1]!.data.name, 'a2');
    const ids = events.map((e) => Number(e.id));
    assert.ok(ids.every((id, i) => i === 0 || id > ids[i - 1]!), `increasing ids ${ids}`);
    // Exactly the list query's meaning: what the list answers now, the stream announced.
    assert.deepEqual((await get(`${server.url}/nodes?location.institution=IU`)).body, []);
  });

  it('follows one resource at GET /<collection>/<id>, and fields= projects each event', async () => {
    const client = await stream('/ports/one?fields=id,capacity');
    await post(`${server.url}/ports`, [{ id: 'one', capacity: 1, name: 'x' }, { id: 'two', capacity: 2 }]);
    await patch(`${server.url}/ports/one`, { capacity: 5 });
    const events = await client.atLeast(2);
    assert.deepEqual(events.map((e) => e.data), [{ id: 'one', capacity: 1 }, { id: 'one', capacity: 5 }]);
    await sleep(200);
    assert.equal(client.events.length, 2);
  });

  it('Last-Event-ID replays what was missed, none lost and none repeated, then goes on live', async () => {
    const first = await stream('/links');
    const endpoints = [{ href: 'http://h/ports/1' }, { href: 'http://h/ports/2' }];
    await post(`${server.url}/links`, Array.from({ length: 3 }, (_, i) => ({ name: `l${i}`, endpoints })));
    const seen = await first.atLeast(3);
    first.close();
    // While nobody listens.
    await post(`${server.url}/links`, Array.from({ length: 700 }, (_, i) => ({ name: `m${i}`, endpoints })));
    const resumed = await stream('/links', { 'last-event-id': seen[1]!.id });
    await post(`${server.url}/links`, { name: 'live', endpoints });
    const events = await resumed.atLeast(1 + 700 + 1);
    assert.deepEqual(events.map((e) => e.data.name), ['l2', ...Array.from({ length: 700 }, (_, i) => `m${i}`), 'live']);
    assert.equal(new Set(events.map((e) => e.id)).size, events.length, 'no event twice');
    await sleep(200);
    assert.equal(resumed.events.length, 702);
  });

  it('a malformed Last-Event-ID is a 400; a malformed query too', async () => {
    assert.equal((await stream('/links', { 'last-event-id': 'yesterday' })).status, 400);
    assert.equal((await stream('/links?capacity=integer:x')).status, 400);
  });

  it('resumes after a restart of the server from the stored event log', async () => {
    const client = await stream('/domains');
    await post(`${server.url}/domains`, { name: 'before-restart' });
    const [last] = await client.atLeast(1);
    client.close();
    await server.stop();
    server = await startServer({ database });
    await post(`${server.url}/domains`, [{ name: 'while-down-1' }, { name: 'while-down-2' }]);
    const resumed = await stream('/domains', { 'last-event-id': last!.id });
    const events = await resumed.atLeast(2);
    assert.deepEqual(events.map((e) => e.data.name), ['while-down-1', 'while-down-2']);
  });

  it('a deletion reaches the streams whose query selected the resource as it was', async () => {
    await post(`${server.url}/services`, [{ id: 'svc-a', serviceType: 'ibp_server' }, { id: 'svc-b', serviceType: 'other' }]);
    const client = await stream('/services?serviceType=ibp_server');
    await del(`${server.url}/services/svc-b`);
    await del(`${server.url}/services/svc-a`);
    const events = await eventually('the deletion', () => (client.events.length > 0 ? client.events : undefined));
    await sleep(200);
    assert.deepEqual(client.events.map((e) => `${e.event} ${e.data.id}`), ['DELETE svc-a']);
    assert.equal(events.length, 1);
  });
});
