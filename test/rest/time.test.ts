import assert from 'node:assert/strict';
import { del, get, patch, post } from '../helpers/http.js';
import { storedVersions } from '../helpers/history.js';
import { startServer, type RunningServer } from '../helpers/server.js';

/**
 * `at=T` (docs/time.md, rest-contract §12): lists and single reads answer as the service would
 * have answered at instant T, deletions included, on the engine under test.
 */
describe('REST: the topology as it was (at=T)', function () {
  let server: RunningServer;
  let nodes: string;
  let ports: string;
  /** Named instants of the history built below. */
  const t = {} as Record<'p1' | 'p2' | 'k1' | 'k2' | 'g1' | 'gDeleted' | 'r1' | 'rDeleted' | 'r2', number>;
  /** Later than every version: "now", for the property that at=now is today's answer. */
  const now = () => (Date.now() + 60_000) * 1000;
  const ids = (answer: { body: { id: string }[] }) => answer.body.map((r) => r.id);

  before(async () => {
    server = await startServer();
    nodes = `${server.url}/nodes`;
    ports = `${server.url}/ports`;
    // p1 (renamed later); k (two versions, referencing p1); g (deleted); r (deleted, then created again).
    t.p1 = (await post(ports, { id: 'p1', name: 'p-old' })).body.ts;
    t.k1 = (await post(nodes, { id: 'k', name: 'k1', location: { institution: 'iu' }, ports: [{ href: `${ports}/p1`, rel: 'full' }] })).body.ts;
    t.g1 = (await post(nodes, { id: 'g', name: 'g1', location: { institution: 'iu' } })).body.ts;
    t.r1 = (await post(nodes, { id: 'r', name: 'r1', location: { institution: 'um' } })).body.ts;
    t.k2 = (await patch(`${nodes}/k`, { name: 'k2' })).body.ts;
    t.p2 = (await patch(`${ports}/p1`, { name: 'p-new' })).body.ts;
    assert.equal((await del(`${nodes}/g`)).status, 204);
    assert.equal((await del(`${nodes}/r`)).status, 204);
    t.r2 = (await post(nodes, { id: 'r', name: 'r2', location: { institution: 'um' } })).body.ts;
    // A deletion's instant is not shown by the interface: the stored history is the oracle.
    t.gDeleted = (await storedVersions(server.database, 'nodes', 'g')).find((v) => v.deleted)!.ts;
    t.rDeleted = (await storedVersions(server.database, 'nodes', 'r')).find((v) => v.deleted)!.ts;
    assert.ok(t.gDeleted > t.p2 && t.rDeleted > t.gDeleted && t.r2 > t.rDeleted);
  });
  after(async () => {
    await server.stop();
  });

  // [name, { given: the query (instants by name), want: the ids listed, in order }]: newest first
  // without sort, as every list (rest-contract §5 and §12, revised 2026-11-29; was oldest first).
  const lists: [string, { given: () => string; want: string[] }][] = [
    ['before the first write: nothing', { given: () => `at=${t.p1 - 1}`, want: [] }],
    ['at 0: nothing', { given: () => 'at=0', want: [] }],
    ['exactly at a creation: it counts', { given: () => `at=${t.k1}`, want: ['k'] }],
    ['one µs before a creation: not yet', { given: () => `at=${t.g1 - 1}`, want: ['k'] }],
    ['an updated resource is listed once, in the order of the version it had', { given: () => `at=${t.r1}`, want: ['r', 'g', 'k'] }],
    ['after an update, in the order of its new version', { given: () => `at=${t.k2}`, want: ['k', 'r', 'g'] }],
    ['one µs before a deletion: still there', { given: () => `at=${t.gDeleted - 1}`, want: ['k', 'r', 'g'] }],
    ['exactly at a deletion: gone', { given: () => `at=${t.gDeleted}`, want: ['k', 'r'] }],
    ['a deleted id between its lives: absent', { given: () => `at=${t.r2 - 1}`, want: ['k'] }],
    ['a re-created id: its new life', { given: () => `at=${t.r2}`, want: ['r', 'k'] }],
    ['the query language applies to the state at T', { given: () => `at=${t.k2 - 1}&name=k1`, want: ['k'] }],
    ['... not to a later version', { given: () => `at=${t.k2 - 1}&name=k2`, want: [] }],
    ['... nor to an earlier one', { given: () => `at=${t.k2}&name=k1`, want: [] }],
    ['conditions on ts are on the versions of T', { given: () => `at=${t.k2}&ts=lt=${t.k2}`, want: ['r', 'g'] }],
    ['nested fields and OR', { given: () => `at=${t.gDeleted - 1}&location.institution=um|name=k2`, want: ['k', 'r'] }],
    ['sort', { given: () => `at=${t.gDeleted - 1}&sort=name:-1`, want: ['r', 'k', 'g'] }],
    ['limit and skip', { given: () => `at=${t.gDeleted - 1}&sort=name:1&limit=1&skip=1`, want: ['k'] }],
    ['unique', { given: () => `at=${t.k2}&unique=true`, want: ['k', 'r', 'g'] }],
    ['limit=1: the newest at T', { given: () => `at=${t.gDeleted - 1}&limit=1`, want: ['k'] }],
    ['limit=0: no limit', { given: () => `at=${t.gDeleted - 1}&limit=0`, want: ['k', 'r', 'g'] }],
    ['a future instant is today\'s state', { given: () => `at=${Number.MAX_SAFE_INTEGER}`, want: ['r', 'k'] }],
    ['an instant beyond 2^53 too', { given: () => 'at=99999999999999999999', want: ['r', 'k'] }],
  ];
  for (const [name, { given, want }] of lists) {
    it(`GET /nodes?at=T: ${name}`, async () => {
      const answer = await get(`${nodes}?${given()}`);
      assert.equal(answer.status, 200, answer.text);
      assert.deepEqual(ids(answer), want);
    });
  }

  it('each listed resource is the version it had at T, whole', async () => {
    const [g, k] = (await get(`${nodes}?at=${t.k2 - 1}&sort=name:1&id=k,g`)).body;
    assert.deepEqual([g.id, g.ts, g.name], ['g', t.g1, 'g1']);
    assert.deepEqual([k.id, k.ts, k.name, k.selfRef], ['k', t.k1, 'k1', `${nodes}/k`]);
    assert.deepEqual((await get(`${nodes}?at=${t.k2 - 1}&fields=id,name&id=k`)).body, [{ id: 'k', name: 'k1' }]);
  });

  // The property: at a later instant than every write, every query answers what it answers today.
  const sameAsToday = ['', 'name=k2', 'sort=name:-1', 'fields=id,name', 'limit=1&skip=1', 'unique=true', 'location.institution=um', `ts=gte=${0}`, 'inline', 'expand', 'id=k&expand&fields=ports'];
  for (const query of sameAsToday) {
    it(`GET /nodes?${query}${query === '' ? '' : '&'}at=<now> is GET /nodes?${query}`, async () => {
      const today = await get(`${nodes}?${query}`);
      const past = await get(`${nodes}?${query}${query === '' ? '' : '&'}at=${now()}`);
      assert.equal(past.status, 200);
      assert.equal(past.text, today.text);
      assert.equal(past.headers.get('content-type'), today.headers.get('content-type'));
    });
  }

  /** A typed request: an unknown id is a 404 to it (rest-contract §3); UNIS-form ones get `200 []`. */
  const typed = { accept: 'application/json' };

  // [name, { given, want: the name of the version answered, or 404 }]
  const reads: [string, { given: () => string; want: string | 404 }][] = [
    ['before it existed', { given: () => `k?at=${t.k1 - 1}`, want: 404 }],
    ['at its creation', { given: () => `k?at=${t.k1}`, want: 'k1' }],
    ['between two versions', { given: () => `k?at=${t.k2 - 1}`, want: 'k1' }],
    ['at its update', { given: () => `k?at=${t.k2}`, want: 'k2' }],
    ['one µs before its deletion', { given: () => `g?at=${t.gDeleted - 1}`, want: 'g1' }],
    ['exactly at its deletion', { given: () => `g?at=${t.gDeleted}`, want: 404 }],
    ['long after its deletion', { given: () => `g?at=${now()}`, want: 404 }],
    ['a re-created id, in its first life', { given: () => `r?at=${t.r1}`, want: 'r1' }],
    ['... between its lives', { given: () => `r?at=${t.rDeleted}`, want: 404 }],
    ['... in its second life', { given: () => `r?at=${t.r2}`, want: 'r2' }],
    ['?ts= of a version before T', { given: () => `k?ts=${t.k1}&at=${t.k2}`, want: 'k1' }],
    ['?ts= of a version after T', { given: () => `k?ts=${t.k2}&at=${t.k2 - 1}`, want: 404 }],
  ];
  for (const [name, { given, want }] of reads) {
    it(`GET /nodes/<id>?at=T: ${name}`, async () => {
      const answer = await get(`${nodes}/${given()}`, typed);
      if (want === 404) assert.equal(answer.status, 404, answer.text);
      else {
        assert.equal(answer.status, 200, answer.text);
        assert.equal(answer.body.name, want);
      }
    });
  }

  it('a resource read at T has the ETag and Last-Modified of its version', async () => {
    const version = await get(`${nodes}/k?ts=${t.k1}`);
    const past = await get(`${nodes}/k?at=${t.k2 - 1}`);
    assert.equal(past.headers.get('etag'), version.headers.get('etag'));
    assert.equal(past.headers.get('last-modified'), version.headers.get('last-modified'));
    assert.equal((await get(`${nodes}/k?at=${t.k2 - 1}`, { 'if-none-match': version.headers.get('etag')! })).status, 304);
  });

  it('conditions on a resource at T search its versions up to T, newest first', async () => {
    assert.deepEqual((await get(`${nodes}/k?at=${t.k2}&name=k1,k2`)).body.map((v: { name: string }) => v.name), ['k2', 'k1']);
    assert.deepEqual((await get(`${nodes}/k?at=${t.k2 - 1}&name=k1,k2`)).body.map((v: { name: string }) => v.name), ['k1']);
    assert.equal((await get(`${nodes}/k?at=${t.k1 - 1}&name=k1,k2`, typed)).status, 404);
  });

  it('a resource absent at T is an unknown id: 200 [] to a UNIS-form request', async () => {
    const answer = await get(`${nodes}/g?at=${t.gDeleted}`);
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, []);
  });

  it('expand resolves references as of T', async () => {
    const inlinedAt = async (at: number) => (await get(`${nodes}/k?at=${at}&expand`)).body.ports[0].name;
    assert.equal(await inlinedAt(t.p2 - 1), 'p-old');
    assert.equal(await inlinedAt(t.p2), 'p-new');
    assert.equal(await inlinedAt(now()), 'p-new');
    const listed = (await get(`${nodes}?at=${t.p2 - 1}&id=k&expand`)).body;
    assert.equal(listed[0].ports[0].name, 'p-old');
  });

  // [name, { given, want: the parameter the 400 names }]
  const refusals: [string, { given: string; want: string }][] = [
    ['an instant that is not an integer', { given: 'nodes?at=yesterday', want: 'at' }],
    ['a negative instant', { given: 'nodes?at=-5', want: 'at' }],
    ['a fraction', { given: 'nodes/k?at=1.5', want: 'at' }],
    ['at with since', { given: 'nodes?at=5&since=1', want: 'at' }],
  ];
  for (const [name, { given, want }] of refusals) {
    it(`400 for ${name}, naming "${want}"`, async () => {
      const answer = await get(`${server.url}/${given}`);
      assert.equal(answer.status, 400, answer.text);
      assert.deepEqual(answer.body.error.details.map((d: { path: string }) => d.path), [want]);
    });
  }

  it('400 for at with an event stream, which follows changes from now', async () => {
    const answer = await get(`${nodes}?at=5`, { accept: 'text/event-stream' });
    assert.equal(answer.status, 400);
    assert.deepEqual(answer.body.error.details.map((d: { path: string }) => d.path), ['at']);
  });
});
