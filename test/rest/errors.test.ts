import assert from 'node:assert/strict';
import { samples } from '../helpers/fixtures.js';
import { del, get, patch, post, put, request, type Answer } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';

/** The one error shape with a request id; the status is the one the contract's table gives. */
function assertError(answer: Answer, status: number, detailPath?: string): void {
  assert.equal(answer.status, status, answer.text);
  assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(answer.body.error.status, status);
  assert.equal(typeof answer.body.error.message, 'string');
  assert.equal(answer.body.error.requestId, answer.headers.get('x-request-id'));
  assert.doesNotMatch(answer.text, /\bat \S+ \(|node_modules|\.js:\d+/, 'no stack trace');
  if (detailPath !== undefined) {
    assert.ok(
      answer.body.error.details?.some((d: { path: string }) => d.path === detailPath),
      `expected a detail at ${detailPath}: ${answer.text}`,
    );
  }
}

describe('REST errors (docs/rest-interface.md)', function () {
  let server: RunningServer;
  let nodes: string;
  before(async () => {
    server = await startServer({ env: { MAX_BODY_BYTES: '65536', MAX_ARRAY_ITEMS: '50' } });
    nodes = `${server.url}/nodes`;
  });
  after(async () => {
    await server.stop();
  });

  const cases: [string, () => Promise<Answer>, number, string?][] = [
    ['400 validation failure names the pointer', () => post(nodes, { name: 5 }), 400, '/name'],
    ['400 nested validation failure', () => post(`${server.url}/links`, { directed: true, endpoints: { source: {}, sink: { href: 'http://x/a' } } }), 400, '/endpoints/source'],
    ['400 undirected link needs an array of two', () => post(`${server.url}/links`, { directed: false, endpoints: [{ href: 'http://x/a' }] }), 400, '/endpoints'],
    ['400 directed link needs source and sink', () => post(`${server.url}/links`, { directed: true, endpoints: [{ href: 'http://x/a' }, { href: 'http://x/b' }] }), 400, '/endpoints'],
    ['400 capacity must be an integer', () => post(`${server.url}/ports`, { capacity: 1.5 }), 400, '/capacity'],
    ['400 metadata accepts only its own fields', () => post(`${server.url}/metadata`, { ...samples.metadata!(1), colour: 'red' }), 400, '/colour'],
    ['400 array element failure names its index', () => post(nodes, [{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 4 }]), 400, '/3/name'],
    ['400 malformed JSON', () => request('POST', nodes, { raw: '{"name": ' }), 400],
    ['400 JSON nested deeper than 64 levels', () => request('POST', nodes, { raw: `{"a":${'['.repeat(70)}${']'.repeat(70)}}` }), 400],
    ['400 a body that is not an object', () => request('POST', nodes, { raw: '"just a string"' }), 400],
    ['400 $schema of another kind', () => post(nodes, { $schema: 'http://unis.incntre.iu.edu/schema/20120709/port#' }), 400, '/$schema'],
    ['400 profile of another kind', () => request('POST', nodes, { raw: '{}', headers: { 'content-type': 'application/topology+json; profile="http://unis.incntre.iu.edu/schema/20120709/link#"' } }), 400, 'Content-Type'],
    ['400 bad typed query value', () => get(`${nodes}?capacity=integer:abc`), 400, 'capacity'],
    ['400 non-integer limit', () => get(`${nodes}?limit=ten`), 400, 'limit'],
    ['400 empty field name', () => get(`${nodes}?a..b=1`), 400, 'a..b'],
    ['400 PUT body id differs from the path', async () => {
      const created = await post(nodes, { name: 'x' });
      return put(created.body.selfRef, { id: 'other' });
    }, 400, '/id'],
    ['404 unknown collection', () => get(`${server.url}/nothing-here`), 404],
    ['404 unknown id on GET (a typed request)', () => get(`${nodes}/no-such-id`, { accept: 'application/topology+json' }), 404],
    ['404 unknown id on PUT', () => put(`${nodes}/no-such-id`, { name: 'x' }), 404],
    ['404 unknown id on PATCH', () => patch(`${nodes}/no-such-id`, { name: 'x' }), 404],
    ['404 unknown id on DELETE (a typed request; UNIS form: 204, test/unis/unis-form.test.ts)', () => del(`${nodes}/no-such-id`, { accept: 'application/json' }), 404],
    ['404 unknown ts (a typed request)', async () => get(`${(await post(nodes, {})).body.selfRef}?ts=1`, { accept: 'application/json' }), 404],
    ['405 a method the path does not have', () => request('PUT', nodes, { body: {} }), 405],
    ['406 unsatisfiable Accept', () => get(nodes, { accept: 'text/html' }), 406],
    ['415 unsupported Content-Type', () => request('POST', nodes, { raw: '{}', headers: { 'content-type': 'text/plain' } }), 415],
    ['415 merge-patch only on PATCH', () => request('POST', nodes, { raw: '{}', headers: { 'content-type': 'application/merge-patch+json' } }), 415],
    ['409 a POST that replays a stored version (its id and ts)', async () => {
      const created = await post(nodes, { id: 'dup-1' });
      return post(nodes, { id: 'dup-1', ts: created.body.ts });
    }, 409, '/ts'],
    ['409 an array with a replayed version names its index', async () => {
      const created = await post(nodes, { id: 'dup-2' });
      return post(nodes, [{ id: 'fresh-2' }, { id: 'dup-2', ts: created.body.ts }]);
    }, 409, '/1/ts'],
    ['412 create-only POST (If-None-Match: *) of a live id', async () => {
      await post(nodes, { id: 'dup-3' });
      return post(nodes, [{ id: 'fresh-3' }, { id: 'dup-3' }], { 'if-none-match': '*' });
    }, 412, '/1/id'],
    ['409 PUT with a ts that exists', async () => {
      const created = await post(nodes, { name: 'x' });
      return put(created.body.selfRef, { name: 'y', ts: created.body.ts });
    }, 409],
    ['412 If-Match mismatch', async () => {
      const created = await post(nodes, { name: 'x' });
      return put(created.body.selfRef, { name: 'y' }, { 'if-match': '"1"' });
    }, 412],
    ['413 body over the limit', () => request('POST', nodes, { raw: JSON.stringify({ name: 'x'.repeat(70_000) }) }), 413],
    ['413 array over the limit', () => post(nodes, Array.from({ length: 51 }, () => ({}))), 413],
  ];

  for (const [name, act, status, detailPath] of cases) {
    it(name, async () => assertError(await act(), status, detailPath));
  }

  it('405 names the allowed methods', async () => {
    const answer = await request('DELETE', nodes);
    assertError(answer, 405);
    assert.match(answer.headers.get('allow') ?? '', /GET/);
  });

  it('nothing of a rejected array is stored (all or nothing)', async () => {
    const before = (await get(`${server.url}/ports`)).body.length;
    await post(`${server.url}/ports`, [{ name: 'ok-1' }, { name: 'ok-2' }, { capacity: 'fast' }]);
    await post(`${server.url}/ports`, { id: 'taken' });
    await post(`${server.url}/ports`, [{ id: 'new-1' }, { id: 'taken' }], { 'if-none-match': '*' });
    const after = (await get(`${server.url}/ports`)).body;
    assert.equal(after.length, before + 1);
    assert.ok(!after.some((p: any) => p.id === 'new-1' || p.name === 'ok-1'));
  });

  it('a failed patch stores nothing', async () => {
    const created = await post(nodes, { name: 'keep' });
    assertError(await patch(created.body.selfRef, { name: 42 }), 400, '/name');
    const history = await get(`${created.body.selfRef}?id=${created.body.id}`);
    assert.equal(history.body.length, 1);
  });

  it('the server still answers after every error above', async () => {
    assert.equal((await get(`${server.url}/health`)).status, 200);
  });
});
