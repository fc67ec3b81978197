import assert from 'node:assert/strict';
import { TopologyClient } from '../../generated/client/rest.js';
import { post } from '../helpers/http.js';
import { registrationOf } from '../helpers/federation.js';
import { conformingFetch } from '../helpers/openapi.js';
import { startServer, type RunningServer } from '../helpers/server.js';

/** Each instance reports every 2 s (ttl 4 s): a loaded machine's late report does not expire it mid-test (with 200 ms, the ttl is 1 s). */
const REPORT_EVERY_MS = '2000';

/** The generated SDK's `federated()` against a lookup with two instances (rest-contract §13), its answers checked against the OpenAPI document. */
describe('the SDK\'s federated(): one query over the instances of a lookup (rest-contract §13)', function () {
  let lookup: RunningServer;
  let a: RunningServer;
  let b: RunningServer;
  let client: TopologyClient;
  const unreachable = 'http://127.0.0.1:9';
  before(async () => {
    lookup = await startServer({ env: { LOOKUP: 'true', FEDERATE_TIMEOUT_MS: '5000' } });
    const env = { REGISTER_URLS: lookup.url, REGISTER_INTERVAL_MS: REPORT_EVERY_MS };
    [a, b] = await Promise.all([startServer({ env }), startServer({ env })]);
    await new TopologyClient({ baseUrl: a.url, fetch: conformingFetch }).nodes.createMany([{ name: 'a2', urn: 'urn:a' }, { name: 'a1', urn: 'urn:a' }]);
    await new TopologyClient({ baseUrl: b.url, fetch: conformingFetch }).nodes.createMany([{ name: 'b1', urn: 'urn:b' }]);
    await registrationOf(lookup, a.url, (r) => r.properties.summary.some((m) => m.$collection === 'nodes'));
    await registrationOf(lookup, b.url, (r) => r.properties.summary.some((m) => m.$collection === 'nodes'));
    client = new TopologyClient({ baseUrl: lookup.url, fetch: conformingFetch });
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await lookup?.stop();
  });

  it('the merged list, sorted and paged over both instances, nothing partial', async () => {
    const all = await client.nodes.federated((q) => q.sort(['name', 1]));
    assert.deepEqual(all.items.map((n) => n.name), ['a1', 'a2', 'b1']);
    assert.deepEqual(all.partial, []);
    const page = await client.nodes.federated((q) => q.sort(['name', -1]).skip(1).limit(1));
    assert.deepEqual(page.items.map((n) => n.name), ['a2']);
  });

  it('a condition: only the instances that may match are asked', async () => {
    const only = await client.nodes.federated((q) => q.eq('urn', 'urn:b'));
    assert.deepEqual(only.items.map((n) => n.name), ['b1']);
  });

  it('an instance that cannot answer is in partial, with its reason', async () => {
    const registered = await post(`${lookup.url}/register`, { accessPoint: unreachable, ttl: 3600, properties: { summary: [{ $collection: 'nodes', properties: { name: '*' } }] } });
    assert.equal(registered.status, 201, registered.text);
    const answer = await client.nodes.federated((q) => q.sort(['name', 1]));
    assert.deepEqual(answer.items.map((n) => n.name), ['a1', 'a2', 'b1']);
    assert.deepEqual(answer.partial, [{ instance: unreachable, reason: 'unreachable' }]);
  });
});
