import assert from 'node:assert/strict';
import { hashToken } from '../../server/tokens.js';
import { del, get, post, request, type Answer } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { eventually } from '../helpers/wait.js';

const DATUM = 'http://unis.crest.iu.edu/schema/20160630/datum#';
const TSDATUM = 'http://unis.crest.iu.edu/schema/20160630/tsdatum#';
const nowMicros = () => Date.now() * 1000;

/** The measurement store (docs/measurements.md) through HTTP, on the engine under test. */
describe('measurement store: /events and /data', function () {
  let server: RunningServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.stop();
  });

  /** A metadata resource and its series; `datumSchema` as the metadata names it. */
  async function series(size: number, ttl = 0, datumSchema: string | null = DATUM): Promise<string> {
    const metadata = (await post(`${server.url}/metadata`, { subject: { href: `${server.url}/nodes/n1`, rel: 'full' }, eventType: 'cpu', ...(datumSchema ? { parameters: { datumSchema } } : {}) })).body;
    const registered = await post(`${server.url}/events`, { metadata_URL: metadata.selfRef, collection_size: size, ttl });
    assert.equal(registered.status, 201, registered.text);
    assert.equal(registered.headers.get('location'), `${server.url}/data/${metadata.id}`);
    return metadata.id as string;
  }
  // Typed reads: newest first unless sorted (UNIS-form reads, oldest first: test/unis/unis-form.test.ts).
  const points = (mid: string, query = ''): Promise<Answer> => get(`${server.url}/data/${mid}${query}`, { accept: 'application/json' });
  const tsOf = (answer: Answer): number[] => (answer.body as { ts: number }[]).map((p) => p.ts);

  it('registers a series, appends batches, and answers the newest points first', async () => {
    const mid = await series(100);
    const first = await post(`${server.url}/data`, [{ mid, data: [1, 2, 3].map((ts) => ({ ts, value: ts * 10 })) }]);
    assert.equal(first.status, 201, first.text);
    assert.deepEqual(first.body, { stored: 3, series: [{ mid, stored: 3, duplicates: 0, expired: 0, dropped: 0 }] });
    assert.equal((await post(`${server.url}/data/${mid}`, { data: [{ ts: 4.5, value: 45, unit: 'percent' }] })).status, 201);
    const answer = await points(mid);
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, [{ ts: 4.5, value: 45, unit: 'percent' }, { ts: 3, value: 30 }, { ts: 2, value: 20 }, { ts: 1, value: 10 }]);
  });

  it('keeps at most collection_size points, dropping the oldest as data arrives', async () => {
    const mid = await series(5);
    await post(`${server.url}/data/${mid}`, { data: [1, 2, 3, 4].map((ts) => ({ ts, value: ts })) });
    const over = await post(`${server.url}/data/${mid}`, { data: [5, 6, 7].map((ts) => ({ ts, value: ts })) });
    assert.deepEqual(over.body.series[0], { mid, stored: 3, duplicates: 0, expired: 0, dropped: 2 });
    assert.deepEqual(tsOf(await points(mid)), [7, 6, 5, 4, 3]);
    // A batch larger than the cap keeps its newest points.
    await post(`${server.url}/data/${mid}`, { data: [10, 11, 12, 13, 14, 15, 16].map((ts) => ({ ts, value: ts })) });
    assert.deepEqual(tsOf(await points(mid)), [16, 15, 14, 13, 12]);
    const [summary] = (await get(`${server.url}/events?mids=${mid}`)).body;
    assert.equal(summary.count, 5);
    assert.deepEqual([summary.first, summary.last, summary.generic.count, summary.generic.max], [12, 16, 5, 5]);
    // A smaller cap applies at once.
    assert.equal((await post(`${server.url}/events`, { metadata_URL: `${server.url}/metadata/${mid}`, collection_size: 2 })).status, 200);
    assert.deepEqual(tsOf(await points(mid)), [16, 15]);
  });

  it('ignores a point whose (mid, ts) is stored already, so a re-sent batch stores nothing twice', async () => {
    const mid = await series(100);
    const batch = [{ mid, data: [{ ts: 1, value: 1 }, { ts: 2, value: 2 }] }];
    await post(`${server.url}/data`, batch);
    const again = await post(`${server.url}/data`, [{ mid, data: [...batch[0]!.data, { ts: 3, value: 3 }, { ts: 3, value: 99 }] }]);
    assert.deepEqual(again.body.series[0], { mid, stored: 1, duplicates: 3, expired: 0, dropped: 0 });
    assert.deepEqual(await points(mid, '?sort=ts:1').then((a) => a.body), [{ ts: 1, value: 1 }, { ts: 2, value: 2 }, { ts: 3, value: 3 }]);
  });

  it('honours ttl: expired points are not stored, not answered, not counted, and pruned', async () => {
    const mid = await series(100, 3600);
    const now = nowMicros();
    const posted = await post(`${server.url}/data/${mid}`, { data: [{ ts: now - 7200e6, value: 'old' }, { ts: now - 100e6, value: 'minutes ago' }, { ts: now, value: 'now' }] });
    assert.deepEqual(posted.body.series[0], { mid, stored: 2, duplicates: 0, expired: 1, dropped: 0 });
    assert.equal((await points(mid)).body.length, 2);
    // A ttl of 10 s: the point of 100 s ago has expired; the registration prunes it.
    assert.equal((await post(`${server.url}/events`, { metadata_URL: `${server.url}/metadata/${mid}`, collection_size: 100, ttl: 10 })).status, 200);
    assert.deepEqual((await points(mid)).body, [{ ts: now, value: 'now' }]);
    const [summary] = (await get(`${server.url}/events?mids=${mid}`)).body;
    assert.deepEqual([summary.count, summary.generic.count], [1, 1]);
  });

  it('queries points with the query language over ts and value, sort, limit and skip', async () => {
    const mid = await series(1000);
    await post(`${server.url}/data/${mid}`, { data: Array.from({ length: 20 }, (_, i) => ({ ts: 1000 + i, value: i % 5 })) });
    const cases: [string, number[]][] = [
      ['?limit=3', [1019, 1018, 1017]],
      ['?limit=2&skip=1', [1018, 1017]],
      ['?ts=gte=1015&ts=lt=1017', [1016, 1015]],
      ['?ts=gt%3D1017.5', [1019, 1018]],
      ['?value=4&ts=lte=1010', [1009, 1004]],
      ['?value=gt=3|ts=1000&sort=ts:1', [1000, 1004, 1009, 1014, 1019]],
      ['?value=0,1&limit=3', [1016, 1015, 1011]],
      ['?sort=value:-1,ts:1&limit=2', [1004, 1009]],
      ['?value=string:4', []],
    ];
    for (const [query, expected] of cases) assert.deepEqual(tsOf(await points(mid, query)), expected, query);
  });

  it('answers 1,000 points unless limit says otherwise', async () => {
    const mid = await series(5000);
    await post(`${server.url}/data/${mid}`, { data: Array.from({ length: 1500 }, (_, i) => ({ ts: i, value: i })) });
    assert.equal((await points(mid)).body.length, 1000);
    assert.equal((await points(mid, '?limit=1200')).body.length, 1200);
    // Beyond 10,000 the answer is streamed instead of aggregated: the same points, in the same order.
    const streamed = await points(mid, '?limit=10001&sort=value:-1');
    assert.equal(streamed.body.length, 1500);
    assert.deepEqual(streamed.body.slice(0, 3), (await points(mid, '?limit=3&sort=value:-1')).body);
    assert.deepEqual(tsOf(streamed).slice(0, 3), [1499, 1498, 1497]);
  });

  it('lists series per metadata with counts, first and last ts, within ts=gte= and ts=lte=', async () => {
    const a = await series(100);
    const b = await series(100);
    await post(`${server.url}/data`, [{ mid: a, data: [10, 20, 30].map((ts) => ({ ts, value: 1 })) }, { mid: b, data: [{ ts: 15, value: 2 }] }]);
    const both = (await get(`${server.url}/events?mids=${a},${b},unknown`)).body as { mid: string; count: number; first: number; last: number }[];
    assert.deepEqual(
      both.map((s) => [s.mid, s.count, s.first, s.last]).sort(),
      [[a, 3, 10, 30], [b, 1, 15, 15]].sort(),
    );
    const [ranged] = (await get(`${server.url}/events?mids=${a}&ts=gte=15&ts=lte=30`)).body;
    assert.deepEqual([ranged.count, ranged.first, ranged.last, ranged.queried], [2, 20, 30, { startTime: 15, endTime: 30, numRecords: 2 }]);
    assert.deepEqual((await get(`${server.url}/events?mids=unknown`)).body, []);
    const all = (await get(`${server.url}/events`)).body as { mid: string }[];
    assert.ok(all.some((s) => s.mid === a) && all.some((s) => s.mid === b));
    assert.equal((await get(`${server.url}/events/${a}`)).body.count, 3);
  });

  it('deletes a series with its points and its registration', async () => {
    const mid = await series(10);
    await post(`${server.url}/data/${mid}`, { data: [{ ts: 1, value: 1 }] });
    assert.equal((await del(`${server.url}/data/${mid}`)).status, 204);
    assert.equal((await points(mid)).status, 404);
    assert.deepEqual((await get(`${server.url}/events?mids=${mid}`)).body, []);
    assert.equal((await del(`${server.url}/events/${mid}`)).status, 404);
    // Registered again, it starts empty.
    assert.equal((await post(`${server.url}/events`, { metadata_URL: `${server.url}/metadata/${mid}`, collection_size: 10 })).status, 201);
    assert.deepEqual((await points(mid)).body, []);
    assert.equal((await del(`${server.url}/events/${mid}`)).status, 204);
  });

  it('checks points against the datumSchema the metadata names, and the {ts, value} shape otherwise', async () => {
    const datum = await series(10, 0, DATUM);
    const tsdatum = await series(10, 0, TSDATUM);
    const plain = await series(10, 0, null);
    const cases: [string, string, unknown, string[]][] = [
      ['datum: ts only is enough', datum, { data: [{ ts: 1 }] }, []],
      ['datum: missing ts', datum, { data: [{ value: 1 }] }, ['/data/0/ts']],
      ['datum: ts a string', datum, { data: [{ ts: '1', value: 1 }] }, ['/data/0/ts']],
      ['tsdatum: needs a numeric v', tsdatum, { data: [{ ts: 1, v: 2 }, { ts: 2 }, { ts: 3, v: 'x' }] }, ['/data/1/v', '/data/2/v']],
      ['no datumSchema: needs value', plain, { data: [{ ts: 1, value: 0 }, { ts: 2 }, { ts: 3, value: null }] }, ['/data/1/value', '/data/2/value']],
      ['a point that is no object', plain, { data: [{ ts: 1, value: 1 }, 5, [1]] }, ['/data/1', '/data/2']],
      ['data missing', plain, { points: [] }, ['/data']],
      ['data not an array', plain, { data: { ts: 1, value: 1 } }, ['/data']],
      ['ts beyond 2^53', plain, { data: [{ ts: 2 ** 60, value: 1 }] }, ['/data/0/ts']],
    ];
    for (const [what, mid, body, pointers] of cases) {
      const answer = await post(`${server.url}/data/${mid}`, body);
      if (pointers.length === 0) {
        assert.equal(answer.status, 201, `${what}: ${answer.text}`);
        continue;
      }
      assert.equal(answer.status, 400, `${what}: ${answer.text}`);
      assert.deepEqual(answer.body.error.details.map((d: { path: string }) => d.path), pointers, what);
    }
    // All or nothing: a bad point in one batch stores none of another.
    const bad = await post(`${server.url}/data`, [{ mid: plain, data: [{ ts: 100, value: 1 }] }, { mid: datum, data: [{ value: 1 }] }]);
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body.error.details, [{ path: '/1/data/0/ts', message: 'is required (datum)' }]);
    assert.deepEqual(tsOf(await points(plain)), []);
  });

  it('refuses bad requests with 4xx answers that name the JSON pointer or parameter', async () => {
    const mid = await series(10);
    const cases: [string, () => Promise<Answer>, number, string | undefined][] = [
      ['unknown mid in POST /data', () => post(`${server.url}/data`, [{ mid, data: [] }, { mid: 'no-such-series', data: [{ ts: 1, value: 1 }] }]), 404, '/1/mid'],
      ['unknown mid in the address', () => post(`${server.url}/data/no-such-series`, { data: [{ ts: 1, value: 1 }] }), 404, undefined],
      ['mid missing', () => post(`${server.url}/data`, [{ data: [] }]), 400, '/0/mid'],
      ['mid of the body differs from the address', () => post(`${server.url}/data/${mid}`, { mid: 'other', data: [] }), 400, '/mid'],
      ['a batch that is no object', () => post(`${server.url}/data`, ['x']), 400, '/0'],
      ['malformed JSON', () => request('POST', `${server.url}/data/${mid}`, { raw: '{"data": [' }), 400, undefined],
      ['a Content-Type that is no JSON', () => request('POST', `${server.url}/data/${mid}`, { raw: 'ts=1', headers: { 'content-type': 'text/plain' } }), 415, 'Content-Type'],
      // Typed; in UNIS form (no Accept) UNIS's 200 [] (rest-contract §14, revised 2026-11-29).
      ['GET of an unknown series', () => get(`${server.url}/data/no-such-series`, { accept: 'application/json' }), 404, undefined],
      ['a condition on another field', () => get(`${server.url}/data/${mid}?name=x`), 400, 'name'],
      ['sort by another field', () => get(`${server.url}/data/${mid}?sort=name:1`), 400, 'sort'],
      ['fields=', () => get(`${server.url}/data/${mid}?fields=ts`), 400, 'fields'],
      ['ts compared with text', () => get(`${server.url}/data/${mid}?ts=gte=yesterday`), 400, 'ts'],
      ['a bad limit', () => get(`${server.url}/data/${mid}?limit=-1`), 400, 'limit'],
      ['at on data points', () => get(`${server.url}/data/${mid}?at=5`), 400, 'at'],
      ['since on data points', () => get(`${server.url}/data/${mid}?since=5`), 400, 'since'],
      ['at on series', () => get(`${server.url}/events?at=5`), 400, 'at'],
      ['POST /events without metadata_URL', () => post(`${server.url}/events`, { collection_size: 10 }), 400, '/metadata_URL'],
      ['POST /events of an unknown metadata', () => post(`${server.url}/events`, { metadata_URL: `${server.url}/metadata/none`, collection_size: 10 }), 400, '/metadata_URL'],
      ['POST /events of another collection', () => post(`${server.url}/events`, { metadata_URL: `${server.url}/nodes/${mid}`, collection_size: 10 }), 400, '/metadata_URL'],
      ['collection_size missing', () => post(`${server.url}/events`, { metadata_URL: `${server.url}/metadata/${mid}` }), 400, '/collection_size'],
      ['collection_size not a whole number', () => post(`${server.url}/events`, { metadata_URL: `${server.url}/metadata/${mid}`, collection_size: 2.5 }), 400, '/collection_size'],
      ['a negative ttl', () => post(`${server.url}/events`, { metadata_URL: `${server.url}/metadata/${mid}`, collection_size: 10, ttl: -1 }), 400, '/ttl'],
      ['POST /events of an array', () => post(`${server.url}/events`, [{ metadata_URL: `${server.url}/metadata/${mid}`, collection_size: 10 }]), 400, ''],
      ['GET /events with another condition', () => get(`${server.url}/events?name=x`), 400, 'name'],
      ['GET /events with an operator on ts that bounds nothing', () => get(`${server.url}/events?ts=not=5`), 400, 'ts'],
      ['GET /data without a mid', () => get(`${server.url}/data`), 405, undefined],
    ];
    for (const [what, send, status, pointer] of cases) {
      const answer = await send();
      assert.equal(answer.status, status, `${what}: ${answer.text}`);
      assert.equal(answer.body.error.status, status, what);
      if (pointer !== undefined) assert.equal(answer.body.error.details?.[0]?.path, pointer, `${what}: ${answer.text}`);
    }
    // Nothing was stored by any of them.
    assert.deepEqual((await points(mid)).body, []);
  });

  it('refuses more points, or batches, in one request than MAX_ARRAY_ITEMS with 413', async () => {
    const mid = await series(100_000);
    const answer = await post(`${server.url}/data/${mid}`, { data: Array.from({ length: 10_001 }, (_, i) => ({ ts: i, value: i })) });
    assert.equal(answer.status, 413, answer.text);
    const split = await post(`${server.url}/data`, Array.from({ length: 2 }, (_, b) => ({ mid, data: Array.from({ length: 5_001 }, (_, i) => ({ ts: b * 10_000 + i, value: i })) })));
    assert.equal(split.status, 413, split.text);
    const batches = await post(`${server.url}/data`, Array.from({ length: 10_001 }, () => ({ mid, data: [] })));
    assert.equal(batches.status, 413, batches.text);
    assert.deepEqual((await points(mid)).body, []);
  });
});

describe('measurement store: the sweep of expired points', function () {
  let server: RunningServer;
  before(async () => {
    server = await startServer({ env: { MEASUREMENT_PRUNE_INTERVAL_MS: '200' } });
  });
  after(async () => {
    await server.stop();
  });

  it('deletes the expired points of a series nobody posts to', async () => {
    const metadata = (await post(`${server.url}/metadata`, { subject: { href: 'http://x/nodes/1', rel: 'full' }, eventType: 'cpu' })).body;
    const mid = metadata.id as string;
    await post(`${server.url}/events`, { metadata_URL: metadata.selfRef, collection_size: 3, ttl: 1 });
    // Three points that expire within a second of now, then nothing is posted until the sweep ran.
    const now = nowMicros();
    assert.equal((await post(`${server.url}/data/${mid}`, { data: [1, 2, 3].map((i) => ({ ts: now - 900_000 + i, value: i })) })).body.stored, 3);
    const pruned = () => server.logs.filter((l) => l.msg === 'expired measurement points pruned').reduce((sum, l) => sum + Number(l.points), 0);
    await eventually('the sweep to delete them', () => (pruned() >= 3 ? true : undefined));
    assert.equal(pruned(), 3);
    assert.deepEqual((await get(`${server.url}/data/${mid}`)).body, []);
    // The series' count went with them: the next point finds nothing to drop or prune.
    const next = await post(`${server.url}/data/${mid}`, { data: [{ ts: nowMicros(), value: 4 }] });
    assert.deepEqual(next.body.series[0], { mid, stored: 1, duplicates: 0, expired: 0, dropped: 0 });
  });
});

describe('measurement store: credentials', function () {
  const TOKENS = { reader: 'tc_ms-reader-000000000000000000000000000000000', writer: 'tc_ms-writer-000000000000000000000000000000000', admin: 'tc_ms-admin-0000000000000000000000000000000000' };
  let server: RunningServer;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  before(async () => {
    const tokens = [
      { name: 'reader', hash: hashToken(TOKENS.reader), scopes: ['read'] },
      { name: 'writer', hash: hashToken(TOKENS.writer), scopes: ['create'] },
      { name: 'admin', hash: hashToken(TOKENS.admin), scopes: ['read', 'create', 'delete'] },
    ];
    server = await startServer({ env: { TOPOCAT_TOKENS: JSON.stringify({ tokens }) } });
  });
  after(async () => {
    await server.stop();
  });

  it('needs create to register and post data, read to read, delete to delete', async () => {
    const metadata = (await post(`${server.url}/metadata`, { subject: { href: 'http://x/nodes/1', rel: 'full' }, eventType: 'cpu' }, bearer(TOKENS.admin))).body;
    const mid = metadata.id as string;
    const registration = { metadata_URL: metadata.selfRef, collection_size: 10 };
    const cases: [string, () => Promise<Answer>, number][] = [
      ['register without credentials', () => post(`${server.url}/events`, registration), 401],
      ['register with read only', () => post(`${server.url}/events`, registration, bearer(TOKENS.reader)), 401],
      ['register with create', () => post(`${server.url}/events`, registration, bearer(TOKENS.writer)), 201],
      ['post data with read only', () => post(`${server.url}/data/${mid}`, { data: [{ ts: 1, value: 1 }] }, bearer(TOKENS.reader)), 401],
      ['post data with create', () => post(`${server.url}/data`, [{ mid, data: [{ ts: 1, value: 1 }] }], bearer(TOKENS.writer)), 201],
      ['read data without credentials', () => get(`${server.url}/data/${mid}`), 401],
      ['read data with create only', () => get(`${server.url}/data/${mid}`, bearer(TOKENS.writer)), 401],
      ['read data with read', () => get(`${server.url}/data/${mid}`, bearer(TOKENS.reader)), 200],
      ['list series with read', () => get(`${server.url}/events`, bearer(TOKENS.reader)), 200],
      ['list series without credentials', () => get(`${server.url}/events`), 401],
      ['delete with create only', () => del(`${server.url}/data/${mid}`, bearer(TOKENS.writer)), 401],
      ['delete with delete', () => del(`${server.url}/data/${mid}`, bearer(TOKENS.admin)), 204],
    ];
    for (const [what, send, status] of cases) assert.equal((await send()).status, status, what);
  });
});
