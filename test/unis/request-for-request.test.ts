import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { get, post } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { LIBUNIS_C, PSJSON, PYTHON_REQUESTS_DATA, TYPED_CLIENTS, unisClients, unisSchema, type ClientHeaders } from '../helpers/unis-clients.js';
import { wire } from '../helpers/wire.js';
import { SocketClient } from '../helpers/subscribers.js';
import { TopologyClient } from '../../generated/client/rest.js';
import { UNISRT_AIOHTTP } from '../helpers/unis-clients.js';

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
  describe('§3 ids: any character but / ? # whitespace and controls, up to 1,024 bytes, stored and addressed as sent', function () {
    const unisrt = UNISRT_AIOHTTP;
    // [name, {given: the id, want: the selfRef's last segment}]
    const ids: [string, { given: string; want: string }][] = [
      ['a URN', { given: 'urn:ogf:network:domain=example.net:node=VM-0:port=if0', want: 'urn:ogf:network:domain=example.net:node=VM-0:port=if0' }],
      ['unisencoder\'s %3A', { given: 'urn:ogf:network:domain=geni.net:node=VM-0%3Aif0', want: 'urn:ogf:network:domain=geni.net:node=VM-0%3Aif0' }],
      ['GENI\'s + and @', { given: 'urn:publicid:IDN+emulab.net+sliver+12345@pc1', want: 'urn:publicid:IDN+emulab.net+sliver+12345@pc1' }],
      ['every sub-delim', { given: "a!$&'()*+,;=b", want: "a!$&'()*+,;=b" }],
      ['characters outside pchar are encoded', { given: 'a"b[c]{d}|e^f`g\\h<i>', want: 'a%22b%5Bc%5D%7Bd%7D%7Ce%5Ef%60g%5Ch%3Ci%3E' }],
      ['non-ASCII (UTF-8)', { given: 'nœud-ü', want: 'n%C5%93ud-%C3%BC' }],
      ['1,024 bytes', { given: `x${'é'.repeat(511)}y`, want: `x${'%C3%A9'.repeat(511)}y` }],
    ];
    for (const [name, { given, want }] of ids) {
      it(`${name}: stored as sent, selfRef as UNIS wrote it, found at the id as sent and percent-encoded`, async () => {
        const collection = 'ports';
        const expected = `${server.url}/${collection}/${want}`;
        // UNISrt POSTs an array, each with a selfRef it built as {url}/{collection}/{id}.
        const created = await wire(server.url, { method: 'POST', target: `/${collection}`, headers: unisrt, body: JSON.stringify([{ id: given, selfRef: `${server.url}/${collection}/${given}`, $schema: unisSchema('port'), name: 'p', description: 'kept' }]) });
        assert.equal(created.status, 201, created.text);
        assert.equal(created.body.id, given);
        assert.equal(created.body.selfRef, expected);
        assert.equal(created.headers.get('location'), expected);
        // Where the id is a valid segment, the client's joined address equals the selfRef as a string.
        if (want === given) assert.equal(`${server.url}/${collection}/${given}`, created.body.selfRef);
        const targets = [...new Set([`/${collection}/${want}`, `/${collection}/${encodeURIComponent(given)}`, `/${collection}/${want}/`, `/${collection}/${want}?`])];
        for (const target of targets) {
          const read = await wire(server.url, { method: 'GET', target, headers: unisrt });
          assert.equal(read.status, 200, `${target}: ${read.text}`);
          assert.equal(read.body.id, given, target);
          assert.equal(read.body.selfRef, expected, target);
        }
        // The SDK writes the path of the id itself.
        const sdk = new TopologyClient({ baseUrl: server.url });
        assert.equal((await sdk.ports.get(given)).value.id, given);
        // PUT in UNIS's type merges, PATCH patches, DELETE deletes: all at the selfRef.
        const put = await wire(server.url, { method: 'PUT', target: `/${collection}/${want}`, headers: unisrt, body: JSON.stringify({ name: 'q' }) });
        assert.equal(put.status, 201, put.text);
        assert.equal(put.body.description, 'kept');
        assert.equal(put.headers.get('location'), expected);
        const patched = await wire(server.url, { method: 'PATCH', target: `/${collection}/${encodeURIComponent(given)}`, headers: [['Content-Type', 'application/merge-patch+json']], body: '{"name":"r"}' });
        assert.equal(patched.status, 200, patched.text);
        assert.equal(patched.body.name, 'r');
        // selfRef= finds it (the value percent-encoded in the query string, as any encoder writes it);
        // a `,` or `|` in a value cannot be asked for (§5: the query is decoded before it is parsed).
        if (!/[,|]/.test(given)) {
          const byRef = await wire(server.url, { method: 'GET', target: `/${collection}?selfRef=${encodeURIComponent(expected)}`, headers: [['Accept', 'application/json']] });
          assert.deepEqual(byRef.body.map((p: { id: string }) => p.id), [given], byRef.text);
        }
        assert.equal((await wire(server.url, { method: 'DELETE', target: `/${collection}/${want}`, headers: unisrt })).status, 204);
        assert.equal((await wire(server.url, { method: 'GET', target: `/${collection}/${want}`, headers: [['Accept', 'application/json']] })).status, 404);
      });
    }

    const refused: [string, { given: unknown }][] = [
      ['a /', { given: 'a/b' }],
      ['a ?', { given: 'a?b' }],
      ['a #', { given: 'a#b' }],
      ['a space', { given: 'a b' }],
      ['a tab', { given: 'a\tb' }],
      ['a no-break space', { given: 'a\u00a0b' }],
      ['a control character', { given: 'a\u0001b' }],
      ['a C1 control character', { given: 'a\u0085b' }],
      ['.', { given: '.' }],
      ['..', { given: '..' }],
      ['the empty string', { given: '' }],
      ['1,025 bytes', { given: `x${'é'.repeat(511)}yz` }],
      ['1,025 ASCII characters', { given: 'x'.repeat(1025) }],
    ];
    for (const [name, { given }] of refused) {
      it(`an id with ${name}: 400 naming /0/id, nothing stored`, async () => {
        const answer = await wire(server.url, { method: 'POST', target: '/ports', headers: unisrt, body: JSON.stringify([{ id: given, name: 'refused' }, { name: 'other' }]) });
        assert.equal(answer.status, 400, answer.text);
        assert.ok(answer.body.error.details.some((d: { path: string }) => d.path === '/0/id'), answer.text);
      });
    }

    it('precedence: a segment with a % names the id as sent when that id was ever stored, else the decoded id', async () => {
      const collection = 'nodes';
      await post(`${server.url}/${collection}`, [{ id: 'prec:a', name: 'colon' }, { id: 'prec%3Ab', name: 'percent' }, { id: 'prec:c', name: 'colon c' }, { id: 'prec%3Ac', name: 'percent c' }], TYPED);
      const cases: [string, { given: string; want: string | undefined }][] = [
        ['the decoded id, none stored as sent', { given: 'prec%3Aa', want: 'prec:a' }],
        ['the id as sent, none stored decoded', { given: 'prec%3Ab', want: 'prec%3Ab' }],
        ['both stored: the id as sent (what selfRef writes)', { given: 'prec%3Ac', want: 'prec%3Ac' }],
        ['both stored: the other one plainly', { given: 'prec:c', want: 'prec:c' }],
        ['both stored: the one with a %, percent-encoded', { given: 'prec%253Ac', want: 'prec%3Ac' }],
        ['neither', { given: 'prec%3Ad', want: undefined }],
      ];
      for (const [name, { given, want }] of cases) {
        const answer = await wire(server.url, { method: 'GET', target: `/${collection}/${given}`, headers: [['Accept', 'application/json']] });
        if (want === undefined) assert.equal(answer.status, 404, name);
        else assert.equal(answer.body?.id, want, `${name}: ${answer.text}`);
      }
      // Deleted, an id as sent keeps its address: the segment does not fall through to the other resource.
      assert.equal((await wire(server.url, { method: 'DELETE', target: '/nodes/prec%3Ac', headers: [] })).status, 204);
      assert.equal((await wire(server.url, { method: 'GET', target: '/nodes/prec%3Ac', headers: [['Accept', 'application/json']] })).status, 404);
      // The SDK's path names exactly its id.
      const sdk = new TopologyClient({ baseUrl: server.url });
      assert.equal((await sdk.nodes.get('prec:c')).value.name, 'colon c');
      assert.equal((await sdk.nodes.get('prec%3Ab')).value.name, 'percent');
    });

    it('expand follows references written as selfRef writes them and as they were written percent-encoded', async () => {
      const port = 'urn:ogf:network:node=VM-1%3Aif0';
      await post(`${server.url}/ports`, { id: port, name: 'expanded' }, TYPED);
      const refs = [`${server.url}/ports/${port}`, `${server.url}/ports/${encodeURIComponent(port)}`];
      await post(`${server.url}/nodes`, { id: 'r2-expand', ports: refs.map((href) => ({ href, rel: 'full' })) }, TYPED);
      const answer = await get(`${server.url}/nodes/r2-expand?expand`, TYPED);
      assert.deepEqual(answer.body.ports.map((p: { id?: string; name?: string }) => [p.id, p.name]), [[port, 'expanded'], [port, 'expanded']], answer.text);
    });

    it('/subscribe/<c>/<id> names the id as a REST path does', async () => {
      const id = 'urn:sub:VM-2%3Aif0';
      await post(`${server.url}/ports`, { id, name: 'before' }, TYPED);
      const sockets = await Promise.all([`/subscribe/ports/${id}`, `/subscribe/ports/${encodeURIComponent(id)}`].map((path) => SocketClient.open(server.url, path)));
      try {
        await Promise.all(sockets.map((s) => s.settled()));
        await post(`${server.url}/ports`, { id, name: 'after' }, TYPED);
        for (const socket of sockets) {
          const [frame] = await socket.changesAtLeast(1);
          assert.equal((frame!.data as { id: string }).id, id);
        }
      } finally {
        for (const socket of sockets) socket.close();
      }
    });

    it('a metadata id with a %: /events registers it by its selfRef, /data/<mid> at the mid as sent', async () => {
      const mid = 'urn:md:VM-3%3Aif0';
      const metadata = (await post(`${server.url}/metadata`, { id: mid, subject: { href: `${server.url}/nodes/n`, rel: 'full' }, eventType: 'ps:tools:test:pct' }, TYPED)).body;
      assert.equal(metadata.selfRef, `${server.url}/metadata/${mid}`);
      const registered = await post(`${server.url}/events`, { metadata_URL: metadata.selfRef, collection_size: 10 }, TYPED);
      assert.equal(registered.status, 201, registered.text);
      assert.equal(registered.body.id, mid);
      assert.equal(registered.body.data, `${server.url}/data/${mid}`);
      const read = await wire(server.url, { method: 'GET', target: `/data/${mid}`, headers: [['Accept', 'application/json']] });
      assert.equal(read.status, 200, read.text);
    });
  });
});
