import assert from 'node:assert/strict';
import { del, post } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { wire } from '../helpers/wire.js';

/**
 * rest-contract.md §3 (revised 2026-11-26): an unknown id on GET answers UNIS HEAD's `200 []` to
 * UNIS-form requests and 404 to typed ones. The headers are those the clients send
 * (unis-clients.md §2): dlt-web `request.get({url})` with none (datalogistics/dlt-web@8eec5b2
 * `app/routes.js:384-405`; it reads an array as "no longer exists", `:126-213`); BLiPP
 * `Accept: application/perfsonar+json` and the GET body `null` (periscope-ps/blipp@002d08e
 * `blipp/periscope_client.py:80-82`, `blipp/http.py:32-38`); its measurement-store client
 * `Accept` of any type (`ms_client.py:27-62`); UNISrt `Accept: application/perfsonar+json`
 * (periscope-ps/UNISrt@5647648 `unis/rest/unis_client.py:249,517`); the SDK
 * `application/topology+json`; libunis-c `text/html,application/json,application/perfsonar+json`
 * (periscope-ps/libunis-c@9d997dc `src/curl_context.c:146-152`), which names application/json
 * but also perfsonar+json at the same (highest) q: UNIS form (rest-contract §2, revised 2026-11-29).
 */
const forms: [string, { headers: [string, string][]; body?: string; want: 200 | 404 }][] = [
  ['dlt-web: no Accept', { headers: [['Connection', 'close']], want: 200 }],
  ['BLiPP: perfsonar+json and the body null', { headers: [['Accept', 'application/perfsonar+json'], ['Content-Type', 'application/perfsonar+json']], body: 'null', want: 200 }],
  ['ms_client and curl: */*', { headers: [['Accept', '*/*']], want: 200 }],
  ['application/json refused with q=0', { headers: [['Accept', 'application/json;q=0, */*']], want: 200 }],
  ['the SDK: application/topology+json', { headers: [['Accept', 'application/topology+json']], want: 404 }],
  ['a typed client: application/json', { headers: [['Accept', 'application/json']], want: 404 }],
  ['libunis-c: a list naming perfsonar+json at the highest q', { headers: [['Accept', 'text/html,application/json,application/perfsonar+json']], want: 200 }],
  ['a list naming perfsonar+json below application/json', { headers: [['Accept', 'application/json, application/perfsonar+json;q=0.5']], want: 404 }],
  ['perfsonar+json with a profile', { headers: [['Accept', 'application/perfsonar+json; profile=http://unis.crest.iu.edu/schema/20160630/node#']], want: 200 }],
];

describe('an unknown id on GET: UNIS HEAD\'s 200 [] or 404 (rest-contract §3)', function () {
  let server: RunningServer;
  let deleted: string;
  let live: { id: string; ts: number };
  before(async () => {
    server = await startServer();
    deleted = (await post(`${server.url}/nodes`, { name: 'gone' })).body.id;
    assert.equal((await del(`${server.url}/nodes/${deleted}`)).status, 204);
    live = (await post(`${server.url}/nodes`, { name: 'here' })).body;
  });
  after(async () => {
    await server.stop();
  });

  for (const [name, { headers, body, want }] of forms) {
    const targets = () => [
      ['never written', '/nodes/never-written?'],
      ['deleted', `/nodes/${deleted}`],
      ['never written, with a condition', '/nodes/never-written?name=x'],
      ['an unknown ts of a live one', `/nodes/${live.id}?ts=1`],
      ['an unknown ts with a condition', `/nodes/${live.id}?ts=1&name=here`],
    ];
    it(`${name}: ${want === 200 ? '200 []' : '404 with the error body'}`, async () => {
      for (const [what, target] of targets()) {
        const answer = await wire(server.url, { method: 'GET', target: target!, headers, ...(body === undefined ? {} : { body }) });
        assert.equal(answer.status, want, `${what}: ${answer.text}`);
        if (want === 200) assert.deepEqual(answer.body, [], what);
        else assert.equal(answer.body.error.status, 404, what);
        const head = await wire(server.url, { method: 'HEAD', target: target!, headers });
        assert.equal(head.status, want, `HEAD, ${what}`);
      }
      const known = await wire(server.url, { method: 'GET', target: `/nodes/${live.id}`, headers });
      assert.equal(known.status, 200);
      assert.equal(known.body.id, live.id, 'a known id is an object whatever the form');
    });
  }

  it('PUT and PATCH of an unknown id stay 404 in UNIS form; DELETE answers UNIS HEAD\'s 204 (rest-contract §3, revised 2026-11-28)', async () => {
    for (const [method, want] of [['PUT', 404], ['PATCH', 404], ['DELETE', 204]] as const) {
      const answer = await wire(server.url, { method, target: '/nodes/never-written', headers: [['Content-Type', 'application/perfsonar+json']], body: '{"name":"x"}' });
      assert.equal(answer.status, want, method);
    }
  });
});
