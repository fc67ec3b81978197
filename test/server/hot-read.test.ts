import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { kinds } from '../../generated/rest/kinds.js';
import { BearerTokens } from '../../server/auth.js';
import { hotRead } from '../../server/rest/operations/hot-read.js';
import type { Access } from '../../server/http/access-line.js';
import { OwnAddresses } from '../../server/wire/addresses.js';
import { Representations } from '../../server/wire/representation.js';
import { CurrentCache } from '../../server/storage/current-cache.js';
import { openDatabase } from '../../server/storage/database.js';
import type { Database } from '../../server/storage/contract/database.js';
import { ResourceStore } from '../../server/storage/resource-store.js';
import { ServiceFacts } from '../../server/storage/service-facts.js';
import { hashToken } from '../../server/tokens.js';
import { createTestDatabase, engine, postgresUrl, withPostgres, type TestDatabase } from '../helpers/database.js';
import { startServer, type LogLine, type RunningServer } from '../helpers/server.js';
import { eventually } from '../helpers/wait.js';

const READER = 'tc_reader-token-0123456789abcdef';
const WRITER = 'tc_writer-token-0123456789abcdef';

/**
 * The hot read (server/rest/operations/hot-read.ts): which requests it answers before Koa, and that its
 * answers are the full path's, byte for byte.
 */
describe('hot read of one resource', function () {
  this.timeout(60_000);

  describe('which requests it answers (in-process, real storage)', () => {
    let database: TestDatabase;
    let db: Database;
    let store: ResourceStore;
    let server: Server;
    let base: string;
    const logged: Access[] = [];

    before(async () => {
      database = await createTestDatabase();
      db = await openDatabase({ url: database.url, poolMax: 2 });
      // As the server has it: a read cache on SQLite, and on PostgreSQL one that answers while this process holds the read lease (serve.ts).
      store = new ResourceStore(db, engine === 'sqlite' ? new CurrentCache(1 << 20) : new CurrentCache(1 << 20, () => db.lease!.held()));
      const addresses = new OwnAddresses(new ServiceFacts(db), 'http://svc.example', 'http://svc.example/schema/20120709');
      await addresses.start();
      const authenticator = new BearerTokens([
        { name: 'reader', hash: hashToken(READER), scopes: ['read'] },
        { name: 'writer', hash: hashToken(WRITER), scopes: ['create'] },
      ]);
      const hot = hotRead({ kinds, store, representations: new Representations(kinds, addresses), authenticator, access: (a) => logged.push(a) });
      const build = (id: string, ts: number) => ({ id, ts, name: `name of ${id}` });
      await store.insert(['n1', 'a b', 'VM-0%3Aif0', 'gone', 'unread'].map((id) => ({ kind: 'nodes', id, clientId: true, build })));
      // Reads keep what they read; writes only replace what is kept.
      for (const id of ['n1', 'a b', 'VM-0%3Aif0', 'gone']) await store.current('nodes', id);
      await store.remove('nodes', 'gone');
      // Koa's part is played by a handler that says it was reached.
      const koa = (res: ServerResponse): void => {
        res.writeHead(299, { 'content-type': 'text/plain' });
        res.end('koa');
      };
      server = createServer((req, res) => {
        const answered = hot(req, res);
        if (answered === false) koa(res);
        else if (answered !== true) void answered.then((done) => done || koa(res));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(async () => {
      await new Promise((resolve) => server?.close(resolve));
      await db?.close();
      await database?.drop();
    });

    const reader = { authorization: `Bearer ${READER}` };
    const cases: [string, { path: string; method?: string; headers?: Record<string, string>; want: 'hot' | 'koa'; id?: string }][] = [
      ['a plain GET of a resource in memory', { path: '/nodes/n1', headers: reader, want: 'hot' }],
      // A segment with a `%` is read as sent first (rest-contract §3, revised 2026-11-29; request.ts pathId).
      ['an id that holds a % (unisencoder\'s), as sent', { path: '/nodes/VM-0%3Aif0', headers: reader, want: 'hot', id: 'VM-0%3Aif0' }],
      ['a segment that names an id only decoded', { path: '/nodes/a%20b', headers: reader, want: 'koa' }],
      ['Accept with a profile (matched without it)', { path: '/nodes/n1', headers: { ...reader, accept: 'application/perfsonar+json; profile=http://unis.crest.iu.edu/schema/20160630/node#' }, want: 'hot' }],
      ['Accept: application/json', { path: '/nodes/n1', headers: { ...reader, accept: 'application/json' }, want: 'hot' }],
      ['HEAD', { path: '/nodes/n1', method: 'HEAD', headers: reader, want: 'koa' }],
      ['a query string', { path: '/nodes/n1?fields=id', headers: reader, want: 'koa' }],
      ['a trailing slash', { path: '/nodes/n1/', headers: reader, want: 'koa' }],
      ['a collection', { path: '/nodes', headers: reader, want: 'koa' }],
      ['a deeper path', { path: '/nodes/n1/ports', headers: reader, want: 'koa' }],
      ['an unknown collection', { path: '/nodez/n1', headers: reader, want: 'koa' }],
      // SQLite's key reader reads on the calling thread; PostgreSQL's round trip is awaited.
      ['a resource not in memory', { path: '/nodes/unread', headers: reader, want: 'hot' }],
      ['an id never stored', { path: '/nodes/absent', headers: reader, want: 'koa' }],
      ['a deleted resource', { path: '/nodes/gone', headers: reader, want: 'koa' }],
      ['a malformed escape', { path: '/nodes/%E0%A4%A', headers: reader, want: 'koa' }],
      ['a control character', { path: '/nodes/n%001', headers: reader, want: 'koa' }],
      ['If-None-Match', { path: '/nodes/n1', headers: { ...reader, 'if-none-match': '"1"' }, want: 'koa' }],
      ['If-Modified-Since', { path: '/nodes/n1', headers: { ...reader, 'if-modified-since': new Date().toUTCString() }, want: 'koa' }],
      ['Accept: text/event-stream', { path: '/nodes/n1', headers: { ...reader, accept: 'text/event-stream' }, want: 'koa' }],
      ['Accept: text/html (a 406)', { path: '/nodes/n1', headers: { ...reader, accept: 'text/html' }, want: 'koa' }],
      ['no credentials', { path: '/nodes/n1', want: 'koa' }],
      ['an unknown token', { path: '/nodes/n1', headers: { authorization: 'Bearer tc_unknown-token-0123456789abcdef' }, want: 'koa' }],
      ['a token without the read scope', { path: '/nodes/n1', headers: { authorization: `Bearer ${WRITER}` }, want: 'koa' }],
    ];
    for (const [name, { path, method, headers, want, id }] of cases) {
      it(`${name}: ${want === 'hot' ? 'answered' : 'passed on to Koa'}`, async () => {
        const response = await fetch(`${base}${path}`, { method: method ?? 'GET', headers: headers ?? {} });
        const text = await response.text();
        if (want === 'koa') {
          assert.equal(response.status, 299, text);
          return;
        }
        assert.equal(response.status, 200);
        const document = JSON.parse(text) as { id: string; selfRef: string };
        assert.equal(document.id, id ?? decodeURIComponent(path.slice('/nodes/'.length)));
        assert.equal(document.selfRef, `http://svc.example${path}`);
        assert.match(response.headers.get('etag')!, /^"\d+"$/);
        assert.ok(response.headers.get('last-modified'));
        assert.match(response.headers.get('x-request-id')!, /^[0-9a-f-]{36}$/);
      });
    }

    it('a write replaces the entry it reads, and a deletion removes it', async () => {
      const updated = await store.update('nodes', 'n1', (current) => ({ ...(current as object), name: 'renamed' }));
      const answer = await fetch(`${base}/nodes/n1`, { headers: reader });
      assert.equal(answer.status, 200);
      assert.equal(((await answer.json()) as { name: string }).name, 'renamed');
      assert.equal(answer.headers.get('etag'), `"${updated.ts}"`);
      await store.remove('nodes', 'n1');
      const after = await fetch(`${base}/nodes/n1`, { headers: reader });
      assert.equal(after.status, 299, 'no longer in memory: the full path answers (404)');
      await after.arrayBuffer();
    });

    it('writes one access line per answer, as the full path does', async () => {
      logged.length = 0;
      const answer = await fetch(`${base}/nodes/VM-0%3Aif0`, { headers: { ...reader, 'x-request-id': 'hot-1' } });
      await answer.arrayBuffer();
      const line = await eventually('the access line', () => logged.find((a) => a.requestId === 'hot-1'));
      assert.deepEqual({ ...line, ms: 0 }, { requestId: 'hot-1', method: 'GET', path: '/nodes/VM-0%3Aif0', status: 200, query: undefined, reason: undefined, operation: undefined, ms: 0, route: '/nodes/:id' });
    });
  });

  describe('the same answer as the full path (the real server, ' + engine + ')', () => {
    let server: RunningServer;
    before(async () => {
      server = await startServer();
    });
    after(async () => {
      await server.stop();
    });

    /** Everything of an answer but the headers that differ per request. */
    async function answerOf(url: string, headers: Record<string, string>): Promise<{ status: number; headers: [string, string][]; body: string }> {
      const response = await fetch(url, { headers });
      const kept = [...response.headers].filter(([name]) => name !== 'x-request-id' && name !== 'date');
      return { status: response.status, headers: kept, body: await response.text() };
    }

    const accepts = [undefined, 'application/json', 'application/perfsonar+json', '*/*', 'application/perfsonar+json; profile=http://unis.crest.iu.edu/schema/20160630/port#', 'text/html,application/json,application/perfsonar+json', 'application/json; charset=utf-8'];
    for (const [i, accept] of accepts.entries()) {
      it(`GET /<collection>/<id>${accept ? ` with Accept: ${accept}` : ''} answers the same bytes either way`, async () => {
        // An id as unisencoder writes it (a `%3A`, a `+`): its selfRef holds it as sent (rest-contract §3, revised 2026-11-29).
        const created = await fetch(`${server.url}/ports`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: `urn:port:${i}%3Aif0+x`, name: 'é' }) });
        assert.equal(created.status, 201);
        const { selfRef } = (await created.json()) as { selfRef: string };
        assert.equal(selfRef, `${server.url}/ports/urn:port:${i}%3Aif0+x`);
        const headers: Record<string, string> = { 'x-request-id': `same-${i}`, ...(accept ? { accept } : {}) };
        // The first read goes the full way and keeps the representation; the next is the hot read's.
        await (await fetch(selfRef)).arrayBuffer();
        const hot = await answerOf(selfRef, headers);
        const full = await answerOf(`${selfRef}/`, headers);
        assert.equal(hot.status, 200);
        assert.deepEqual(hot, full);
        const lines = await eventually('two access lines', () => {
          const found = server.logs.filter((l: LogLine) => l.msg === 'request' && l.requestId === headers['x-request-id']);
          return found.length === 2 ? found : undefined;
        });
        assert.deepEqual(
          lines.map((l) => Object.keys(l)),
          [Object.keys(lines[1]!), Object.keys(lines[1]!)],
        );
      });
    }

    it('on PostgreSQL, answered from memory under the read lease: the same bytes as the full path', async function () {
      if (engine !== 'postgres') this.skip();
      const created = await fetch(`${server.url}/nodes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'leased', name: 'kept', location: { institution: 'IU' } }) });
      assert.equal(created.status, 201);
      const { selfRef } = (await created.json()) as { selfRef: string };
      /** Whether the server's session holds the read lease of its schema (dialects/postgres/read-lease.ts). */
      const leased = (): Promise<boolean> =>
        withPostgres(postgresUrl(), async (knex) => {
          const { rows } = (await knex.raw(
            "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND mode = 'ExclusiveLock' AND granted AND ((classid::bigint << 32) | objid::bigint) = hashtextextended(?, 0)",
            [`topocat:read-lease:${server.database.schema!}`],
          )) as { rows: { n: number }[] };
          return rows[0]!.n === 1;
        });
      const deadline = Date.now() + 15_000;
      for (;;) {
        await (await fetch(selfRef)).arrayBuffer();
        if (await leased()) break;
        assert.ok(Date.now() < deadline, 'the server never took the read lease');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await (await fetch(selfRef)).arrayBuffer();
      const headers = { 'x-request-id': 'leased-1' };
      const hot = await answerOf(selfRef, headers);
      const full = await answerOf(`${selfRef}/`, headers);
      assert.equal(hot.status, 200);
      assert.deepEqual(hot, full);
    });

    it('reads its own writes: PUT, PATCH and DELETE show at once', async () => {
      const created = await fetch(`${server.url}/nodes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'v1' }) });
      const { selfRef } = (await created.json()) as { selfRef: string };
      assert.equal(((await (await fetch(selfRef)).json()) as { name: string }).name, 'v1');
      await (await fetch(selfRef, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'v2' }) })).arrayBuffer();
      assert.equal(((await (await fetch(selfRef)).json()) as { name: string }).name, 'v2');
      await (await fetch(selfRef, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ name: 'v3' }) })).arrayBuffer();
      assert.equal(((await (await fetch(selfRef)).json()) as { name: string }).name, 'v3');
      await (await fetch(selfRef, { method: 'DELETE' })).arrayBuffer();
      const gone = await fetch(selfRef, { headers: { accept: 'application/json' } });
      assert.equal(gone.status, 404);
      await gone.arrayBuffer();
    });
  });
});
