import assert from 'node:assert/strict';
import { get, post } from '../helpers/http.js';
import { checkAnswer } from '../helpers/openapi.js';
import { registrationOf, until } from '../helpers/federation.js';
import { startServer, type RunningServer } from '../helpers/server.js';

/** A lookup's answer, checked against the OpenAPI document (which describes its Redirect). */
async function ask(url: string, init: RequestInit = {}): Promise<{ status: number; body: any; allow: string | null }> {
  const answer = await fetch(url, init);
  const text = await answer.text();
  checkAnswer({ method: init.method ?? 'GET', url, status: answer.status, contentType: answer.headers.get('content-type'), requestId: answer.headers.get('x-request-id'), text });
  return { status: answer.status, body: text === '' ? undefined : JSON.parse(text), allow: answer.headers.get('allow') };
}

/** rest-contract §13: a lookup answers the collections with the instances that may hold a match. */
describe('lookup mode: redirects from unexpired manifests (rest-contract §13)', function () {
  let lookup: RunningServer;
  let a: RunningServer;
  let b: RunningServer;
  before(async () => {
    lookup = await startServer({ env: { LOOKUP: 'true' } });
    const env = (communities: string) => ({ REGISTER_URLS: lookup.url, REGISTER_INTERVAL_MS: '200', REGISTER_COMMUNITIES: communities });
    a = await startServer({ env: env('alpha') });
    b = await startServer({ env: env('beta') });
    assert.equal((await post(`${a.url}/nodes`, { name: 'a1', properties: { geni: { slice: 's1' } } })).status, 201);
    assert.equal((await post(`${b.url}/nodes`, { name: 'b1', location: { latitude: 39.5 } })).status, 201);
    assert.equal((await post(`${b.url}/ports`, { name: 'eth0' })).status, 201);
    await registrationOf(lookup, a.url, (r) => r.properties.summary.some((m) => m.$collection === 'nodes'));
    await registrationOf(lookup, b.url, (r) => r.properties.summary.some((m) => m.$collection === 'ports'));
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
    await lookup?.stop();
  });

  const redirects: [string, { given: string; want: ('a' | 'b')[] }][] = [
    ['a value only a holds', { given: '/nodes?name=a1', want: ['a'] }],
    ['a value only b holds', { given: '/nodes?name=b1', want: ['b'] }],
    ['either, ORed', { given: '/nodes?name=a1|name=b1', want: ['a', 'b'] }],
    ['an IN list', { given: '/nodes?name=b1,zz', want: ['b'] }],
    ['a nested field', { given: '/nodes?properties.geni.slice=s1', want: ['a'] }],
    ['a number', { given: '/nodes?location.latitude=39.5', want: ['b'] }],
    ['a value nobody holds', { given: '/nodes?name=zz', want: [] }],
    ['a field nobody has', { given: '/nodes?urn=x', want: [] }],
    ['no condition: every instance with nodes', { given: '/nodes', want: ['a', 'b'] }],
    ['a collection only b has', { given: '/ports', want: ['b'] }],
    ['an id: every instance', { given: '/nodes?id=whatever', want: ['a', 'b'] }],
    ['one resource by path: every instance', { given: '/nodes/whatever', want: ['a', 'b'] }],
    ['an operator the sets cannot decide', { given: '/nodes?name=reg=^a', want: ['a', 'b'] }],
  ];
  for (const [name, { given, want }] of redirects) {
    it(`${given}: ${name}`, async () => {
      const answer = await ask(`${lookup.url}${given}`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.redirect, true);
      const urls = { a: a.url, b: b.url };
      assert.deepEqual([...answer.body.instances].sort(), want.map((w) => urls[w]).sort());
    });
  }

  it('405 for writes to the collections; /register takes them', async () => {
    for (const [method, path] of [['POST', '/nodes'], ['PUT', '/nodes/x'], ['PATCH', '/nodes/x'], ['DELETE', '/nodes/x']] as const) {
      const answer = await ask(`${lookup.url}${path}`, { method, headers: { 'Content-Type': 'application/json' }, body: method === 'DELETE' ? null : '{"name":"x"}' });
      assert.equal(answer.status, 405, `${method} ${path}`);
      assert.equal(answer.body.error.status, 405);
      assert.equal(answer.allow, 'GET, HEAD');
    }
  });

  it('/about: haschild and a depth one more than its children', async () => {
    const about = await get(`${lookup.url}/about`);
    assert.equal(about.body.haschild, true);
    assert.equal(about.body.depth, 1);
    assert.equal((await get(`${a.url}/about`)).body.haschild, false);
  });

  it("UNISrt's from_community: the accessPoints of a community", async () => {
    const answer = await get(`${lookup.url}/register?fields=communities,accessPoint&communities=alpha`, { Accept: 'application/perfsonar+json' });
    assert.deepEqual(answer.body.map((r: { accessPoint: string }) => r.accessPoint), [a.url]);
  });

  it('an instance that stops reporting expires (ts + ttl and half its ttl of grace) and leaves the redirects, but stays in /register', async () => {
    const gone = b.url;
    await b.stop();
    await until('b to expire', async () => ((await ask(`${lookup.url}/nodes`)).body.instances.includes(gone) ? undefined : true));
    assert.deepEqual((await ask(`${lookup.url}/nodes`)).body.instances, [a.url]);
    assert.equal((await get(`${lookup.url}/register?accessPoint=${encodeURIComponent(gone)}`)).body.length, 1);
  });
});

describe('a lookup with no registration at all answers [] as UNIS does', function () {
  let lookup: RunningServer;
  before(async () => {
    lookup = await startServer({ env: { LOOKUP: 'true' } });
  });
  after(async () => {
    await lookup?.stop();
  });
  it('GET /nodes → []', async () => {
    const answer = await ask(`${lookup.url}/nodes?name=x`);
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, []);
  });
});
