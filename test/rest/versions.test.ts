import assert from 'node:assert/strict';
import { del, get, patch, post, put, request } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';

/** Versions, ?ts=, deletion and the validators of conditional requests (docs/rest-interface.md). */
describe('REST versions and conditional requests', function () {
  let server: RunningServer;
  let paths: string;
  before(async () => {
    server = await startServer();
    paths = `${server.url}/paths`;
  });
  after(async () => {
    await server.stop();
  });

  it('every write stores a new representation; ?ts= returns each one', async () => {
    const v1 = (await post(paths, { name: 'p', hops: [{ href: 'http://h/ports/1' }, { href: 'http://h/nodes/2' }, { href: 'http://h/ports/3' }] })).body;
    const v2 = (await put(v1.selfRef, { name: 'p2', hops: [{ href: 'http://h/ports/9' }] })).body;
    const v3 = (await patch(v1.selfRef, { description: 'third' })).body;
    assert.ok(v1.ts < v2.ts && v2.ts < v3.ts);
    for (const version of [v1, v2, v3]) {
      const answer = await get(`${v1.selfRef}?ts=${version.ts}`);
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body, version);
    }
    assert.deepEqual((await get(v1.selfRef)).body, v3);
    assert.deepEqual(v1.hops.map((h: { href: string }) => h.href), ['http://h/ports/1', 'http://h/nodes/2', 'http://h/ports/3'], 'hops keep their order');
  });

  it('a deleted resource answers 404, keeps its versions for ?ts=, and its id can be reused', async () => {
    const first = (await post(paths, { id: 'reused', name: 'one' })).body;
    assert.equal((await del(first.selfRef)).status, 204);
    assert.equal((await get(first.selfRef, { accept: 'application/json' })).status, 404);
    assert.equal((await get(`${first.selfRef}?ts=${first.ts}`)).status, 200);
    const second = await post(paths, { id: 'reused', name: 'two' });
    assert.equal(second.status, 201);
    assert.ok(second.body.ts > first.ts);
    const history = await get(`${first.selfRef}?id=${first.id}`);
    assert.deepEqual(history.body.map((v: { name: string }) => v.name), ['two', 'one']);
  });

  it('conditions on ts of one resource answer the array of its matching versions, newest first (rest-contract §3)', async () => {
    const v1 = (await post(paths, { name: 'v1' })).body;
    const v2 = (await patch(v1.selfRef, { name: 'v2' })).body;
    const v3 = (await patch(v1.selfRef, { name: 'v3' })).body;
    for (const [name, { given, want }] of [
      ['gt= the first', { given: `ts=gt=${v1.ts}`, want: ['v3', 'v2'] }],
      ['gte= the first', { given: `ts=gte=${v1.ts}`, want: ['v3', 'v2', 'v1'] }],
      ['lt= the last', { given: `ts=lt=${v3.ts}`, want: ['v2', 'v1'] }],
      ['lte= the second, encoded as dlt-web sends it', { given: `ts=lte%3D${v2.ts}`, want: ['v2', 'v1'] }],
      ['gt= the last', { given: `ts=gt=${v3.ts}`, want: [] }],
      ['an IN list', { given: `ts=${v1.ts},${v3.ts}`, want: ['v3', 'v1'] }],
      ['with another condition', { given: `ts=gt=${v1.ts}&name=v2`, want: ['v2'] }],
    ] as const) {
      const answer = await get(`${v1.selfRef}?${given}`);
      assert.equal(answer.status, 200, `${name}: ${answer.text}`);
      assert.deepEqual(answer.body.map((v: { name: string }) => v.name), want, name);
    }
    // One integer still selects that version, as an object.
    assert.equal((await get(`${v1.selfRef}?ts=${v2.ts}`)).body.name, 'v2');
    assert.equal((await get(`${v1.selfRef}?ts=integer:${v2.ts}`)).body.name, 'v2');
    const bad = await get(`${v1.selfRef}?ts=gt=soon`);
    assert.equal(bad.status, 400, 'a comparison with a value that is not a number is a 400 naming ts');
    assert.match(bad.text, /ts/);
  });

  it('a client ts is ignored on POST and PATCH', async () => {
    const created = (await post(paths, { name: 'x', ts: 5, selfRef: 'http://evil/' })).body;
    assert.ok(created.ts > 5);
    assert.equal(created.selfRef, `${paths}/${created.id}`);
    const patched = (await patch(created.selfRef, { ts: 7 })).body;
    assert.ok(patched.ts > created.ts);
  });

  describe('If-None-Match / If-Modified-Since', () => {
    let resource: any;
    let etag: string;
    before(async () => {
      const answer = await post(paths, { name: 'cached' });
      resource = answer.body;
      etag = answer.headers.get('etag')!;
    });

    it('a matching ETag gives 304 with no body', async () => {
      const answer = await get(resource.selfRef, { 'if-none-match': etag });
      assert.equal(answer.status, 304);
      assert.equal(answer.text, '');
    });

    it('a weak form of the ETag matches too', async () => {
      assert.equal((await get(resource.selfRef, { 'if-none-match': `W/${etag}` })).status, 304);
    });

    it('an older ETag gives the new representation', async () => {
      const changed = await patch(resource.selfRef, { description: 'changed' });
      const answer = await get(resource.selfRef, { 'if-none-match': etag });
      assert.equal(answer.status, 200);
      assert.equal(answer.headers.get('etag'), changed.headers.get('etag'));
      assert.notEqual(changed.headers.get('etag'), etag);
      resource = changed.body;
      etag = changed.headers.get('etag')!;
    });

    it('If-Modified-Since at or after Last-Modified gives 304', async () => {
      const lastModified = (await get(resource.selfRef)).headers.get('last-modified')!;
      assert.equal((await get(resource.selfRef, { 'if-modified-since': lastModified })).status, 304);
      assert.equal((await get(resource.selfRef, { 'if-modified-since': 'Thu, 01 Jan 1970 00:00:00 GMT' })).status, 200);
    });

    it('a projection has its own ETag', async () => {
      // Typed: the projected object (in UNIS form, a one-element array: rest-contract §3, revised 2026-11-29).
      const answer = await get(`${resource.selfRef}?fields=name`, { accept: 'application/topology+json' });
      assert.deepEqual(answer.body, { name: 'cached' });
      assert.notEqual(answer.headers.get('etag'), etag);
    });
  });

  describe('If-Match', () => {
    it('a current ETag lets PUT, PATCH and DELETE through; a stale one gives 412 and changes nothing', async () => {
      const created = await post(paths, { name: 'guarded' });
      const first = created.headers.get('etag')!;
      const updated = await put(created.body.selfRef, { name: 'guarded-2' }, { 'if-match': first });
      assert.equal(updated.status, 201);
      const second = updated.headers.get('etag')!;
      assert.equal((await patch(created.body.selfRef, { name: 'lost' }, { 'if-match': first })).status, 412);
      assert.equal((await del(created.body.selfRef, { 'if-match': first })).status, 412);
      assert.equal((await get(created.body.selfRef)).body.name, 'guarded-2');
      assert.equal((await patch(created.body.selfRef, { name: 'guarded-3' }, { 'if-match': second })).status, 200);
      assert.equal((await request('DELETE', created.body.selfRef, { headers: { 'if-match': '*' } })).status, 204);
    });

    it('a weak ETag never matches', async () => {
      const created = await post(paths, { name: 'weak' });
      const answer = await put(created.body.selfRef, { name: 'x' }, { 'if-match': `W/${created.headers.get('etag')}` });
      assert.equal(answer.status, 412);
    });
  });
});
