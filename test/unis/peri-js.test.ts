import assert from 'node:assert/strict';
import { post } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { PERI_JS } from '../helpers/unis-clients.js';
import { wire } from '../helpers/wire.js';

/**
 * peri-js (periscope-ps/periscope@5e6df8e, the first web UI's proxy), as unis-clients.md §2.3
 * records it: node 0.10's http with `Content-type: application/perfsonar+json`,
 * `connection: keep-alive` and no Accept; every read filtered by the slice, also on one resource;
 * measurements written with a body and Content-Length.
 */
const headers = PERI_JS;
const SLICE = '9a8b7c6d-0000-4000-8000-000000000001';

describe('UNIS clients: peri-js', function () {
  let server: RunningServer;
  before(async () => {
    server = await startServer();
    await post(`${server.url}/nodes`, [
      { id: 'in-slice', name: 'a', properties: { geni: { slice_uuid: SLICE } } },
      { id: 'other-slice', name: 'b', properties: { geni: { slice_uuid: 'someone-else' } } },
    ]);
    await post(`${server.url}/metadata`, { subject: { href: `${server.url}/nodes/in-slice`, rel: 'full' }, eventType: 'e', parameters: { geni: { slice_uuid: SLICE } } });
  });
  after(async () => {
    await server.stop();
  });

  it('lists a slice\'s resources', async () => {
    for (const [target, count] of [[`/nodes?properties.geni.slice_uuid=${SLICE}`, 1], [`/services?properties.geni.slice_uuid=${SLICE}`, 0], [`/metadata?parameters.geni.slice_uuid=${SLICE}`, 1]] as const) {
      const answer = await wire(server.url, { method: 'GET', target, headers });
      assert.equal(answer.status, 200, answer.text);
      assert.equal((answer.body as unknown[]).length, count, target);
    }
  });

  it('asks one resource with the slice filter and gets its matching versions', async () => {
    const mine = await wire(server.url, { method: 'GET', target: `/nodes/in-slice?properties.geni.slice_uuid=${SLICE}`, headers });
    assert.equal(mine.status, 200);
    assert.deepEqual((mine.body as { id: string }[]).map((n) => n.id), ['in-slice']);
    const theirs = await wire(server.url, { method: 'GET', target: `/nodes/other-slice?properties.geni.slice_uuid=${SLICE}`, headers });
    assert.deepEqual(theirs.body, []);
  });

  it('writes measurements with POST, PUT and DELETE, each with a body and Content-Length', async () => {
    const measurement = { service: `${server.url}/services/s1`, configuration: { name: 'ping' }, eventTypes: ['ps:tools:ping'], properties: { geni: { slice_uuid: SLICE } } };
    const created = await wire(server.url, { method: 'POST', target: '/measurements', headers, body: JSON.stringify(measurement) });
    assert.equal(created.status, 201, created.text);
    const replaced = await wire(server.url, { method: 'PUT', target: `/measurements/${created.body.id}`, headers, body: JSON.stringify({ ...measurement, configuration: { name: 'ping', every: 30 } }) });
    assert.equal(replaced.status, 201, replaced.text);
    const deleted = await wire(server.url, { method: 'DELETE', target: `/measurements/${created.body.id}`, headers, body: JSON.stringify({ id: created.body.id }) });
    assert.equal(deleted.status, 204, deleted.text);
    assert.deepEqual((await wire(server.url, { method: 'GET', target: `/measurements?properties.geni.slice_uuid=${SLICE}`, headers })).body, []);
  });
});
