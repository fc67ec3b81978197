import assert from 'node:assert/strict';
import { get, patch, post, put, request } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';

/**
 * The rows of the REST contract that UNIS clients rely on (docs/rest-interface.md): versions by
 * re-POST, replays, create-only, touch, the reserved query parameters, unique, inline, derived
 * members, and the kinds' UNIS spellings.
 */
describe('REST behaviour UNIS clients rely on', function () {
  let server: RunningServer;
  let nodes: string;
  before(async () => {
    server = await startServer();
    nodes = `${server.url}/nodes`;
  });
  after(async () => {
    await server.stop();
  });

  describe('re-POST, replays and create-only (§3)', () => {
    it('a POST of a live id stores a new version of that resource (201), the whole body replacing the old', async () => {
      const first = await post(nodes, { id: 'repost', name: 'one', description: 'gone later' });
      const second = await post(nodes, { id: 'repost', name: 'two' });
      assert.equal(second.status, 201, second.text);
      assert.equal(second.headers.get('location'), first.body.selfRef);
      assert.ok(second.body.ts > first.body.ts);
      assert.equal((await get(`${nodes}/repost`)).body.name, 'two');
      assert.equal((await get(`${nodes}/repost`)).body.description, undefined);
      const versions = (await get(`${nodes}/repost?id=repost`)).body as { name: string }[];
      assert.deepEqual(versions.map((v) => v.name), ['two', 'one']);
      // Still one resource in the list.
      assert.equal((await get(`${nodes}?id=repost`)).body.length, 1);
    });

    it('an array may repeat an id: each element is the next version, in order', async () => {
      const answer = await post(nodes, [{ id: 'twice', name: 'a' }, { id: 'twice', name: 'b' }]);
      assert.equal(answer.status, 201, answer.text);
      assert.ok(answer.body[1].ts > answer.body[0].ts);
      assert.equal((await get(`${nodes}/twice`)).body.name, 'b');
      assert.equal((await get(`${nodes}/twice?id=twice`)).body.length, 2);
    });

    it('a client ts that differs from every stored version is not a replay, and is never stored', async () => {
      const first = await post(nodes, { id: 'heartbeat', name: 'hb', ts: 1 });
      const again = await post(nodes, { id: 'heartbeat', name: 'hb', ts: 2 });
      assert.equal(again.status, 201, again.text);
      assert.ok(first.body.ts > 1_600_000_000_000_000 && again.body.ts > first.body.ts);
    });

    it('a POST whose id and ts equal a stored version is a replay: 409, nothing stored', async () => {
      const first = await post(nodes, { id: 'replayed', name: 'x' });
      const replay = await post(nodes, { id: 'replayed', name: 'y', ts: first.body.ts });
      assert.equal(replay.status, 409, replay.text);
      assert.equal(replay.body.error.details[0].path, '/ts');
      assert.equal((await get(`${nodes}/replayed`)).body.name, 'x');
    });

    it('If-None-Match: * makes a POST create-only: 412 for a live id, 201 for a new or deleted one', async () => {
      await post(nodes, { id: 'only-once' });
      const refused = await post(nodes, { id: 'only-once', name: 'again' }, { 'if-none-match': '*' });
      assert.equal(refused.status, 412, refused.text);
      assert.equal(refused.body.error.details[0].path, '/id');
      assert.equal((await post(nodes, { id: 'only-new' }, { 'if-none-match': '*' })).status, 201);
      await request('DELETE', `${nodes}/only-once`);
      assert.equal((await post(nodes, { id: 'only-once' }, { 'if-none-match': '*' })).status, 201);
    });

    it('a PUT whose ts equals a stored version is a replay: 409', async () => {
      const first = await post(nodes, { name: 'x' });
      await put(first.body.selfRef, { name: 'y' });
      const replay = await put(first.body.selfRef, { name: 'z', ts: first.body.ts });
      assert.equal(replay.status, 409, replay.text);
    });
  });

  describe('PUT touch (§4)', () => {
    it('a PUT of only the id keeps every field and stores a new version with a new ts', async () => {
      const first = await post(nodes, { id: 'touched', name: 'keep me', location: { institution: 'IU' } });
      const touched = await put(`${nodes}/touched`, { id: 'touched' });
      assert.equal(touched.status, 201, touched.text);
      assert.ok(touched.body.ts > first.body.ts);
      assert.deepEqual({ ...touched.body, ts: 0 }, { ...first.body, ts: 0 });
      assert.equal((await get(`${nodes}/touched?id=touched`)).body.length, 2);
    });

    it('a touch may carry ts, $schema and selfRef; an empty body is a touch too', async () => {
      const first = await post(nodes, { id: 'touched-2', name: 'n' });
      for (const body of [{ id: 'touched-2', $schema: 'http://unis.crest.iu.edu/schema/20160630/node#', selfRef: first.body.selfRef, ts: 5 }, {}]) {
        const touched = await put(`${nodes}/touched-2`, body);
        assert.equal(touched.status, 201, touched.text);
        assert.equal(touched.body.name, 'n');
      }
    });

    it('a touch of an unknown id is 404, and of a kind with required fields still works', async () => {
      assert.equal((await put(`${nodes}/never-there`, { id: 'never-there' })).status, 404);
      const metadata = await post(`${server.url}/metadata`, { subject: { href: 'http://h/ports/1', rel: 'full' }, eventType: 'e' });
      assert.equal((await put(metadata.body.selfRef, { id: metadata.body.id })).status, 201);
    });
  });

  describe('the query language (§5)', () => {
    before(async () => {
      const answer = await post(`${server.url}/ports`, [
        { id: 'q1', name: 'alpha', capacity: 10, up: true, uplink: { href: `${server.url}/nodes/n-q`, rel: 'full' } },
        { id: 'q2', name: 'beta', capacity: 20, up: false },
      ]);
      assert.equal(answer.status, 201, answer.text);
      await post(nodes, { id: 'n-q', name: 'uplinked', ports: [{ href: `${server.url}/ports/q1`, rel: 'full' }, { href: 'http://elsewhere.example/ports/x', rel: 'full' }] });
    });

    const cases: [string, { given: string; want: string[] }][] = [
      ['boolean: in any letter case', { given: 'up=boolean:TRUE', want: ['q1'] }],
      ['Boolean:False', { given: 'up=Boolean:False', want: ['q2'] }],
      ['unique=true is not a condition', { given: 'fields=selfRef&unique=true&id=q1,q2', want: ['q1', 'q2'] }],
      ['inline= (empty) is not a condition', { given: 'inline=&id=q2', want: ['q2'] }],
      ['expand= (empty) is not a condition', { given: 'expand=&id=q2', want: ['q2'] }],
      ['an empty query string', { given: '', want: ['q1', 'q2'] }],
      ['empty pairs', { given: '&&id=q1&', want: ['q1'] }],
      ['selfRef= is the resource with that address', { given: 'selfRef={base}/ports/q2', want: ['q2'] }],
      ['selfRef of another collection matches nothing', { given: 'selfRef={base}/nodes/q2', want: [] }],
      ['$schema= of the kind holds for all of it', { given: '$schema=http://unis.crest.iu.edu/schema/20160630/port%23&id=q1,q2', want: ['q1', 'q2'] }],
      ['sort by selfRef', { given: 'sort=selfRef:-1&id=q1,q2', want: ['q2', 'q1'] }],
      // Both lack it: the default order, newest first, breaks the tie (rest-contract §5, revised 2026-11-29).
      ['sort=__proto__:1 is a field like any other', { given: 'sort=__proto__:1&id=q1,q2', want: ['q2', 'q1'] }],
      ['a condition on __proto__ is a field like any other', { given: '__proto__=x', want: [] }],
      ['a condition on constructor', { given: 'constructor=x', want: [] }],
    ];
    for (const [name, { given, want }] of cases) {
      it(`${name}: ?${given}`, async () => {
        const answer = await get(`${server.url}/ports?${given.replace('{base}', server.url)}`);
        assert.equal(answer.status, 200, answer.text);
        const ids = (answer.body as { id?: string; selfRef?: string }[]).map((p) => p.id ?? p.selfRef!.slice(p.selfRef!.lastIndexOf('/') + 1));
        assert.deepEqual(given.includes('sort=') ? ids : ids.sort(), want);
      });
    }

    it('fields=selfRef&unique=true answers one stub per resource (UNISrt)', async () => {
      const answer = await get(`${server.url}/ports?fields=selfRef&unique=true`);
      // Newest first (rest-contract §5, revised 2026-11-29).
      assert.deepEqual(answer.body, [{ selfRef: `${server.url}/ports/q2` }, { selfRef: `${server.url}/ports/q1` }]);
    });

    it('unique=true on one resource answers one version per id: the newest that matches', async () => {
      await patch(`${server.url}/ports/q2`, { capacity: 25 });
      const all = (await get(`${server.url}/ports/q2?name=beta`)).body as { capacity: number }[];
      assert.deepEqual(all.map((v) => v.capacity), [25, 20]);
      assert.deepEqual(((await get(`${server.url}/ports/q2?name=beta&unique=true`)).body as { capacity: number }[]).map((v) => v.capacity), [25]);
    });

    it('?ts=T of one resource selects a version; a comparison on ts searches its versions', async () => {
      const current = (await get(`${server.url}/ports/q2`)).body;
      const version = await get(`${server.url}/ports/q2?ts=${current.ts}`);
      assert.equal(version.status, 200);
      assert.equal(version.body.ts, current.ts);
      assert.equal((await get(`${server.url}/ports/q2?ts=${current.ts}&name=beta`)).body.ts, current.ts);
      assert.equal((await get(`${server.url}/ports/q2?ts=${current.ts}&name=gamma`, { accept: 'application/json' })).status, 404);
      for (const ts of ['99999999999999999999999', '1']) assert.equal((await get(`${server.url}/ports/q2?ts=${ts}`, { accept: 'application/json' })).status, 404, ts);
      const versions = await get(`${server.url}/ports/q2?ts=gt=0`);
      assert.equal(versions.status, 200);
      assert.ok(Array.isArray(versions.body) && versions.body[0].ts === current.ts, 'every version, newest first');
      const malformed = await get(`${server.url}/ports/q2?ts=gt=soon`);
      assert.equal(malformed.status, 400);
      assert.equal(malformed.body.error.details[0].path, 'ts');
    });

    it('selfRef and $schema compare only for equality', async () => {
      for (const query of ['selfRef=gt=a', '$schema=lt=b']) assert.equal((await get(`${server.url}/ports?${query}`)).status, 400, query);
    });

    it('expand replaces references to this service\'s resources by their newest representation, one level deep', async () => {
      const node = (await get(`${nodes}/n-q?expand`)).body;
      assert.equal(node.ports[0].id, 'q1');
      assert.equal(node.ports[0].name, 'alpha');
      // One level: the inlined port keeps its own reference.
      assert.deepEqual(node.ports[0].uplink, { href: `${server.url}/nodes/n-q`, rel: 'full' });
      // Not this service's: unchanged.
      assert.deepEqual(node.ports[1], { href: 'http://elsewhere.example/ports/x', rel: 'full' });
      const listed = (await get(`${nodes}?id=n-q&expand=`)).body;
      assert.equal(listed[0].ports[0].name, 'alpha');
      // inline, as UNIS HEAD reads it, changes nothing here (§5, revised 2026-11-26).
      const plain = await get(`${nodes}/n-q`);
      const inline = await get(`${nodes}/n-q?inline`);
      assert.equal(inline.text, plain.text);
      assert.equal(inline.headers.get('etag'), plain.headers.get('etag'));
      assert.equal((await get(`${nodes}?id=n-q&inline=`)).text, (await get(`${nodes}?id=n-q`)).text);
    });

    it('an expanded answer changes its ETag when an expanded resource changes', async () => {
      const before = await get(`${nodes}/n-q?expand`);
      await patch(`${server.url}/ports/q1`, { name: 'alpha-2' });
      const after = await get(`${nodes}/n-q?expand`, { 'if-none-match': before.headers.get('etag')! });
      assert.equal(after.status, 200);
      assert.equal(after.body.ports[0].name, 'alpha-2');
      assert.notEqual(after.headers.get('etag'), before.headers.get('etag'));
    });

    it('a reference to a deleted resource stays a reference', async () => {
      await post(`${server.url}/ports`, { id: 'gone' });
      await post(nodes, { id: 'n-gone', ports: [{ href: `${server.url}/ports/gone`, rel: 'full' }] });
      await request('DELETE', `${server.url}/ports/gone`);
      assert.deepEqual((await get(`${nodes}/n-gone?expand`)).body.ports, [{ href: `${server.url}/ports/gone`, rel: 'full' }]);
    });
  });

  describe('kinds (§6)', () => {
    it('link endpoints take either marker, rel or ref; only a missing href is an error', async () => {
      const rel = await post(`${server.url}/links`, { directed: false, endpoints: [{ href: 'http://h/ports/1', rel: 'full' }, { href: 'http://h/ports/2', rel: 'full' }] });
      assert.equal(rel.status, 201, rel.text);
      const ref = await post(`${server.url}/links`, { directed: true, endpoints: { source: { href: 'http://h/ports/1', ref: 'full' }, sink: { href: 'http://h/ports/2' } } });
      assert.equal(ref.status, 201, ref.text);
      const missing = await post(`${server.url}/links`, { directed: true, endpoints: { source: { rel: 'full' }, sink: { href: 'http://h/ports/2' } } });
      assert.equal(missing.status, 400);
      assert.equal(missing.body.error.details[0].path, '/endpoints/source');
    });

    it('serviceType and accessPoint are strings, not URLs (libunis-c)', async () => {
      const answer = await post(`${server.url}/services`, { serviceType: 'ibp_server', accessPoint: 'ibp://10.0.0.1:6714' });
      assert.equal(answer.status, 201, answer.text);
      assert.equal((await get(`${server.url}/services?serviceType=ibp_server`)).body.length, 1);
    });

    const addresses: [string, { collection: string; schema: string }][] = [
      ['UNIS 20140214', { collection: 'nodes', schema: 'http://unis.incntre.iu.edu/schema/20140214/node#' }],
      ['UNIS 20151104', { collection: 'nodes', schema: 'http://unis.crest.iu.edu/schema/20151104/node#' }],
      ['UNIS 20160630', { collection: 'ports', schema: 'http://unis.crest.iu.edu/schema/20160630/port#' }],
      ['UNIS 20160630 over https', { collection: 'ports', schema: 'https://unis.crest.iu.edu/schema/20160630/port' }],
      ['UNIS exnode/4', { collection: 'exnodes', schema: 'http://unis.crest.iu.edu/schema/exnode/4/exnode#' }],
      ['UNISrt exnode/6', { collection: 'extents', schema: 'http://unis.crest.iu.edu/schema/exnode/6/extent#' }],
    ];
    const bodies: Record<string, object> = {
      nodes: { name: 'n' },
      ports: { name: 'p' },
      exnodes: { name: 'f', size: 1, mode: 'file', created: 1, modified: 1, parent: null },
      extents: { location: 'ibp://d:6714', size: 1, offset: 0, parent: null },
    };
    for (const [name, { collection, schema }] of addresses) {
      it(`accepts $schema and profile of ${name}, and keeps the $schema as sent (§2, revised 2026-11-26)`, async () => {
        const answer = await post(`${server.url}/${collection}`, { $schema: schema, ...bodies[collection] }, { 'content-type': `application/perfsonar+json; profile=${schema}` });
        assert.equal(answer.status, 201, answer.text);
        assert.equal(answer.body.$schema, schema);
      });
    }

    it('refuses a UNIS address of another kind, naming /$schema', async () => {
      const answer = await post(nodes, { $schema: 'http://unis.crest.iu.edu/schema/20160630/port#' });
      assert.equal(answer.status, 400);
      assert.equal(answer.body.error.details[0].path, '/$schema');
    });
  });

  describe('client habits (§9)', () => {
    const contentTypes: [string, string][] = [
      ['perfsonar+json with a bare profile after a space (BLiPP)', 'application/perfsonar+json profile=http://unis.crest.iu.edu/schema/20160630/node#'],
      ['perfsonar+json with an unquoted URL profile (UNIS 2014)', 'application/perfsonar+json; profile=http://unis.incntre.iu.edu/schema/20120709/node#'],
      ['a list of types (libunis-c)', 'application/json,application/perfsonar+json'],
    ];
    for (const [name, type] of contentTypes) {
      it(`accepts Content-Type: ${name}`, async () => {
        const answer = await request('POST', nodes, { raw: '{"name":"ct"}', headers: { 'content-type': type } });
        assert.equal(answer.status, 201, answer.text);
      });
    }

    it('a body without Content-Type is JSON (BLiPP sends none on some writes)', async () => {
      const answer = await fetch(`${server.url}/measurements`, { method: 'POST', body: Buffer.from('{"configuration": {}, "eventTypes": ["x"]}') });
      assert.equal(answer.status, 201, await answer.text());
    });

    it('a bare profile of another kind is still refused', async () => {
      const answer = await request('POST', nodes, { raw: '{}', headers: { 'content-type': 'application/perfsonar+json profile=http://unis.crest.iu.edu/schema/20160630/port#' } });
      assert.equal(answer.status, 400);
      assert.equal(answer.body.error.details[0].path, 'Content-Type');
    });

    for (const accept of ['application/perfsonar+json', '*/*', 'text/html,application/json,application/perfsonar+json']) {
      it(`answers JSON to Accept: ${accept}`, async () => {
        const answer = await get(nodes, { accept });
        assert.equal(answer.status, 200);
        assert.ok(Array.isArray(answer.body));
      });
    }
  });
});
