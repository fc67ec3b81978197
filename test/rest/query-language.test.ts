import assert from 'node:assert/strict';
import { get, post } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';

/** Each form of the query language (docs/rest-interface.md), through HTTP, over ports. */
describe('REST query language', function () {
  let server: RunningServer;
  let ports: string;
  const names = async (query: string): Promise<string[]> => {
    const answer = await get(`${ports}?${query}`);
    assert.equal(answer.status, 200, answer.text);
    return answer.body.map((p: { name: string }) => p.name);
  };

  before(async () => {
    server = await startServer();
    ports = `${server.url}/ports`;
    const created = await post(ports, [
      { id: 'p1', name: 'a', capacity: 100, location: { institution: 'IU', city: 'Bloomington' }, active: true, tags: ['x', 'y'] },
      { id: 'p2', name: 'b', capacity: 1000, location: { institution: 'IU' }, active: false, relations: { over: [{ href: 'http://h/links/1' }] } },
      { id: 'p3', name: 'c', capacity: 10000, location: { institution: 'MIT' }, urn: 'urn:a' },
      { id: 'p4', name: '5', capacity: 5, description: 'numeric-looking name' },
    ]);
    assert.equal(created.status, 201, created.text);
  });
  after(async () => {
    await server.stop();
  });

  const cases: [string, string, string[]][] = [
    ['a=v equality', 'name=b', ['b']],
    ['dot notation', 'location.institution=IU', ['a', 'b']],
    ['deeper dot notation', 'location.city=Bloomington', ['a']],
    ['IN list', 'name=a,c', ['a', 'c']],
    ['lt on an integer field', 'capacity=lt=1000', ['a', '5']],
    ['lte', 'capacity=lte=1000', ['a', 'b', '5']],
    ['gt', 'capacity=gt=1000', ['c']],
    ['gte', 'capacity=gte=1000', ['b', 'c']],
    ['typed number', 'capacity=number:100', ['a']],
    ['typed integer', 'capacity=integer:10000', ['c']],
    ['typed boolean true', 'active=boolean:true', ['a']],
    ['typed boolean 0', 'active=boolean:0', ['b']],
    ['typed string keeps a numeric-looking value a string', 'name=string:5', ['5']],
    ['untyped value of a string field stays a string', 'name=5', ['5']],
    ['AND of two parameters', 'location.institution=IU&capacity=gt=500', ['b']],
    ['AND of the same key twice', 'capacity=gt=50&capacity=lt=5000', ['a', 'b']],
    ['OR in one parameter', 'name=a|location.institution=MIT', ['a', 'c']],
    ['OR with comparisons', 'capacity=lt=10|capacity=gt=5000', ['c', '5']],
    ['array elements match (UNIS/Mongo semantics)', 'tags=y', ['a']],
    ['an encoded value is decoded', 'urn=urn%3Aa', ['c']],
    ['an encoded operator is the operator (dlt-web)', 'capacity=gt%3D5000', ['c']],
    ['an encoded comma separates a list', 'name=a%2Cc', ['a', 'c']],
    ['an encoded bar separates OR terms', 'name=a%7Cname%3Db', ['a', 'b']],
    ['ts compares as a number', 'ts=gt=0', ['a', 'b', 'c', '5']],
    ['no match is an empty array', 'name=zzz', []],
    ['sort descending', 'sort=capacity:-1', ['c', 'b', 'a', '5']],
    ['sort ascending with limit and skip', 'sort=capacity:1&skip=1&limit=2', ['a', 'b']],
    ['id is a condition too', 'id=p2,p3', ['b', 'c']],
    ['unknown fields match nothing', 'nothing.here=1', []],
    ['SQL in a value is just a value', "name=a' OR '1'='1", []],
  ];
  for (const [title, query, expected] of cases) {
    it(`${title}: ?${query}`, async () => {
      const found = await names(query);
      assert.deepEqual(query.includes('sort=') ? found : found.sort(), query.includes('sort=') ? expected : [...expected].sort());
    });
  }

  // Revised 2026-11-29 (rest-contract §5): newest first, as UNIS HEAD lists (was: oldest first).
  it('default order is newest first (ts descending)', async () => {
    const all = (await get(ports)).body as { ts: number; name: string }[];
    assert.deepEqual(all.map((p) => p.ts), [...all.map((p) => p.ts)].sort((a, b) => b - a));
    assert.deepEqual(all.map((p) => p.name), ['5', 'c', 'b', 'a']);
  });

  it('fields= returns only those fields', async () => {
    const answer = await get(`${ports}?name=a&fields=id,location.institution`);
    assert.deepEqual(answer.body, [{ id: 'p1', location: { institution: 'IU' } }]);
  });

  it('answers 400 naming the parameter when a value does not fit a numeric convention field (?ttl, ?ts=abc)', async () => {
    for (const query of ['ttl', 'ts=abc', 'ttl=lt=x']) {
      const answer = await get(`${ports}?${query}`);
      assert.equal(answer.status, 400, query);
      assert.equal(answer.body.error.details[0].path, query.split('=')[0]);
    }
  });

  // Revised 2026-11-29 (rest-contract §5): `limit=0` is no limit, as MongoDB and UNIS read it (was: an empty array).
  it('limit=0 is no limit', async () => {
    assert.deepEqual(await names('limit=0'), ['5', 'c', 'b', 'a']);
  });

  it('a query on one resource searches its versions, newest first', async () => {
    const one = `${ports}/p1`;
    await fetch(one, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: '{"capacity": 200}' });
    await fetch(one, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: '{"capacity": 300}' });
    const versions = await get(`${one}?capacity=gte=200`);
    assert.equal(versions.status, 200);
    assert.deepEqual(versions.body.map((v: { capacity: number }) => v.capacity), [300, 200]);
    const all = await get(`${one}?id=p1`);
    assert.deepEqual(all.body.map((v: { capacity: number }) => v.capacity), [300, 200, 100]);
  });
});
