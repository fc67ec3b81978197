import assert from 'node:assert/strict';
import { TopologyClient, type ServiceChange } from '../../generated/client/rest.js';
import { hashToken } from '../../server/tokens.js';
import { del, patch, post } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { StreamClient } from '../helpers/subscribers.js';

const READER = 'tc_stream-reader-000000000000000000000000000000000';
const WRITER = 'tc_stream-writer-000000000000000000000000000000000';

/**
 * The service-wide event stream (docs/subscriptions.md): `GET /` as text/event-stream follows
 * several collections over one connection, each event UNIS's frame, resumable with Last-Event-ID.
 */
describe('subscriptions: the service-wide event stream (GET /)', function () {
  let server: RunningServer;
  const streams: StreamClient[] = [];
  const stream = async (path: string, headers?: Record<string, string>): Promise<StreamClient> => {
    const client = await StreamClient.open(`${server.url}${path}`, headers);
    streams.push(client);
    return client;
  };
  before(async () => {
    server = await startServer();
  });
  afterEach(() => {
    for (const client of streams.splice(0)) client.close();
  });
  after(async () => {
    await server.stop();
  });

  it('streams the changes of the collections named, in commit order, as UNIS frames', async () => {
    const client = await stream('/?collections=nodes,ports');
    assert.equal(client.status, 200);
    await post(`${server.url}/ports`, { id: 'sp1', name: 'p' });
    await post(`${server.url}/links`, { id: 'sl1', endpoints: [{ href: 'http://h/ports/1' }, { href: 'http://h/ports/2' }] });
    await post(`${server.url}/nodes`, { id: 'sn1', name: 'n', ports: [{ href: `${server.url}/ports/sp1` }] });
    await patch(`${server.url}/nodes/sn1`, { name: 'n2' });
    // A re-POST: a PUT on an event stream, frame included (UNIS's WebSocket alone says POST, rest-contract §11).
    await post(`${server.url}/nodes`, { id: 'sn1', name: 'n3' });
    await del(`${server.url}/ports/sp1`);
    const events = await client.atLeast(5);
    assert.deepEqual(
      events.map((e) => [e.event, e.data.headers.action, e.data.headers.collection, e.data.headers.id]),
      [['POST', 'POST', 'ports', 'sp1'], ['POST', 'POST', 'nodes', 'sn1'], ['PUT', 'PUT', 'nodes', 'sn1'], ['PUT', 'PUT', 'nodes', 'sn1'], ['DELETE', 'DELETE', 'ports', 'sp1']],
    );
    assert.equal(events[2]!.data.data.name, 'n2');
    assert.equal(events[3]!.data.data.name, 'n3');
    assert.deepEqual(events[4]!.data.data, { id: 'sp1' });
    const ids = events.map((e) => Number(e.id));
    assert.ok(ids.every((id, i) => i === 0 || id > ids[i - 1]!), `increasing ids ${ids}`);
  });

  it('follows every collection without collections=; Last-Event-ID replays what was missed across them', async () => {
    const first = await stream('/');
    await post(`${server.url}/domains`, { id: 'sd1' });
    const [seen] = await first.atLeast(1);
    first.close();
    await post(`${server.url}/networks`, { id: 'sw1' });
    await post(`${server.url}/paths`, { id: 'sx1' });
    await post(`${server.url}/domains`, { id: 'sd2' });
    const resumed = await stream('/', { 'last-event-id': seen!.id });
    await post(`${server.url}/nodes`, { id: 'sn-live' });
    const events = await resumed.atLeast(4);
    assert.deepEqual(events.map((e) => `${e.data.headers.collection}/${e.data.headers.id}`), ['networks/sw1', 'paths/sx1', 'domains/sd2', 'nodes/sn-live']);
  });

  it('refuses an unknown collection or parameter naming it, and a malformed Last-Event-ID', async () => {
    const cases: [string, string, Record<string, string>, string][] = [
      ['unknown collection', '/?collections=nodes,routers', {}, 'collections'],
      ['empty list', '/?collections=', {}, 'collections'],
      ['unknown parameter', '/?name=x', {}, 'name'],
      ['malformed Last-Event-ID', '/', { 'last-event-id': 'soon' }, 'Last-Event-ID'],
    ];
    for (const [name, path, headers, pointer] of cases) {
      const response = await fetch(`${server.url}${path}`, { headers: { accept: 'text/event-stream', ...headers } });
      assert.equal(response.status, 400, name);
      assert.equal(((await response.json()) as any).error.details[0].path, pointer, name);
    }
  });

  it('the SDK\'s changes() follows it and resumes after the last event it gave', async () => {
    const sdk = new TopologyClient({ baseUrl: server.url });
    const stop = new AbortController();
    const received: ServiceChange[] = [];
    const following = (async () => {
      for await (const change of sdk.changes(['links', 'nodes'], { signal: stop.signal })) {
        received.push(change);
        if (received.length === 2) stop.abort();
      }
    })();
    // The stream is open once the service counts it: write until the first change arrives.
    await post(`${server.url}/topologies`, { id: 'st-ignored' });
    for (let i = 0; received.length === 0 && i < 100; i++) {
      await post(`${server.url}/nodes`, { name: `sdk-${i}` });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await post(`${server.url}/links`, { id: 'sdk-link', endpoints: [{ href: 'http://h/ports/1' }, { href: 'http://h/ports/2' }] });
    await following;
    assert.equal(received[0]!.collection, 'nodes');
    assert.ok(received.every((c) => c.collection === 'nodes' || c.collection === 'links'));
    assert.ok(Number(received[1]!.event) > Number(received[0]!.event));
  });

  describe('with tokens configured', () => {
    let guarded: RunningServer;
    before(async () => {
      const tokens = JSON.stringify({ tokens: [{ name: 'reader', hash: hashToken(READER), scopes: ['read'] }, { name: 'writer', hash: hashToken(WRITER), scopes: ['create'] }] });
      guarded = await startServer({ env: { TOPOCAT_TOKENS: tokens } });
    });
    after(async () => {
      await guarded?.stop();
    });

    it('needs the read scope, from the header or access_token=', async () => {
      const open = async (path: string, headers?: Record<string, string>) => {
        const client = await StreamClient.open(`${guarded.url}${path}`, headers);
        streams.push(client);
        return client.status;
      };
      assert.equal(await open('/'), 401);
      assert.equal(await open('/', { authorization: `Bearer ${WRITER}` }), 401);
      assert.equal(await open('/', { authorization: `Bearer ${READER}` }), 200);
      assert.equal(await open(`/?access_token=${READER}`), 200);
      // The collection list stays open.
      assert.equal((await fetch(`${guarded.url}/`)).status, 200);
    });
  });
});
