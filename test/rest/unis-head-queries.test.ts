import assert from 'node:assert/strict';
import { get, patch, post } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';

/**
 * UNIS HEAD's answers to a second round of its clients' requests (rest-contract §5, revised
 * 2026-11-29), through HTTP: lists newest first (`limit=1` the newest), `fields=neg=`,
 * `a=exists=true|false`, `cert` reserved, `limit=0` no limit. The nodes are posted in one array,
 * so each has a later `ts` than the one before it.
 */
describe('UNIS HEAD queries: newest first, fields=neg=, exists=, cert, limit=0 (rest-contract §5, revised 2026-11-29)', function () {
  let server: RunningServer;
  let nodes: string;
  /** The `ts` of each node as posted. */
  const posted = new Map<string, number>();
  const ids = async (query: string): Promise<string[]> => {
    const answer = await get(`${nodes}?${query}`);
    assert.equal(answer.status, 200, `?${query}: ${answer.text}`);
    return (answer.body as { id: string }[]).map((r) => r.id);
  };

  before(async () => {
    server = await startServer();
    nodes = `${server.url}/nodes`;
    const created = await post(nodes, [
      { id: 'n1', name: 'a', properties: { rack: 'A1' }, ports: [{ href: 'http://h/ports/1', rel: 'full' }], location: { institution: 'IU' } },
      { id: 'n2', name: 'b', properties: { rack: null }, ports: [], location: { institution: 'IU' } },
      // (A list element without `href` would be an embedded resource, stored on its own: rest-contract §10.)
      { id: 'n3', name: 'c', location: { institution: 'MIT' } },
      { id: 'n4', name: 'd', description: 'no ports, no location' },
    ]);
    assert.equal(created.status, 201, created.text);
    for (const node of created.body as { id: string; ts: number }[]) posted.set(node.id, node.ts);
  });
  after(async () => {
    await server.stop();
  });

  describe('without sort, newest first (ts, then id, descending)', () => {
    const table: [string, { given: string; want: (at: Map<string, number>) => [string, string[]] }][] = [
      ['the whole list', { given: '', want: () => ['', ['n4', 'n3', 'n2', 'n1']] }],
      ['limit=1 is the newest', { given: 'limit=1', want: () => ['', ['n4']] }],
      ['limit=2&skip=1: the 2nd and 3rd newest', { given: 'limit=2&skip=1', want: () => ['', ['n3', 'n2']] }],
      ['a condition keeps the order', { given: 'location.institution=IU', want: () => ['', ['n2', 'n1']] }],
      // §12: as the service would have answered at T.
      ['at=T: newest first of the state at T', { given: 'at=', want: (at) => [String(at.get('n3')), ['n3', 'n2', 'n1']] }],
      ['at=T&limit=1: the newest at T', { given: 'limit=1&at=', want: (at) => [String(at.get('n2')), ['n2']] }],
      // A client's sort is unchanged; the default order breaks its ties (newest first among the IU nodes); missing first ascending.
      ['sort=f:1 with ties broken newest first', { given: 'sort=location.institution:1', want: () => ['', ['n4', 'n2', 'n1', 'n3']] }],
      ['sort=f:-1 with ties broken newest first, missing last', { given: 'sort=location.institution:-1', want: () => ['', ['n3', 'n2', 'n1', 'n4']] }],
      ['sort=ts:1 is oldest first', { given: 'sort=ts:1', want: () => ['', ['n1', 'n2', 'n3', 'n4']] }],
    ];
    for (const [name, { given, want }] of table) {
      it(`${name}: ?${given}…`, async () => {
        const [suffix, expected] = want(posted);
        assert.deepEqual(await ids(`${given}${suffix}`), expected);
      });
    }
  });

  describe('a=exists=true / a=exists=false (UNIS HEAD $exists)', () => {
    const table: [string, { given: string; want: string[] }][] = [
      ['present', { given: 'properties.rack=exists=true', want: ['n2', 'n1'] }],
      ['null counts as present, as MongoDB $exists', { given: 'properties.rack=exists=true&properties.rack=null=', want: ['n2'] }],
      ['absent', { given: 'properties.rack=exists=false', want: ['n4', 'n3'] }],
      ['any letter case, 1 and 0', { given: 'description=exists=TRUE|name=exists=0', want: ['n4'] }],
      ['a list is present, even empty', { given: 'ports=exists=true', want: ['n2', 'n1'] }],
      ['through a list the schema declares', { given: 'ports.href=exists=true', want: ['n1'] }],
      ['absent: in no element of the list, or no list', { given: 'ports.href=exists=false', want: ['n4', 'n3', 'n2'] }],
      ['a member no element has', { given: 'ports.name=exists=1', want: [] }],
      ['id is always present', { given: 'id=exists=true', want: ['n4', 'n3', 'n2', 'n1'] }],
      ['so never absent', { given: 'id=exists=false', want: [] }],
      ['an encoded operator, as an encoder writes it', { given: 'location=exists%3Dfalse', want: ['n4'] }],
      ['string: asks for the text', { given: 'name=string:exists=true', want: [] }],
    ];
    for (const [name, { given, want }] of table) {
      it(`${name}: ?${given}`, async () => assert.deepEqual(await ids(given), want));
    }

    for (const given of ['name=exists=maybe', 'name=exists=', 'name=a|description=exists=yes']) {
      it(`a value that is no switch is a 400 naming the parameter: ?${given}`, async () => {
        const answer = await get(`${nodes}?${given}`);
        assert.equal(answer.status, 400, answer.text);
        assert.equal(answer.body.error.details[0].path, 'name');
        assert.match(answer.text, /exists= takes true or false/);
      });
    }
  });

  describe('fields=neg= (every field except those)', () => {
    it('on a list: dotted paths, through lists element by element', async () => {
      const [whole] = (await get(`${nodes}?name=a`)).body as Record<string, unknown>[];
      const answer = await get(`${nodes}?name=a&fields=neg=ports.href,location,properties.rack`);
      assert.equal(answer.status, 200, answer.text);
      const { location, ...rest } = whole!;
      assert.ok(location);
      assert.deepEqual(answer.body, [{ ...rest, properties: {}, ports: [{ rel: 'full' }] }]);
    });

    it('on one resource: its own ETag, unlike the whole one and the inclusion of the same fields', async () => {
      // Typed requests: in UNIS form a projection of one resource is a one-element array (rest-contract §3, revised 2026-11-29).
      const typed = { accept: 'application/json' };
      const [whole, except, only] = await Promise.all([get(`${nodes}/n1`, typed), get(`${nodes}/n1?fields=neg=ports,properties`, typed), get(`${nodes}/n1?fields=ports,properties`, typed)]);
      assert.equal(except.status, 200, except.text);
      assert.deepEqual(Object.keys(except.body).sort(), Object.keys(whole.body).filter((k) => k !== 'ports' && k !== 'properties').sort());
      const tags = new Set([whole.headers.get('etag'), except.headers.get('etag'), only.headers.get('etag')]);
      assert.equal(tags.size, 3, [...tags].join(' '));
      const again = await get(`${nodes}/n1?fields=neg=ports,properties`, { ...typed, 'if-none-match': except.headers.get('etag')! });
      assert.equal(again.status, 304);
    });

    it('fields=neg= with no field is a 400 naming fields', async () => {
      const answer = await get(`${nodes}?fields=neg=`);
      assert.equal(answer.status, 400, answer.text);
      assert.equal(answer.body.error.details[0].path, 'fields');
    });
  });

  it('cert is reserved and ignored, as UNIS HEAD ignores it', async () => {
    assert.deepEqual(await ids('cert=/etc/ssl/client.pem'), ['n4', 'n3', 'n2', 'n1']);
    assert.deepEqual(await ids('name=b&cert='), ['n2']);
  });

  describe('limit=0 is no limit, as MongoDB and UNIS read it', () => {
    before(async () => {
      // Two more versions of n1: it becomes the newest.
      for (const rack of ['A2', 'A3']) assert.equal((await patch(`${nodes}/n1`, { properties: { rack } })).status, 200);
    });
    const table: [string, { given: string; want: string[] }][] = [
      ['a list', { given: `limit=0`, want: ['n1', 'n4', 'n3', 'n2'] }],
      ['with skip', { given: `limit=0&skip=1`, want: ['n4', 'n3', 'n2'] }],
      ['with a condition and a sort', { given: `location.institution=IU&sort=name:-1&limit=0`, want: ['n2', 'n1'] }],
    ];
    for (const [name, { given, want }] of table) {
      it(`${name}: ?${given}`, async () => assert.deepEqual(await ids(given), want));
    }

    it('the versions of one resource: all of them, newest first', async () => {
      const answer = await get(`${nodes}/n1?id=n1&limit=0`);
      assert.equal(answer.status, 200, answer.text);
      assert.deepEqual(answer.body.map((v: { properties: { rack: string } }) => v.properties.rack), ['A3', 'A2', 'A1']);
    });

    it('at=T: the whole state at T', async () => {
      assert.deepEqual(await ids(`at=${posted.get('n4')}&limit=0`), ['n4', 'n3', 'n2', 'n1']);
    });

    it('since: every change, in the order of the last change in the interval (oldest first)', async () => {
      const answer = await get(`${nodes}?since=0&limit=0`);
      assert.equal(answer.status, 200, answer.text);
      assert.deepEqual(answer.body.map((c: { id: string }) => c.id), ['n2', 'n3', 'n4', 'n1']);
      const first = await get(`${nodes}?since=0&limit=1`);
      assert.deepEqual(first.body.map((c: { id: string }) => c.id), ['n2']);
    });
  });
});
