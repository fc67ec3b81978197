import assert from 'node:assert/strict';
import { get } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { startUnisHead, type UnisHeadInstance } from '../helpers/unis-head.js';

/** The UNIS instance's report period, so its ttl (UNIS reports with ttl = period), in seconds. */
const PERIOD = 12;
/** How long before the boundary a probe that must still count is sent, in seconds: the time its requests may take on a loaded machine. */
const MARGIN = 2.5;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * rest-contract §13, revised 2026-11-29: a registration is expired only once `ts + ttl` plus a
 * grace of half its `ttl` has passed, so a UNIS instance (ttl = its period) does not lapse
 * between two reports. One registration posted as UNIS posts it, then every interface that
 * decides by expiry asked just before and just after `ts + 1.5 ttl`: the redirect, the redirect
 * of a query on `ts` alone (what /ui of a lookup reads its instances from), `federate=true`, and
 * `/about`'s depth.
 */
describe('registrations expire at ts + ttl + ttl/2 (rest-contract §13, revised 2026-11-29)', function () {
  this.timeout(60_000);
  let lookup: RunningServer;
  let unis: UnisHeadInstance;
  let ts: number;
  before(async () => {
    lookup = await startServer({ env: { LOOKUP: 'true', FEDERATE_TIMEOUT_MS: '5000' } });
    unis = await startUnisHead([{ id: 'u1', ts: Date.now() * 1000, name: 'u1' }]);
    // A UNIS instance that is itself a lookup of depth 1: /about of this lookup says 2 while it counts.
    assert.equal(await unis.register(lookup.url, { period: PERIOD, depth: 1 }), 201);
    ts = (await get(`${lookup.url}/register?accessPoint=${encodeURIComponent(unis.url)}`)).body[0].ts;
  });
  after(async () => {
    await lookup?.stop();
    await unis?.close();
  });

  const boundary = PERIOD * 1.5;
  const cases: [string, { at: number; counts: boolean }][] = [
    ['past ts + ttl, inside the grace: still counts', { at: PERIOD + 1.5, counts: true }],
    ['just before ts + 1.5 ttl: still counts', { at: boundary - MARGIN, counts: true }],
    ['just after ts + 1.5 ttl: expired', { at: boundary + 0.5, counts: false }],
  ];
  for (const [name, { at, counts }] of cases) {
    it(`ts + ${at} s with ttl ${PERIOD} s: ${name}`, async () => {
      const wait = ts / 1000 + at * 1000 - Date.now();
      // Each case is asked at its moment; a case that comes too late cannot tell.
      assert.ok(counts ? wait > 0 : true, `the probe at ts + ${at} s came ${-wait} ms late`);
      await sleep(Math.max(0, wait));
      const sent = Date.now();
      const [redirect, everywhere, federated, about] = await Promise.all([
        get(`${lookup.url}/nodes?name=u1`),
        get(`${lookup.url}/nodes?ts=gte=0`),
        get(`${lookup.url}/nodes?federate=true`, { Accept: 'application/json' }),
        get(`${lookup.url}/about`),
      ]);
      // Answered before the boundary, so decided before it (a machine too loaded for that cannot tell).
      if (counts) assert.ok(Date.now() < ts / 1000 + boundary * 1000, `answered ${Date.now() - sent} ms after it was sent, past the boundary`);
      const named = counts ? [unis.url] : [];
      assert.deepEqual(redirect.body, { redirect: true, instances: named }, 'the redirect');
      assert.deepEqual(everywhere.body, { redirect: true, instances: named }, 'a query on ts alone (/ui of a lookup)');
      assert.deepEqual(federated.body.map((n: { name: string }) => n.name), counts ? ['u1'] : [], 'federate=true');
      assert.equal(about.body.depth, counts ? 2 : 1, '/about');
    });
  }

  it('an expired registration stays in /register with its history', async () => {
    const answer = await get(`${lookup.url}/register?accessPoint=${encodeURIComponent(unis.url)}`);
    assert.equal(answer.body.length, 1);
  });
});
