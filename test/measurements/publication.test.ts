import assert from 'node:assert/strict';
import { del, get, post } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { SocketClient, StreamClient } from '../helpers/subscribers.js';
import { eventually } from '../helpers/wait.js';

/**
 * Data points published as they are stored (docs/measurements.md): UNIS WebSocket frames of
 * `data/<mid>` (as UNIS's datahandler published them and dlt-web reads them), and the event
 * stream of `GET /data/<mid>`, resumable with Last-Event-ID.
 */
describe('measurement store: publication', function () {
  let server: RunningServer;
  const open: { close(): void }[] = [];
  before(async () => {
    server = await startServer();
  });
  afterEach(() => {
    for (const client of open.splice(0)) client.close();
  });
  after(async () => {
    await server.stop();
  });

  async function series(size = 100): Promise<string> {
    const metadata = (await post(`${server.url}/metadata`, { subject: { href: `${server.url}/nodes/n1`, rel: 'full' }, eventType: 'cpu' })).body;
    assert.equal((await post(`${server.url}/events`, { metadata_URL: metadata.selfRef, collection_size: size })).status, 201);
    return metadata.id as string;
  }
  const socket = async (path: string): Promise<SocketClient> => {
    const client = await SocketClient.open(server.url, path);
    open.push(client);
    return client;
  };
  const stream = async (path: string, headers?: Record<string, string>): Promise<StreamClient> => {
    const client = await StreamClient.open(`${server.url}${path}`, headers);
    open.push(client);
    return client;
  };

  it('sends subscribers of data/<mid> the points each append stored, in UNIS\'s frame, and nothing of other series', async () => {
    const mid = await series(3);
    const other = await series();
    const byMessage = await socket('/subscribe');
    byMessage.send({ query: { id: mid }, resourceType: 'data' });
    const byPath = await socket(`/subscribe/data/${mid}`);
    const byResourceType = await socket('/subscribe');
    byResourceType.send({ resourceType: `data/${mid}` });
    await Promise.all([byMessage.settled(), byResourceType.settled()]);

    // Four points for a cap of 3: the frame holds what the append stored and kept, in ts order.
    await post(`${server.url}/data`, [{ mid: other, data: [{ ts: 1, value: 0 }] }, { mid, data: [{ ts: 2, value: 'b' }, { ts: 1, value: 'a' }, { ts: 4, value: 'd' }, { ts: 3, value: 'c' }] }]);
    for (const client of [byMessage, byPath, byResourceType]) {
      const [frame] = await client.changesAtLeast(1);
      assert.deepEqual(frame, { headers: { action: 'POST', collection: `data/${mid}`, id: mid }, data: { [mid]: [{ ts: 2, value: 'b' }, { ts: 3, value: 'c' }, { ts: 4, value: 'd' }] } });
    }
    // A repeated point is not published again.
    await post(`${server.url}/data/${mid}`, { data: [{ ts: 4, value: 'again' }, { ts: 5, value: 'e' }] });
    for (const client of [byMessage, byPath, byResourceType]) assert.deepEqual((await client.changesAtLeast(2))[1]!.data, { [mid]: [{ ts: 5, value: 'e' }] });
    await del(`${server.url}/data/${mid}`);
    for (const client of [byMessage, byPath, byResourceType]) {
      const frames = await client.changesAtLeast(3);
      assert.deepEqual(frames[2], { headers: { action: 'DELETE', collection: `data/${mid}`, id: mid }, data: { id: mid } });
      assert.equal(client.changes.length, 3);
    }
  });

  it('sends a subscriber of the whole data collection every series\' appends', async () => {
    const a = await series();
    const b = await series();
    const all = await socket('/subscribe/data');
    await post(`${server.url}/data`, [{ mid: a, data: [{ ts: 1, value: 1 }] }, { mid: b, data: [{ ts: 1, value: 2 }] }]);
    const frames = await all.changesAtLeast(2);
    assert.deepEqual(frames.map((f) => f.headers!.id).sort(), [a, b].sort());
  });

  it('streams appends as Server-Sent Events, and Last-Event-ID resumes without loss or repetition', async () => {
    const mid = await series();
    const first = await stream(`/data/${mid}`);
    assert.equal(first.status, 200);
    await post(`${server.url}/data/${mid}`, { data: [{ ts: 1, value: 1 }] });
    await post(`${server.url}/data/${mid}`, { data: [{ ts: 2, value: 2 }] });
    const seen = await first.atLeast(2);
    assert.deepEqual(seen.map((e) => [e.event, e.data]), [['POST', { [mid]: [{ ts: 1, value: 1 }] }], ['POST', { [mid]: [{ ts: 2, value: 2 }] }]]);
    first.close();

    // Missed while away: two appends, one to another series.
    await post(`${server.url}/data/${mid}`, { data: [{ ts: 3, value: 3 }, { ts: 4, value: 4 }] });
    await post(`${server.url}/data/${await series()}`, { data: [{ ts: 9, value: 9 }] });
    await post(`${server.url}/data/${mid}`, { data: [{ ts: 5, value: 5 }] });
    const resumed = await stream(`/data/${mid}`, { 'last-event-id': seen[1]!.id });
    const replayed = await resumed.atLeast(2);
    assert.deepEqual(replayed.map((e) => e.data[mid].map((p: { ts: number }) => p.ts)), [[3, 4], [5]]);
    await post(`${server.url}/data/${mid}`, { data: [{ ts: 6, value: 6 }] });
    const live = await resumed.atLeast(3);
    assert.deepEqual(live[2]!.data, { [mid]: [{ ts: 6, value: 6 }] });
    assert.ok(Number(live[2]!.id) > Number(live[1]!.id));
  });

  it('refuses an event stream of an unknown series, and conditions on one', async () => {
    const mid = await series();
    const unknown = await stream('/data/no-such-series');
    assert.equal(unknown.status, 404);
    const conditioned = await stream(`/data/${mid}?value=gt=1`);
    assert.equal(conditioned.status, 400);
    await eventually('the refusals to end', () => (unknown.ended && conditioned.ended ? true : undefined));
    // The series reads as ever.
    assert.deepEqual((await get(`${server.url}/data/${mid}`)).body, []);
  });

  it('reaches subscribers of another server process on the same database', async () => {
    const other = await startServer({ database: server.database });
    try {
      const mid = await series();
      const remote = await SocketClient.open(other.url, `/subscribe/data/${mid}`);
      open.push(remote);
      await remote.settled();
      await post(`${server.url}/data/${mid}`, { data: [{ ts: 7, value: 'from a' }] });
      const [frame] = await remote.changesAtLeast(1);
      assert.deepEqual(frame, { headers: { action: 'POST', collection: `data/${mid}`, id: mid }, data: { [mid]: [{ ts: 7, value: 'from a' }] } });
      // And the other way: the first server reads what the second stored.
      await post(`${other.url}/data/${mid}`, { data: [{ ts: 8, value: 'from b' }] });
      // (In UNIS form, as fetch's `Accept: */*` is: oldest first.)
      assert.deepEqual((await get(`${server.url}/data/${mid}`)).body, [{ ts: 7, value: 'from a' }, { ts: 8, value: 'from b' }]);
    } finally {
      await other.stop();
    }
  });
});
