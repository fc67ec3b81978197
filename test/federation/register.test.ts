import assert from 'node:assert/strict';
import { get, post } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';

/** rest-contract §13: `/register`, a collection of `service` representations keyed by accessPoint. */
describe('/register: registrations as service representations (rest-contract §13)', function () {
  let server: RunningServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.stop();
  });

  const registration = (accessPoint: string, communities: string[], extra: Record<string, unknown> = {}) => ({
    accessPoint,
    name: 'site',
    status: 'ON',
    serviceType: 'ps:tools:unis',
    ttl: 600,
    communities,
    properties: { summary: [{ $collection: 'nodes', properties: { name: ['a', 'b'], 'properties.geni.slice': '*' } }], depth: 0 },
    ...extra,
  });

  it('a second report for one accessPoint is a new version of the same registration, whatever id it sent', async () => {
    const first = await post(`${server.url}/register`, registration('http://site-a.example:8888', ['alpha']));
    assert.equal(first.status, 201, first.text);
    assert.match(first.body.$schema, /\/service#$/);
    const second = await post(`${server.url}/register`, registration('http://site-a.example:8888/', ['alpha', 'beta'], { id: 'another-id' }));
    assert.equal(second.status, 201, second.text);
    assert.equal(second.body.id, first.body.id);
    assert.ok(second.body.ts > first.body.ts);
    const all = await get(`${server.url}/register?accessPoint=http://site-a.example:8888`);
    assert.equal(all.body.length, 1);
    assert.deepEqual(all.body[0].communities, ['alpha', 'beta']);
    const versions = await get(`${server.url}/register/${first.body.id}?ts=gt=0`);
    assert.equal(versions.status, 200, versions.text);
    assert.equal(versions.body.length, 2);
  });

  it("answers UNISrt's from_community request: the accessPoints of a community", async () => {
    await post(`${server.url}/register`, registration('http://site-b.example:8888', ['beta']));
    await post(`${server.url}/register`, registration('http://site-c.example:8888', ['gamma']));
    // periscope-ps/UNISrt `from_community`: GET /register?fields=communities,accessPoint&communities=<label>
    const answer = await get(`${server.url}/register?fields=communities,accessPoint&communities=beta`, { Accept: 'application/perfsonar+json' });
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(answer.body.map((r: { accessPoint: string }) => r.accessPoint).sort(), ['http://site-a.example:8888', 'http://site-b.example:8888']);
  });

  const refused: [string, { given: unknown; want: string }][] = [
    ['no accessPoint', { given: { name: 'x' }, want: '/accessPoint' }],
    ['an accessPoint that is no URL', { given: { accessPoint: 'site-a' }, want: '/accessPoint' }],
    ['an accessPoint of another scheme', { given: { accessPoint: 'file:///etc/passwd' }, want: '/accessPoint' }],
    ['communities that are not strings', { given: { accessPoint: 'http://x.example', communities: [1] }, want: '/communities' }],
    ['a summary that is not manifests', { given: { accessPoint: 'http://x.example', properties: { summary: [{ $collection: 'nodes', properties: { name: 3 } }] } }, want: '/properties/summary/0/properties/name' }],
  ];
  for (const [name, { given, want }] of refused) {
    it(`400 for ${name}, naming ${want}`, async () => {
      const answer = await post(`${server.url}/register`, given);
      assert.equal(answer.status, 400, answer.text);
      assert.ok(answer.body.error.details.some((d: { path: string }) => d.path === want), answer.text);
      assert.equal((await get(`${server.url}/register?accessPoint=http://x.example`)).body.length, 0);
    });
  }
});
