import assert from 'node:assert/strict';
import { post } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { SocketClient } from '../helpers/subscribers.js';
import { DLT_WEB } from '../helpers/unis-clients.js';
import { wire } from '../helpers/wire.js';

/**
 * dlt-web (datalogistics/dlt-web@8eec5b2), the web UI's server, as unis-clients.md §2.4 records
 * it: `request.get({url})` with no headers of its own; query strings re-encoded by node's
 * `querystring.stringify` (so `ts=gt=…` arrives as `ts=gt%3D…`, and `?inline` as `inline=`);
 * answers that are arrays, where an object is asked for, mean "no longer exists".
 */
const requestHeaders = DLT_WEB;

describe('UNIS clients: dlt-web', function () {
  let server: RunningServer;
  let node: { id: string; selfRef: string; $schema: string };
  before(async () => {
    server = await startServer();
    const port = (await post(`${server.url}/ports`, { name: 'eth0', capacity: 1000 })).body;
    node = (await post(`${server.url}/nodes`, { name: 'depot', ports: [{ href: port.selfRef, rel: 'full' }] })).body;
    await post(`${server.url}/services`, { name: 'ibp', serviceType: 'ibp_server', accessPoint: 'ibp://depot:6714', runningOn: { href: node.selfRef, rel: 'full' } });
  });
  after(async () => {
    await server.stop();
  });

  it('lists with the empty query strings querystring.stringify makes (`?`, `?&`)', async () => {
    for (const target of ['/nodes?', '/services?&']) {
      const answer = await wire(server.url, { method: 'GET', target, headers: requestHeaders });
      assert.equal(answer.status, 200, `${target}: ${answer.text}`);
      assert.equal((answer.body as unknown[]).length, 1, target);
    }
  });

  it('applies its init filter as it arrives, encoded: ts=gt%3D<an hour ago, µs>', async () => {
    const hourAgo = (Date.now() - 3_600_000) * 1000;
    const recent = await wire(server.url, { method: 'GET', target: `/nodes?ts=gt%3D${hourAgo}`, headers: requestHeaders });
    assert.equal(recent.status, 200, recent.text);
    assert.equal((recent.body as unknown[]).length, 1);
    const future = await wire(server.url, { method: 'GET', target: `/nodes?ts=gt%3D${(Date.now() + 3_600_000) * 1000}`, headers: requestHeaders });
    assert.deepEqual(future.body, []);
  });

  it('reads one resource by id with `inline=` and gets an object whose references it resolves itself', async () => {
    // rest-contract §5 (revised 2026-11-26): UNIS HEAD ignores `inline` here; dlt-web follows
    // every `{href, rel}` itself and stops at a member without `href` (`app/routes.js:126-213`),
    // so a reference expanded by the server left its topology map empty.
    const answer = await wire(server.url, { method: 'GET', target: `/nodes/${node.id}?inline=`, headers: requestHeaders });
    assert.equal(answer.status, 200, answer.text);
    assert.ok(!Array.isArray(answer.body), 'an object: dlt-web skips arrays as "no longer exists"');
    assert.deepEqual(Object.keys(answer.body.ports[0]).sort(), ['href', 'rel']);
    const port = await wire(server.url, { method: 'GET', target: `${new URL(answer.body.ports[0].href).pathname}?inline=`, headers: requestHeaders });
    assert.equal(port.body.name, 'eth0');
    const plain = await wire(server.url, { method: 'GET', target: `/nodes/${node.id}?`, headers: requestHeaders });
    assert.ok(!Array.isArray(plain.body));
  });

  it('resolves an unknown $schema by fetching it and following allOf[0].$ref', async () => {
    let address = node.$schema;
    const seen: string[] = [];
    for (let hops = 0; hops < 4; hops++) {
      const target = new URL(address);
      const schema = await wire(server.url, { method: 'GET', target: target.pathname, headers: requestHeaders });
      assert.equal(schema.status, 200, address);
      seen.push(schema.body.name);
      const parent = schema.body.allOf?.[0]?.$ref as string | undefined;
      if (!parent) break;
      address = parent;
    }
    assert.deepEqual(seen, ['Node', 'NetworkResource']);
  });

  it('lists services by the serviceType its filter map names', async () => {
    const answer = await wire(server.url, { method: 'GET', target: '/services?serviceType=ibp_server', headers: requestHeaders });
    assert.equal((answer.body as unknown[]).length, 1);
  });
  /**
   * The measurement store (unis-clients.md §2.4, §3): `UnisService.getDataId` reads
   * `/api/data/<mid>?limit=<n>` (300 by default; the map asks `?limit=1` for the current value),
   * which `routes.js` forwards as `/data/<mid>?limit=<n>`, then subscribes: one socket
   * `ws://…/subscribe/data` (`_createWebSocket`, no `?query` since `data` is not in its filter
   * map) and `{"query": {"id": <mid>}, "resourceType": "data"}` on it; each frame's `data` is an
   * object keyed by mid (`SocketService.on('data_data')`), and the map reads `headers.id`.
   */
  it('reads the newest points of a series and follows its appends on /subscribe/data', async () => {
    const metadata = (await post(`${server.url}/metadata`, { subject: { href: node.selfRef, rel: 'full' }, eventType: 'ps:tools:blipp:linux:net:ethernet:bytes:utilization' })).body;
    const mid = metadata.id as string;
    await post(`${server.url}/events`, { metadata_URL: metadata.selfRef, collection_size: 1000, ttl: 0 });
    await post(`${server.url}/data/${mid}`, { data: Array.from({ length: 400 }, (_, i) => ({ ts: 1_795_000_000_000_000 + i * 1_000_000, value: i })) });

    const graph = await wire(server.url, { method: 'GET', target: `/data/${mid}?limit=300`, headers: requestHeaders });
    assert.equal(graph.status, 200);
    assert.equal((graph.body as unknown[]).length, 300);
    const current = await wire(server.url, { method: 'GET', target: `/data/${mid}?limit=1`, headers: requestHeaders });
    assert.deepEqual(current.body, [{ ts: 1_795_000_000_000_000 + 399 * 1_000_000, value: 399 }]);

    const socket = await SocketClient.open(server.url, '/subscribe/data');
    try {
      socket.send(JSON.stringify({ query: { id: mid }, resourceType: 'data' }));
      await socket.settled();
      await post(`${server.url}/data/${mid}`, { data: [{ ts: 1_796_000_000_000_000, value: 400 }] });
      const [frame] = await socket.changesAtLeast(1);
      assert.equal(frame!.headers!.id, mid);
      const byMid = JSON.parse(JSON.stringify(frame!.data)) as Record<string, { ts: number; value: number }[]>;
      assert.deepEqual(Object.keys(byMid), [mid]);
      assert.deepEqual(byMid[mid], [{ ts: 1_796_000_000_000_000, value: 400 }]);
    } finally {
      socket.close();
    }
  });
});
