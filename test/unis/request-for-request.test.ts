import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { get, post } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { LIBUNIS_C, PSJSON, PYTHON_REQUESTS_DATA, TYPED_CLIENTS, unisClients, unisSchema, type ClientHeaders } from '../helpers/unis-clients.js';
import { wire } from '../helpers/wire.js';

const run = promisify(execFile);

/**
 * UNIS, request for request, round two (rest-contract §2, §3 and §14, revised 2026-11-29): what
 * each UNIS client sends, answered as UNIS HEAD answered it, every rule held against every
 * client's own headers (test/helpers/unis-clients.ts) and the typed clients beside them.
 */
const TYPED = { accept: 'application/topology+json' };
const clients = (kind: string): [string, ClientHeaders][] => [...unisClients(kind), ...TYPED_CLIENTS];

describe('UNIS, request for request (round two)', function () {
  let server: RunningServer;
  before(async () => {
    server = await startServer();
    await post(`${server.url}/nodes`, { id: 'r2-node', name: 'known', description: 'd' }, TYPED);
  });
  after(async () => {
    await server.stop();
  });

  describe('§2 Accept: parameters other than q never make a 406; perfsonar+json at the highest q is UNIS form', function () {
    const topology = (url: string) => `application/topology+json; profile="${url}/schema/20120709/node#"`;
    const perfsonar = (url: string) => `application/perfsonar+json; profile="${url}/schema/20120709/node#"`;
    const json = () => 'application/json; charset=utf-8';
    const cases: [string, { given: string; want: { status: number; type?: (url: string) => string; form?: 'unis' | 'typed' } }][] = [
      ['perfsonar+json with a profile (a UNIS schema)', { given: `${PSJSON}; profile=${unisSchema('node')}`, want: { status: 200, type: perfsonar, form: 'unis' } }],
      ['perfsonar+json with a quoted profile', { given: `${PSJSON}; profile="${unisSchema('node')}"`, want: { status: 200, type: perfsonar, form: 'unis' } }],
      ['perfsonar+json with a charset', { given: `${PSJSON}; charset=utf-8`, want: { status: 200, type: perfsonar, form: 'unis' } }],
      ['perfsonar+json with a profile after a space (no ;)', { given: `${PSJSON} profile=${unisSchema('node')}`, want: { status: 200, type: perfsonar, form: 'unis' } }],
      ['libunis-c: text/html,application/json,application/perfsonar+json', { given: LIBUNIS_C.find(([k]) => k === 'Accept')![1], want: { status: 200, type: perfsonar, form: 'unis' } }],
      ['perfsonar+json first, json after', { given: `${PSJSON}, application/json`, want: { status: 200, type: perfsonar, form: 'unis' } }],
      ['perfsonar+json at a lower q than json', { given: `${PSJSON};q=0.5, application/json`, want: { status: 200, type: json, form: 'typed' } }],
      ['json and perfsonar+json;q=0.9', { given: `application/json, ${PSJSON};q=0.9`, want: { status: 200, type: json, form: 'typed' } }],
      ['application/json with a charset', { given: 'application/json; charset=utf-8', want: { status: 200, type: json, form: 'typed' } }],
      ['topology+json with a profile of UNIS', { given: `application/topology+json; profile="${unisSchema('node')}"`, want: { status: 200, type: topology, form: 'typed' } }],
      ['*/* with a charset', { given: '*/*; charset=utf-8', want: { status: 200, type: topology, form: 'unis' } }],
      ['text/html alone: still 406', { given: 'text/html', want: { status: 406 } }],
      ['perfsonar+json refused (q=0): 406', { given: `${PSJSON};q=0`, want: { status: 406 } }],
    ];
    for (const [name, { given, want }] of cases) {
      it(`${name}: ${want.status}${want.form ? `, ${want.form} form` : ''}`, async () => {
        const known = await wire(server.url, { method: 'GET', target: '/nodes/r2-node', headers: [['Accept', given]] });
        assert.equal(known.status, want.status, known.text);
        if (want.status !== 200) return;
        assert.equal(known.headers.get('content-type'), want.type!(server.url));
        assert.equal(known.body.id, 'r2-node');
        // The same through Koa (a query string is never the fast path's), and a list.
        for (const target of ['/nodes/r2-node?', '/nodes?id=r2-node']) {
          const answer = await wire(server.url, { method: 'GET', target, headers: [['Accept', given]] });
          assert.equal(answer.status, 200, `${target}: ${answer.text}`);
          assert.equal(answer.headers.get('content-type'), want.type!(server.url), target);
        }
        // The form shows where UNIS clients can tell: an unknown id (§3).
        const unknown = await wire(server.url, { method: 'GET', target: '/nodes/never-written', headers: [['Accept', given]] });
        if (want.form === 'unis') {
          assert.equal(unknown.status, 200, unknown.text);
          assert.deepEqual(unknown.body, []);
        } else {
          assert.equal(unknown.status, 404, unknown.text);
        }
      });
    }

    it('a POST with such an Accept stores and answers in the chosen type', async () => {
      const answer = await wire(server.url, { method: 'POST', target: '/nodes', headers: [['Accept', `${PSJSON}; profile=${unisSchema('node')}`], ['Content-Type', PSJSON]], body: '[{"name":"a"}]' });
      assert.equal(answer.status, 201, answer.text);
      assert.equal(answer.headers.get('content-type'), perfsonar(server.url));
      assert.equal(answer.body.name, 'a', 'a one-element array in UNIS form answers the bare object (§4)');
    });
  });

  describe('§2 a body without Content-Type is read as UNIS\'s media type: POST stores it, PUT merges it', function () {
    const doc = { name: 'second', location: { city: 'Indianapolis' } };
    const cases: [string, { given: ClientHeaders; want: 'update' | 'replace' }][] = clients('node').map(([name, given]) => [name, { given, want: given.unisBody ? 'update' : 'replace' }]);
    for (const [name, { given, want }] of cases) {
      it(`${name}: PUT ${want}s`, async () => {
        const id = `r2-put-${name.replace(/\W+/g, '-')}`;
        await post(`${server.url}/nodes`, { id, $schema: unisSchema('node'), name: 'first', description: 'kept', properties: { rank: 1 } }, TYPED);
        const answer = await wire(server.url, { method: 'PUT', target: `/nodes/${id}`, headers: given.write, body: JSON.stringify(doc) });
        assert.equal(answer.status, 201, answer.text);
        const stored = (await get(`${server.url}/nodes/${id}`, TYPED)).body;
        assert.equal(stored.name, 'second');
        if (want === 'update') {
          assert.equal(stored.description, 'kept');
          assert.deepEqual(stored.properties, { rank: 1 });
          assert.equal(stored.$schema, unisSchema('node'));
        } else {
          assert.equal(stored.description, undefined);
        }
      });
    }

    it('Python requests: requests.put(url, data=json.dumps(doc)) and requests.post merge and store (the real library)', async function () {
      try {
        await run('/usr/bin/python3', ['-c', 'import requests']);
      } catch {
        this.skip();
      }
      await post(`${server.url}/nodes`, { id: 'r2-python', $schema: unisSchema('node'), name: 'first', description: 'kept', properties: { rank: 1 } }, TYPED);
      const script = [
        'import json, sys, requests',
        'base = sys.argv[1]',
        'r = requests.put(base + "/nodes/r2-python", data=json.dumps({"name": "second"}))',
        'assert "Content-Type" not in r.request.headers, r.request.headers',
        'p = requests.post(base + "/nodes", data=json.dumps({"id": "r2-python-new", "name": "new"}))',
        'print(json.dumps([r.status_code, p.status_code, p.json()["id"]]))',
      ].join('\n');
      const { stdout } = await run('/usr/bin/python3', ['-c', script, server.url]);
      assert.deepEqual(JSON.parse(stdout), [201, 201, 'r2-python-new']);
      const stored = (await get(`${server.url}/nodes/r2-python`, TYPED)).body;
      assert.equal(stored.name, 'second');
      assert.equal(stored.description, 'kept', 'nothing lost: the PUT merged');
      assert.deepEqual(stored.properties, { rank: 1 });
      assert.equal(stored.$schema, unisSchema('node'), '$schema as the client sent it');
    });

    it('a POST without Content-Type (Python requests\' bytes) stores the body', async () => {
      const answer = await wire(server.url, { method: 'POST', target: '/nodes', headers: PYTHON_REQUESTS_DATA, body: '{"id": "r2-post-bare", "name": "bare"}' });
      assert.equal(answer.status, 201, answer.text);
      assert.equal((await get(`${server.url}/nodes/r2-post-bare`, TYPED)).body.name, 'bare');
    });
  });

  describe('§3 GET /<c>/<id>?fields=…: a one-element array in UNIS form, the projected object typed', function () {
    const cases: [string, { given: ClientHeaders; want: 'array' | 'object' }][] = clients('node').map(([name, given]) => [name, { given, want: given.typed ? 'object' : 'array' }]);
    for (const [name, { given, want }] of cases) {
      it(`${name}: ${want}`, async () => {
        const answer = await wire(server.url, { method: 'GET', target: '/nodes/r2-node?fields=id,name', headers: given.read });
        assert.equal(answer.status, 200, answer.text);
        const projected = { id: 'r2-node', name: 'known' };
        assert.deepEqual(answer.body, want === 'array' ? [projected] : projected);
      });
    }
  });

  describe('§14 GET /data/<mid> of a mid never registered: 200 [] in UNIS form, the 404 typed', function () {
    const cases: [string, { given: ClientHeaders; want: 200 | 404 }][] = clients('node').map(([name, given]) => [name, { given, want: given.typed ? 404 : 200 }]);
    for (const [name, { given, want }] of cases) {
      it(`${name}: ${want}`, async () => {
        const answer = await wire(server.url, { method: 'GET', target: '/data/never-registered', headers: given.read });
        assert.equal(answer.status, want, answer.text);
        if (want === 200) assert.deepEqual(answer.body, []);
        else assert.match(answer.body.error.message, /register it with POST \/events/);
      });
    }
  });
});
