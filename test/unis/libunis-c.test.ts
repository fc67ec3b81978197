import assert from 'node:assert/strict';
import { startServer, type RunningServer } from '../helpers/server.js';
import { LIBUNIS_C } from '../helpers/unis-clients.js';
import { wire } from '../helpers/wire.js';

/**
 * libunis-c (periscope-ps/libunis-c@9d997dc), the registration heartbeat of C services (IBP
 * depots), as unis-clients.md §2.5 records it: libcurl with a list in Content-Type and in
 * Accept; the service POSTed every interval with the client's own `ts`, and from the second time
 * on with the `id` the first answer gave: every answer must be 201.
 */
const headers = LIBUNIS_C;

describe('UNIS clients: libunis-c', function () {
  let server: RunningServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.stop();
  });

  it('registers, then re-registers the same id every interval: a new version each time, 201 each time', async () => {
    const service: Record<string, unknown> = {
      status: 'ON',
      $schema: 'http://unis.crest.iu.edu/schema/20160630/service#',
      serviceType: 'ibp_server',
      name: 'ibp_server',
      accessPoint: 'ibp://10.0.0.7:6714',
      ttl: 600,
      location: { institution: 'IU', city: 'Bloomington', state: 'IN', country: 'US', latitude: 39.17, longitude: -86.52 },
      listeners: [{ tcp: '10.0.0.7/6714' }],
    };
    let sid: string | undefined;
    const versions: number[] = [];
    for (let beat = 0; beat < 3; beat++) {
      const body = { ...service, ts: (Date.now() + beat) * 1000, ...(sid ? { id: sid } : {}) };
      const answer = await wire(server.url, { method: 'POST', target: '/services', headers, body: JSON.stringify(body) });
      assert.equal(answer.status, 201, answer.text);
      sid ??= answer.body.id as string;
      assert.equal(answer.body.id, sid);
      versions.push(answer.body.ts);
    }
    assert.deepEqual([...versions].sort((a, b) => a - b), versions, 'each heartbeat a later version');
    const query = await wire(server.url, { method: 'GET', target: '/services?serviceType=ibp_server', headers: [['Accept', 'application/json,application/perfsonar+json']] });
    assert.equal(query.status, 200);
    assert.equal((query.body as unknown[]).length, 1, 'one service, however many heartbeats');
  });
});
