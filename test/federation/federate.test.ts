import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { post } from '../helpers/http.js';
import { registrationOf } from '../helpers/federation.js';
import { startServer, type RunningServer } from '../helpers/server.js';

/** Each instance reports every 2 s (ttl 4 s): a loaded machine's late report does not expire it mid-test (with 200 ms, the ttl is 1 s). */
const REPORT_EVERY_MS = '2000';

async function ask(url: string): Promise<{ status: number; body: any; partial: string | null }> {
  const answer = await fetch(url);
  return { status: answer.status, body: await answer.json(), partial: answer.headers.get('federation-partial') };
}

/** rest-contract §13, beyond UNIS: `federate=true` runs the query on the instances and merges the lists. */
describe('federate=true: one query over every instance, the failed ones named (rest-contract §13)', function () {
  let lookup: RunningServer;
  let a: RunningServer;
  let b: RunningServer;
  let silent: Server;
  let silentUrl: string;
  const unreachable = 'http://127.0.0.1:9';
  before(async () => {
    // An instance that takes requests and never answers them.
    silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    lookup = await startServer({ env: { LOOKUP: 'true', FEDERATE_TIMEOUT_MS: '500' } });
    const env = { REGISTER_URLS: lookup.url, REGISTER_INTERVAL_MS: REPORT_EVERY_MS };
    a = await startServer({ env });
    b = await startServer({ env });
    for (const name of ['a2', 'a1']) assert.equal((await post(`${a.url}/nodes`, { name, description: 'site a' })).status, 201);
    assert.equal((await post(`${b.url}/nodes`, { name: 'b1', description: 'site b' })).status, 201);
    await registrationOf(lookup, a.url, (r) => r.properties.summary.some((m) => m.$collection === 'nodes'));
    await registrationOf(lookup, b.url, (r) => r.properties.summary.some((m) => m.$collection === 'nodes'));
    for (const accessPoint of [unreachable, silentUrl]) {
      const registered = await post(`${lookup.url}/register`, { accessPoint, ttl: 3600, properties: { summary: [{ $collection: 'nodes', properties: { name: ['zz'], description: '*' } }] } });
      assert.equal(registered.status, 201, registered.text);
    }
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
    await lookup?.stop();
    silent?.closeAllConnections();
    silent?.close();
  });

  const cases: [string, { given: string; want: string[]; partial: boolean }][] = [
    ['sorted over the merged list', { given: 'sort=name', want: ['a1', 'a2', 'b1'], partial: true }],
    ['descending', { given: 'sort=name:-1', want: ['b1', 'a2', 'a1'], partial: true }],
    ['skip and limit over the merged list', { given: 'sort=name&skip=1&limit=1', want: ['a2'], partial: true }],
    ['a condition asks only the instances that may match', { given: 'name=b1', want: ['b1'], partial: false }],
    ['a condition on another field', { given: 'description=site%20a&sort=name', want: ['a1', 'a2'], partial: true }],
  ];
  for (const [name, { given, want, partial }] of cases) {
    it(`${given}: ${name}`, async () => {
      const answer = await ask(`${lookup.url}/nodes?federate=true&${given}`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.deepEqual(answer.body.map((n: { name: string }) => n.name), want);
      if (partial) {
        assert.match(answer.partial ?? '', new RegExp(`${unreachable}; reason="unreachable"`));
        assert.match(answer.partial ?? '', new RegExp(`${silentUrl}; reason="no answer within 500 ms"`));
      } else assert.equal(answer.partial, null);
    });
  }

  it('every element as its instance answered it: its selfRef stays the instance\'s', async () => {
    const answer = await ask(`${lookup.url}/nodes?federate=true&sort=name`);
    assert.ok(answer.body[0].selfRef.startsWith(`${a.url}/nodes/`));
    assert.ok(answer.body[2].selfRef.startsWith(`${b.url}/nodes/`));
  });

  it('without federate the lookup redirects', async () => {
    const answer = await ask(`${lookup.url}/nodes?name=b1`);
    assert.deepEqual(answer.body, { redirect: true, instances: [b.url] });
  });
});
