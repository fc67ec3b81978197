import assert from 'node:assert/strict';
import { del, get, patch, post } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';

interface Entry {
  id: string;
  change: 'created' | 'updated' | 'deleted';
  before: { id: string; ts: number; name?: string } | null;
  after: { id: string; ts: number; name?: string } | null;
}

/**
 * `GET /<c>?since=T1&until=T2` (docs/time.md, rest-contract §12): one entry per resource that
 * changed in (T1, T2], with its representations at both instants, on the engine under test.
 */
describe('REST: what changed between two instants (since, until)', function () {
  let server: RunningServer;
  let nodes: string;
  const t = {} as Record<'a1' | 'c1' | 'e1' | 'f1' | 'since' | 'a2' | 'b' | 'd' | 'e2' | 'until' | 'g', number>;
  /** The answer's entries by id, and their ids in order. */
  const changes = async (query: string): Promise<{ byId: Map<string, Entry>; ids: string[] }> => {
    const answer = await get(`${nodes}?${query}`);
    assert.equal(answer.status, 200, answer.text);
    const entries = answer.body as Entry[];
    return { byId: new Map(entries.map((e) => [e.id, e])), ids: entries.map((e) => e.id) };
  };

  before(async () => {
    server = await startServer();
    nodes = `${server.url}/nodes`;
    // Before the interval: a, c, e, f exist.
    t.a1 = (await post(nodes, { id: 'a', name: 'a1' })).body.ts;
    t.c1 = (await post(nodes, { id: 'c', name: 'c1', status: 'UP' })).body.ts;
    t.e1 = (await post(nodes, { id: 'e', name: 'e1' })).body.ts;
    t.f1 = (await post(nodes, { id: 'f', name: 'f1' })).body.ts;
    t.since = t.f1;
    // In (since, until]: a updated, b created, c deleted, d created and deleted, e deleted and created again.
    t.a2 = (await patch(`${nodes}/a`, { name: 'a2' })).body.ts;
    t.b = (await post(nodes, { id: 'b', name: 'b1', status: 'UP' })).body.ts;
    assert.equal((await del(`${nodes}/c`)).status, 204);
    t.d = (await post(nodes, { id: 'd', name: 'd1' })).body.ts;
    assert.equal((await del(`${nodes}/d`)).status, 204);
    assert.equal((await del(`${nodes}/e`)).status, 204);
    t.e2 = (await post(nodes, { id: 'e', name: 'e2' })).body.ts;
    t.until = t.e2;
    // After the interval.
    t.g = (await post(nodes, { id: 'g', name: 'g1' })).body.ts;
  });
  after(async () => {
    await server.stop();
  });

  it('one entry per resource changed in (since, until], with its representation at each end', async () => {
    const { byId, ids } = await changes(`since=${t.since}&until=${t.until}`);
    assert.deepEqual([...byId.keys()].sort(), ['a', 'b', 'c', 'e']);
    const summary = (e: Entry) => [e.change, e.before?.name ?? null, e.after?.name ?? null];
    assert.deepEqual(summary(byId.get('a')!), ['updated', 'a1', 'a2']);
    assert.deepEqual(summary(byId.get('b')!), ['created', null, 'b1']);
    assert.deepEqual(summary(byId.get('c')!), ['deleted', 'c1', null]);
    assert.deepEqual(summary(byId.get('e')!), ['updated', 'e1', 'e2']);
    // Whole representations, as a read at each instant answers them.
    assert.deepEqual(byId.get('a')!.before, (await get(`${nodes}/a?at=${t.since}`)).body);
    assert.deepEqual(byId.get('a')!.after, (await get(`${nodes}/a?at=${t.until}`)).body);
    // In the order of each one's last change in the interval.
    assert.deepEqual(ids.filter((id) => id !== 'c'), ['a', 'b', 'e']);
  });

  // [name, { given, want: [id, change] in the answer's order }]
  const cases: [string, { given: () => string; want: [string, string][] }][] = [
    ['the interval is open at since', { given: () => `since=${t.a2}&until=${t.b}`, want: [['b', 'created']] }],
    ['and closed at until', { given: () => `since=${t.a1}&until=${t.a2}`, want: [['c', 'created'], ['e', 'created'], ['f', 'created'], ['a', 'updated']] }],
    ['an empty interval', { given: () => `since=${t.b}&until=${t.b}`, want: [] }],
    ['since alone: until now', { given: () => `since=${t.e2}`, want: [['g', 'created']] }],
    ['until alone: since 0', { given: () => `until=${t.c1}`, want: [['a', 'created'], ['c', 'created']] }],
    ['conditions hold for the representation at until', { given: () => `since=${t.since}&until=${t.until}&name=a2,a1`, want: [['a', 'updated']] }],
    ['... or at since for a deletion', { given: () => `since=${t.since}&until=${t.until}&name=c1`, want: [['c', 'deleted']] }],
    ['... whatever it was', { given: () => `since=${t.since}&until=${t.until}&status=UP`, want: [['b', 'created'], ['c', 'deleted']].sort() as [string, string][] }],
    ['sort', { given: () => `since=${t.since}&until=${t.until}&sort=id:-1`, want: [['e', 'updated'], ['c', 'deleted'], ['b', 'created'], ['a', 'updated']] }],
    ['limit and skip', { given: () => `since=${t.since}&until=${t.until}&sort=id:1&limit=2&skip=1`, want: [['b', 'created'], ['c', 'deleted']] }],
  ];
  for (const [name, { given, want }] of cases) {
    it(`GET /nodes?since&until: ${name}`, async () => {
      const answer = await get(`${nodes}?${given()}`);
      assert.equal(answer.status, 200, answer.text);
      const got = (answer.body as Entry[]).map((e) => [e.id, e.change]);
      assert.deepEqual(name.includes('whatever') ? got.sort() : got, want);
    });
  }

  it('fields project both representations', async () => {
    const { byId } = await changes(`since=${t.since}&until=${t.until}&fields=name&id=a`);
    assert.deepEqual(byId.get('a'), { id: 'a', change: 'updated', before: { name: 'a1' }, after: { name: 'a2' } });
  });

  it('streams a long answer whole', async () => {
    const many = Array.from({ length: 1500 }, (_, i) => ({ id: `m${i}`, name: `m${i}` }));
    const from = (await post(nodes, many[0]!)).body.ts;
    await post(nodes, many.slice(1));
    const { ids } = await changes(`since=${from - 1}&id=${many.map((m) => m.id).slice(0, 3).join(',')}|name=gte=m`);
    assert.equal(ids.length, 1500);
  });

  // [name, { given, want: the parameter the 400 names }]
  const refusals: [string, { given: string; want: string }][] = [
    ['since that is not an instant', { given: 'nodes?since=now', want: 'since' }],
    ['until that is not an instant', { given: 'nodes?until=1e6', want: 'until' }],
    ['since after until', { given: 'nodes?since=9&until=8', want: 'since' }],
    ['since on a single resource', { given: 'nodes/a?since=1', want: 'since' }],
  ];
  for (const [name, { given, want }] of refusals) {
    it(`400 for ${name}, naming "${want}"`, async () => {
      const answer = await get(`${server.url}/${given}`);
      assert.equal(answer.status, 400, answer.text);
      assert.deepEqual(answer.body.error.details.map((d: { path: string }) => d.path), [want]);
    });
  }
});
