import assert from 'node:assert/strict';
import { get, post } from '../helpers/http.js';
import { registrationOf } from '../helpers/federation.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { startUnisHead, type UnisHeadInstance } from '../helpers/unis-head.js';

/** Each topocat instance reports every 2 s (ttl 4 s), as in federate.test.ts. */
const REPORT_EVERY_MS = '2000';

/**
 * rest-contract §13, revised 2026-11-29: a real UNIS instance in a topocat federation. A UNIS
 * HEAD instance (a faithful stand-in: test/helpers/unis-head.ts) registered on a topocat lookup
 * exactly as UNIS registers, beside two topocat instances: the lookup asks each instance in UNIS
 * form (`Accept: application/perfsonar+json`), which UNIS HEAD answers (it answers
 * `application/json` with a 500), reads its `application/perfsonar+json; profile=…` answer, and
 * its nodes reach the merged list.
 */
describe('federate=true with a UNIS HEAD instance in the federation (rest-contract §13, revised 2026-11-29)', function () {
  let lookup: RunningServer;
  let a: RunningServer;
  let b: RunningServer;
  let unis: UnisHeadInstance;
  before(async () => {
    lookup = await startServer({ env: { LOOKUP: 'true', FEDERATE_TIMEOUT_MS: '5000' } });
    const env = { REGISTER_URLS: lookup.url, REGISTER_INTERVAL_MS: REPORT_EVERY_MS };
    [a, b] = await Promise.all([startServer({ env }), startServer({ env })]);
    assert.equal((await post(`${a.url}/nodes`, { name: 'a1', description: 'site a' })).status, 201);
    assert.equal((await post(`${b.url}/nodes`, { name: 'b1', description: 'site b' })).status, 201);
    const now = Date.now() * 1000;
    unis = await startUnisHead([
      { id: 'u-older', ts: now - 2_000_000, name: 'u1', description: 'unis' },
      { id: 'u-newer', ts: now - 1_000_000, name: 'u2', description: 'unis' },
    ]);
    // UNIS reports with ttl equal to its period (UNIS's default, an hour).
    assert.equal(await unis.register(lookup.url, { period: 3600, communities: ['alpha'] }), 201);
    await registrationOf(lookup, a.url, (r) => r.properties.summary.some((m) => m.$collection === 'nodes'));
    await registrationOf(lookup, b.url, (r) => r.properties.summary.some((m) => m.$collection === 'nodes'));
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
    await lookup?.stop();
    await unis?.close();
  });

  it('the stand-in answers as UNIS HEAD: 500 to application/json, the list to perfsonar+json and */*', async () => {
    const cases: [string, { accept: string | undefined; status: number; type: RegExp }][] = [
      ['application/json', { accept: 'application/json', status: 500, type: /^text\/html/ }],
      ['application/perfsonar+json', { accept: 'application/perfsonar+json', status: 200, type: /^application\/perfsonar\+json; profile=http:\/\/unis\.crest\.iu\.edu\/schema\/20160630\/node#$/ }],
      ['*/*', { accept: '*/*', status: 200, type: /^application\/perfsonar\+json; profile=/ }],
    ];
    for (const [name, { accept, status, type }] of cases) {
      const answer = await fetch(`${unis.url}/nodes`, { headers: accept === undefined ? {} : { Accept: accept } });
      await answer.arrayBuffer();
      assert.equal(answer.status, status, name);
      assert.match(answer.headers.get('content-type') ?? '', type, name);
    }
  });

  it('its registration, posted as UNIS posts it, is stored under its accessPoint and named by the redirect', async () => {
    const registered = await get(`${lookup.url}/register?accessPoint=${encodeURIComponent(unis.url)}`);
    assert.equal(registered.status, 200);
    assert.equal(registered.body.length, 1, registered.text);
    assert.equal(registered.body[0].ttl, 3600);
    const redirect = await get(`${lookup.url}/nodes?name=u1`);
    assert.deepEqual(redirect.body, { redirect: true, instances: [unis.url] });
  });

  const cases: [string, { given: string; want: string[]; ordered: boolean; asked: boolean }][] = [
    ['no sort: every instance\'s nodes, UNIS\'s among them', { given: '', want: ['a1', 'b1', 'u1', 'u2'], ordered: false, asked: true }],
    ['sorted over the merged list', { given: 'sort=name', want: ['a1', 'b1', 'u1', 'u2'], ordered: true, asked: true }],
    ['descending', { given: 'sort=name:-1', want: ['u2', 'u1', 'b1', 'a1'], ordered: true, asked: true }],
    ['skip and limit over the merged list', { given: 'sort=name&skip=1&limit=2', want: ['b1', 'u1'], ordered: true, asked: true }],
    ['a condition only the UNIS instance may match', { given: 'name=u2', want: ['u2'], ordered: true, asked: true }],
    ['a condition the UNIS instance cannot match: not asked', { given: 'name=a1', want: ['a1'], ordered: true, asked: false }],
  ];
  for (const [name, { given, want, ordered, asked }] of cases) {
    it(`${given === '' ? '(no query)' : given}: ${name}`, async () => {
      const before = unis.accepts.length;
      const answer = await get(`${lookup.url}/nodes?federate=true${given === '' ? '' : `&${given}`}`, { Accept: 'application/json' });
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.headers.get('federation-partial'), null, 'no instance left out');
      const names = answer.body.map((n: { name: string }) => n.name);
      assert.deepEqual(ordered ? names : [...names].sort(), want);
      // Asked in UNIS form, once, or not at all.
      assert.deepEqual(unis.accepts.slice(before), asked ? ['application/perfsonar+json'] : []);
      for (const node of answer.body as { name: string; selfRef: string }[]) {
        if (node.name.startsWith('u')) assert.equal(node.selfRef, `${unis.url}/nodes/u-${node.name === 'u1' ? 'older' : 'newer'}`, 'as UNIS answered it');
      }
    });
  }
});
