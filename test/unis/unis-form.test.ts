import assert from 'node:assert/strict';
import { get, post } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { StreamClient } from '../helpers/subscribers.js';
import { TYPED_CLIENTS, unisClients, unisSchema, type ClientHeaders } from '../helpers/unis-clients.js';
import { wire } from '../helpers/wire.js';

/**
 * UNIS-form answers where clients can tell (rest-contract §3, §4, §5, §14, revised 2026-11-28),
 * each rule held against every UNIS client's own headers (test/helpers/unis-clients.ts) and the
 * typed clients beside them.
 */
const TYPED = { accept: 'application/topology+json' };
const headersOf = (client: ClientHeaders, extra: [string, string][] = []): (readonly [string, string])[] => [...client.write, ...extra];

describe('UNIS form: answers where UNIS clients can tell', function () {
  let server: RunningServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.stop();
  });

  describe('PUT in UNIS\'s media type updates as UNIS HEAD did; typed PUT replaces (§4)', function () {
    const cases: [string, { given: ClientHeaders; want: 'update' | 'replace' }][] = [
      ...unisClients('node').map(([name, given]): [string, { given: ClientHeaders; want: 'update' | 'replace' }] => [name, { given, want: given.unisBody ? 'update' : 'replace' }]),
      ...TYPED_CLIENTS.map(([name, given]): [string, { given: ClientHeaders; want: 'update' | 'replace' }] => [name, { given, want: 'replace' }]),
    ];
    for (const [name, { given, want }] of cases) {
      it(`${name}: ${want}`, async () => {
        const id = `put-${name.replace(/\W+/g, '-')}`;
        await post(`${server.url}/nodes`, { id, $schema: unisSchema('node'), name: 'first', description: 'kept by an update', location: { institution: 'IU', city: 'Bloomington' } }, TYPED);
        const answer = await wire(server.url, { method: 'PUT', target: `/nodes/${id}`, headers: headersOf(given), body: JSON.stringify({ name: 'second', location: { city: 'Indianapolis' } }) });
        assert.equal(answer.status, 201, answer.text);
        assert.equal(answer.headers.get('location'), `${server.url}/nodes/${id}`);
        const stored = (await get(`${server.url}/nodes/${id}`, TYPED)).body;
        assert.deepEqual(answer.body, stored);
        assert.equal(stored.name, 'second');
        // Top-level members are replaced whole, as UNIS's `$set` of the body's members.
        assert.deepEqual(stored.location, { city: 'Indianapolis' });
        if (want === 'update') {
          assert.equal(stored.description, 'kept by an update');
          assert.equal(stored.$schema, unisSchema('node'), 'the $schema the client sent stays');
        } else {
          assert.equal(stored.description, undefined);
        }
        // Either way a new version: the first one stays readable.
        assert.equal((await get(`${server.url}/nodes/${id}?ts=gt=0`, TYPED)).body.length, 2);
      });
    }

    const aiohttp = unisClients('node')[0]![1];
    const rules: [string, { given: { create: unknown; put: unknown; headers?: [string, string][]; collection?: string }; want: { status: number; path?: string; check?: (stored: any, created: any) => void } }][] = [
      ['a touch keeps every field under a new ts', { given: { create: { name: 't', description: 'd' }, put: { id: '<id>' } }, want: { status: 201, check: (stored, created) => assert.ok(stored.ts > created.ts && stored.description === 'd' && stored.name === 't') } }],
      ['a touch with ts, $schema and selfRef is still a touch', { given: { create: { name: 't', description: 'd' }, put: { id: '<id>', $schema: unisSchema('node'), selfRef: '<selfRef>' } }, want: { status: 201, check: (stored) => assert.equal(stored.description, 'd') } }],
      ['a body ts equal to a stored version is a replay: 409', { given: { create: { name: 'r' }, put: { name: 'again', ts: '<ts>' } }, want: { status: 409, path: '/ts' } }],
      ['If-Match of the newest version: stored', { given: { create: { name: 'm' }, put: { name: 'matched' }, headers: [['If-Match', '<etag>']] }, want: { status: 201, check: (stored) => assert.equal(stored.name, 'matched') } }],
      ['If-Match of another version: 412', { given: { create: { name: 'm' }, put: { name: 'stale' }, headers: [['If-Match', '"1"']] }, want: { status: 412 } }],
      ['a body id other than the path\'s: 400', { given: { create: { name: 'i' }, put: { id: 'someone-else', name: 'x' } }, want: { status: 400, path: '/id' } }],
      ['a member that fails validation: 400 naming it', { given: { create: { name: 'v' }, put: { lifetimes: 'soon' } }, want: { status: 400, path: '/lifetimes' } }],
      [
        'the result is validated whole: a link made undirected keeps its source/sink endpoints, a 400',
        { given: { collection: 'links', create: { directed: true, endpoints: { source: { href: 'http://h/ports/a', rel: 'full' }, sink: { href: 'http://h/ports/b', rel: 'full' } } }, put: { directed: false } }, want: { status: 400, path: '/endpoints' } },
      ],
      ['a profile of another kind: 400', { given: { create: { name: 'p' }, put: { name: 'x' }, headers: [['Content-Type', `application/perfsonar+json; profile=${unisSchema('port')}`]] }, want: { status: 400, path: 'Content-Type' } }],
    ];
    for (const [name, { given, want }] of rules) {
      it(`UNISrt's headers: ${name}`, async () => {
        const collection = given.collection ?? 'nodes';
        const created = (await post(`${server.url}/${collection}`, given.create, TYPED)).body;
        const fill = (value: unknown): unknown => (value === '<id>' ? created.id : value === '<ts>' ? created.ts : value === '<selfRef>' ? created.selfRef : value);
        const body = Object.fromEntries(Object.entries(given.put as Record<string, unknown>).map(([k, v]) => [k, fill(v)]));
        const extra = (given.headers ?? []).map(([k, v]): [string, string] => [k, v === '<etag>' ? `"${created.ts}"` : v]);
        const headers = [...aiohttp.write.filter(([k]) => !extra.some(([e]) => e.toLowerCase() === k.toLowerCase())), ...extra];
        const answer = await wire(server.url, { method: 'PUT', target: `/${collection}/${created.id}`, headers, body: JSON.stringify(body) });
        assert.equal(answer.status, want.status, answer.text);
        const stored = (await get(`${server.url}/${collection}/${created.id}`, TYPED)).body;
        if (want.path !== undefined) {
          assert.ok(answer.body.error.details.some((d: { path: string }) => d.path === want.path), answer.text);
          assert.deepEqual(stored, created, 'nothing stored');
        }
        want.check?.(stored, created);
      });
    }

    it('an unknown id stays 404 in UNIS\'s media type', async () => {
      const answer = await wire(server.url, { method: 'PUT', target: '/nodes/never-written', headers: aiohttp.write, body: '{"name":"x"}' });
      assert.equal(answer.status, 404, answer.text);
    });
  });

  describe('DELETE of an unknown or deleted id: 204 in UNIS form, 404 typed (§3)', function () {
    const cases: [string, { given: ClientHeaders; want: 204 | 404 }][] = [...unisClients('node'), ...TYPED_CLIENTS].map(([name, given]) => [name, { given, want: given.typed ? 404 : 204 }]);
    for (const [name, { given, want }] of cases) {
      it(`${name}: ${want}`, async () => {
        const gone = (await post(`${server.url}/nodes`, { name: 'to delete' }, TYPED)).body;
        const first = await wire(server.url, { method: 'DELETE', target: `/nodes/${gone.id}`, headers: given.write });
        assert.equal(first.status, 204, first.text);
        for (const target of [`/nodes/${gone.id}`, '/nodes/never-written']) {
          const answer = await wire(server.url, { method: 'DELETE', target, headers: given.write });
          assert.equal(answer.status, want, `${target}: ${answer.text}`);
          if (want === 204) assert.equal(answer.text, '');
          else assert.equal(answer.body.error.status, 404);
        }
      });
    }

    it('a conditional DELETE (If-Match) of an unknown id stays 404 in UNIS form', async () => {
      const answer = await wire(server.url, { method: 'DELETE', target: '/nodes/never-written', headers: [['Accept', 'application/perfsonar+json'], ['If-Match', '"1"']] });
      assert.equal(answer.status, 404, answer.text);
    });
  });

  describe('POST of a one-element array: the bare object with Location in UNIS form, the array typed (§4)', function () {
    const cases: [string, { given: ClientHeaders; want: 'object' | 'array' }][] = [...unisClients('port'), ...TYPED_CLIENTS].map(([name, given]) => [name, { given, want: given.typed ? 'array' : 'object' }]);
    for (const [name, { given, want }] of cases) {
      it(`${name}: ${want}`, async () => {
        const id = `one-${name.replace(/\W+/g, '-')}`;
        const answer = await wire(server.url, { method: 'POST', target: '/ports', headers: given.write, body: JSON.stringify([{ id, $schema: unisSchema('port'), name: 'eth0' }]) });
        assert.equal(answer.status, 201, answer.text);
        const stored = (await get(`${server.url}/ports/${id}`, TYPED)).body;
        if (want === 'object') {
          assert.deepEqual(answer.body, stored);
          assert.equal(answer.headers.get('location'), stored.selfRef);
        } else {
          assert.deepEqual(answer.body, [stored]);
          assert.equal(answer.headers.get('location'), null);
        }
        // Two elements are an array whatever the form.
        const two = await wire(server.url, { method: 'POST', target: '/ports', headers: given.write, body: JSON.stringify([{ name: 'a' }, { name: 'b' }]) });
        assert.equal(two.status, 201, two.text);
        assert.equal(two.body.length, 2);
      });
    }

    it('an error in a one-element array still names its element (/0/…)', async () => {
      const answer = await wire(server.url, { method: 'POST', target: '/ports', headers: unisClients('port')[0]![1].write, body: JSON.stringify([{ capacity: 'fast' }]) });
      assert.equal(answer.status, 400);
      assert.equal(answer.body.error.details[0].path, '/0/capacity');
    });
  });

  describe('measurement data in UNIS\'s forms (§14)', function () {
    const DATA = 'http://unis.crest.iu.edu/schema/20160630/data#';
    const msClient = unisClients('node').find(([name]) => name === 'BLiPP ms_client')![1];
    const series = async (name: string): Promise<string> => {
      const metadata = (await post(`${server.url}/metadata`, { subject: { href: `${server.url}/nodes/n`, rel: 'full' }, eventType: `ps:tools:test:${name}` }, TYPED)).body;
      assert.equal((await post(`${server.url}/events`, { metadata_URL: `${server.url}/metadata/${metadata.id}`, collection_size: 100 }, TYPED)).status, 201);
      return metadata.id as string;
    };
    const postData = (mid: string, body: unknown) => wire(server.url, { method: 'POST', target: `/data/${mid}`, headers: [...msClient.write.filter(([k]) => k !== 'content-type'), ['content-type', `application/perfsonar+json profile=${DATA}`]], body: JSON.stringify(body) });

    const bodies: [string, { given: (mid: string) => unknown; want: { status: number; stored?: number; path?: string } }][] = [
      ['{mid, data}', { given: (mid) => ({ mid, data: [{ ts: 1, value: 1 }] }), want: { status: 201, stored: 1 } }],
      ['[{mid, data}, …]', { given: (mid) => [{ mid, data: [{ ts: 2, value: 2 }] }, { mid, data: [{ ts: 3, value: 3 }] }], want: { status: 201, stored: 2 } }],
      ['[{data}] (the mid of the address)', { given: () => [{ data: [{ ts: 4, value: 4 }] }], want: { status: 201, stored: 1 } }],
      ['{data}', { given: () => ({ data: [{ ts: 5, value: 5 }] }), want: { status: 201, stored: 1 } }],
      ['another mid in an array: 400 naming it', { given: (mid) => [{ mid, data: [{ ts: 6, value: 6 }] }, { mid: 'other', data: [{ ts: 7, value: 7 }] }], want: { status: 400, path: '/1/mid' } }],
      ['another mid in the first element', { given: () => [{ mid: 'other', data: [] }], want: { status: 400, path: '/0/mid' } }],
      ['another mid in an object', { given: () => ({ mid: 'other', data: [] }), want: { status: 400, path: '/mid' } }],
    ];
    for (const [name, { given, want }] of bodies) {
      it(`POST /data/<mid> takes ${name}`, async () => {
        const mid = await series(`post-${name.replace(/\W+/g, '-')}`);
        const answer = await postData(mid, given(mid));
        assert.equal(answer.status, want.status, answer.text);
        if (want.stored !== undefined) assert.equal(answer.body.stored, want.stored);
        if (want.path !== undefined) {
          assert.deepEqual(answer.body.error.details.map((d: { path: string }) => d.path), [want.path]);
          assert.deepEqual((await get(`${server.url}/data/${mid}`, TYPED)).body, [], 'nothing stored');
        }
      });
    }

    const reads: [string, { given: ClientHeaders; query: string; want: number[] }][] = [
      ...[...unisClients('node'), ...TYPED_CLIENTS].map(([name, given]): [string, { given: ClientHeaders; query: string; want: number[] }] => [`${name}, ?limit=3`, { given, query: '?limit=3', want: given.typed ? [9, 8, 7] : [7, 8, 9] }]),
      ...[...unisClients('node').slice(0, 1), ...TYPED_CLIENTS.slice(0, 1)].flatMap(([name, given]): [string, { given: ClientHeaders; query: string; want: number[] }][] => [
        [`${name}, no limit`, { given, query: '', want: given.typed ? [9, 8, 7, 6, 5, 4, 3, 2, 1] : [1, 2, 3, 4, 5, 6, 7, 8, 9] }],
        [`${name}, a condition (a page)`, { given, query: '?value=gte=2&limit=2', want: given.typed ? [9, 8] : [8, 9] }],
        [`${name}, a limit beyond a page (streamed)`, { given, query: '?limit=10001&value=lt=4', want: given.typed ? [3, 2, 1] : [1, 2, 3] }],
        [`${name}, sort decides`, { given, query: '?sort=ts:-1&limit=3', want: [9, 8, 7] }],
        [`${name}, sort ascending`, { given, query: '?sort=ts:1&limit=3', want: [1, 2, 3] }],
      ]),
    ];
    it('GET /data/<mid>: in UNIS form without sort, the newest points up to limit, oldest first', async () => {
      const mid = await series('read');
      assert.equal((await postData(mid, { data: [1, 2, 3, 4, 5, 6, 7, 8, 9].map((ts) => ({ ts, value: ts })) })).status, 201);
      for (const [name, { given, query, want }] of reads) {
        const answer = await wire(server.url, { method: 'GET', target: `/data/${mid}${query}`, headers: given.read });
        assert.equal(answer.status, 200, `${name}: ${answer.text}`);
        assert.deepEqual((answer.body as { ts: number }[]).map((p) => p.ts), want, name);
      }
    });
  });

  describe('lt=/lte=/gt=/gte= with a value that reads as a number compare numbers whatever the field (§5)', function () {
    before(async () => {
      await post(
        `${server.url}/nodes`,
        [
          { id: 'rank-99', properties: { rank: 99 } },
          { id: 'rank-100', properties: { rank: 100 } },
          { id: 'rank-250', properties: { rank: 250 } },
          { id: 'rank-text-150', properties: { rank: '150' } },
          { id: 'rank-text-abc', properties: { rank: 'abc' } },
        ],
        TYPED,
      );
    });
    const queries: [string, { given: string; want: string[] }][] = [
      ['gte=100', { given: 'properties.rank=gte=100', want: ['rank-100', 'rank-250'] }],
      ['gt=100', { given: 'properties.rank=gt=100', want: ['rank-250'] }],
      ['lt=100', { given: 'properties.rank=lt=100', want: ['rank-99'] }],
      ['lte=1e2', { given: 'properties.rank=lte=1e2', want: ['rank-100', 'rank-99'] }],
      ['gte=100.5', { given: 'properties.rank=gte=100.5', want: ['rank-250'] }],
      ['gte=-5', { given: 'properties.rank=gte=-5', want: ['rank-100', 'rank-250', 'rank-99'] }],
      ['string: forces a string comparison', { given: 'properties.rank=gte=string:100', want: ['rank-text-150', 'rank-text-abc'] }],
      ['a value that is no number compares as a string', { given: 'properties.rank=gte=a', want: ['rank-text-abc'] }],
      ['equality stays by the field\'s type (a string here)', { given: 'properties.rank=150', want: ['rank-text-150'] }],
      ['dlt-web\'s encoded form', { given: 'properties.rank=gte%3D100', want: ['rank-100', 'rank-250'] }],
    ];
    const clients = [...unisClients('node'), ...TYPED_CLIENTS];
    for (const [name, { given, want }] of queries) {
      it(`${name}: every client gets the same answer`, async () => {
        for (const [client, headers] of clients) {
          const answer = await wire(server.url, { method: 'GET', target: `/nodes?${given}&id=reg=^rank-`, headers: headers.read });
          assert.equal(answer.status, 200, `${client}: ${answer.text}`);
          assert.deepEqual((answer.body as { id: string }[]).map((n) => n.id).sort(), want, client);
        }
      });
    }

    it('the same comparisons on an event stream select the same changes', async () => {
      const stream = await StreamClient.open(`${server.url}/nodes?properties.rank=gte=100`);
      try {
        await post(`${server.url}/nodes`, [{ id: 'rank-s-5', properties: { rank: 5 } }, { id: 'rank-s-500', properties: { rank: 500 } }, { id: 'rank-s-text', properties: { rank: '900' } }], TYPED);
        const [event] = await stream.atLeast(1);
        await new Promise((resolve) => setTimeout(resolve, 200));
        assert.deepEqual(stream.events.map((e) => e.data.id), ['rank-s-500']);
        assert.equal(event!.event, 'POST');
      } finally {
        stream.close();
      }
    });
  });
});
