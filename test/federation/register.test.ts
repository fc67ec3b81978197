import assert from 'node:assert/strict';
import { get, patch, post, put } from '../helpers/http.js';
import { hashToken } from '../../server/tokens.js';
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
  /** PUT and PATCH keep a registration keyed by its accessPoint, as POST does. */
  const rewrites: [string, { method: 'PUT' | 'PATCH'; path: 'own' | 'other'; body: Record<string, unknown>; want: number; accessPoint?: string }][] = [
    ['PUT with the accessPoint, a trailing slash normalised', { method: 'PUT', path: 'own', body: { accessPoint: 'http://keyed.example:8888/', ttl: 60 }, want: 201, accessPoint: 'http://keyed.example:8888' }],
    ['PUT moving it to another accessPoint', { method: 'PUT', path: 'own', body: { accessPoint: 'http://other.example:8888', ttl: 60 }, want: 400 }],
    ['PUT of an id that is not the accessPoint\'s', { method: 'PUT', path: 'other', body: { accessPoint: 'http://keyed.example:8888', ttl: 60 }, want: 400 }],
    ['PATCH of another field', { method: 'PATCH', path: 'own', body: { communities: ['z'] }, want: 200, accessPoint: 'http://keyed.example:8888' }],
    ['PATCH of the accessPoint with a trailing slash', { method: 'PATCH', path: 'own', body: { accessPoint: 'http://keyed.example:8888/' }, want: 200, accessPoint: 'http://keyed.example:8888' }],
    ['PATCH moving it to another accessPoint', { method: 'PATCH', path: 'own', body: { accessPoint: 'http://other.example:8888' }, want: 400 }],
  ];
  for (const [name, { method, path, body, want, accessPoint }] of rewrites) {
    it(`${method}: ${name} → ${want}`, async () => {
      const stored = await post(`${server.url}/register`, registration('http://keyed.example:8888', ['alpha']));
      assert.equal(stored.status, 201, stored.text);
      const id = path === 'own' ? stored.body.id : 'f'.repeat(32);
      const answer = await (method === 'PUT' ? put : patch)(`${server.url}/register/${id}`, body);
      assert.equal(answer.status, want, answer.text);
      if (want === 400) assert.ok(answer.body.error.details.some((d: { path: string }) => d.path === '/accessPoint'), answer.text);
      else assert.equal(answer.body.accessPoint, accessPoint);
      // Never a registration under an id its accessPoint does not derive.
      const all = await get(`${server.url}/register?accessPoint=reg=keyed|accessPoint=reg=other`);
      assert.deepEqual(all.body.map((r: { id: string; accessPoint: string }) => [r.id, r.accessPoint]), [[stored.body.id, 'http://keyed.example:8888']]);
    });
  }
});

describe('/register with tokens: POST needs the register scope (rest-contract §13)', function () {
  const tokens = { reporter: 'reporter-token-0123456789', writer: 'writer-token-0123456789' };
  let server: RunningServer;
  before(async () => {
    const configured = JSON.stringify({
      tokens: [
        { name: 'reporter', hash: hashToken(tokens.reporter), scopes: ['register'] },
        { name: 'writer', hash: hashToken(tokens.writer), scopes: ['read', 'create', 'update', 'delete'] },
      ],
    });
    server = await startServer({ env: { TOPOCAT_TOKENS: configured } });
  });
  after(async () => {
    await server.stop();
  });

  const cases: [string, { token: keyof typeof tokens | undefined; path: string; want: number }][] = [
    ['the register scope registers', { token: 'reporter', path: '/register', want: 201 }],
    ['create without register does not', { token: 'writer', path: '/register', want: 401 }],
    ['no credentials do not', { token: undefined, path: '/register', want: 401 }],
    ['register alone creates nothing else', { token: 'reporter', path: '/nodes', want: 401 }],
  ];
  for (const [name, { token, path, want }] of cases) {
    it(`${name}: POST ${path} → ${want}`, async () => {
      const answer = await post(`${server.url}${path}`, { accessPoint: 'http://scoped.example', name: 'n' }, token ? { Authorization: `Bearer ${tokens[token]}` } : {});
      assert.equal(answer.status, want, answer.text);
    });
  }
});
