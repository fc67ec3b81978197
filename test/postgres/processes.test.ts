import assert from 'node:assert/strict';
import { kinds } from '../../generated/rest/kinds.js';
import { createTestDatabase, engine, postgresUrl, withPostgres, type TestDatabase } from '../helpers/database.js';
import { get, patch, post } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';

/**
 * Several server processes on one PostgreSQL database, as behind a load balancer: they start
 * together, see each other's writes at once, and keep `ts` strictly increasing per resource.
 */
describe('PostgreSQL: several server processes on one database', function () {
  let database: TestDatabase;
  let servers: RunningServer[] = [];

  before(async function () {
    if (engine !== 'postgres') this.skip();
    database = await createTestDatabase();
    // Started at the same moment on an empty schema: migrations and index creation must take
    // turns instead of failing on knex's migration lock or on a half-created table. One
    // PUBLIC_URL for all, as behind a load balancer: stored `$schema` and `selfRef` name it.
    const env = { PUBLIC_URL: 'http://topology.example.net' };
    const started = await Promise.allSettled([1, 2, 3].map(() => startServer({ database, env })));
    servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await database?.drop();
  });

  const a = (): string => servers[0]!.url;
  const b = (): string => servers[1]!.url;

  it('the processes that started together migrated the schema once and created each index once', async () => {
    const { migrations, indexes } = await withPostgres(
      postgresUrl(),
      async (knex) => ({
        migrations: (await knex('topocat_migrations').pluck('name')) as string[],
        indexes: (await knex('pg_indexes').where('schemaname', database.schema!).where('indexname', 'like', 'xidx\\_%').pluck('indexname')) as string[],
      }),
      database.schema,
    );
    // Each step once, in order (the list grows with every release).
    assert.deepEqual(migrations, [...new Set(migrations)].sort());
    assert.ok(migrations.length >= 8 && migrations[0] === '0001_resources', JSON.stringify(migrations));
    assert.equal(indexes.length, new Set(kinds.flatMap((k) => k.indexes)).size, JSON.stringify(indexes));
  });

  it('a write through one process is read back at once through another', async () => {
    const created = await post(`${a()}/nodes`, { id: 'shared-1', name: 'written by a', location: { institution: 'IU' } });
    assert.equal(created.status, 201, created.text);
    const read = await get(`${b()}/nodes/shared-1`);
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.ts, created.body.ts);
    assert.deepEqual((await get(`${b()}/nodes?location.institution=IU&fields=id`)).body, [{ id: 'shared-1' }]);

    const patched = await patch(`${b()}/nodes/shared-1`, { name: 'patched by b' });
    assert.equal(patched.status, 200, patched.text);
    const again = await get(`${a()}/nodes/shared-1`);
    assert.equal(again.body.name, 'patched by b');
    assert.equal(again.headers.get('etag'), patched.headers.get('etag'));
  });

  it('2 processes × 50 concurrent PATCHes of one resource give 101 versions, strictly increasing ts, none lost', async () => {
    const created = await post(`${a()}/nodes`, { id: 'contended', name: 'contended' });
    assert.equal(created.status, 201, created.text);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => patch(`${(i % 2 === 0 ? a() : b())}/nodes/contended`, { [`field${i}`]: i })),
    );
    assert.deepEqual([...new Set(answers.map((x) => x.status))], [200], answers.find((x) => x.status !== 200)?.text);

    const versions = (await get(`${b()}/nodes/contended?id=contended`)).body as { ts: number; [field: string]: unknown }[];
    assert.equal(versions.length, 101);
    const ts = versions.map((v) => v.ts);
    for (let i = 1; i < ts.length; i++) assert.ok(ts[i - 1]! > ts[i]!, `newest first, strictly decreasing at ${i}: ${ts[i - 1]} then ${ts[i]}`);
    // Each patch applied to the version before it, whichever process served it.
    const newest = versions[0]!;
    for (let i = 0; i < 100; i++) assert.equal(newest[`field${i}`], i, `field${i}`);
    // Each version adds exactly one field to the one before it.
    const fieldCount = (v: object): number => Object.keys(v).filter((k) => k.startsWith('field')).length;
    assert.deepEqual(versions.map(fieldCount), Array.from({ length: 101 }, (_, i) => 100 - i));
  });

  it('the same client id posted through two processes at once stores two versions, strictly ordered, every time', async () => {
    for (let round = 0; round < 25; round++) {
      const id = `race-${round}`;
      const answers = await Promise.all([a(), b()].map((url) => post(`${url}/nodes`, { id, name: url })));
      assert.deepEqual(answers.map((x) => x.status), [201, 201], `round ${round}: ${answers.map((x) => x.text).join(' | ')}`);
      const stored = (await get(`${a()}/nodes/${id}?id=${id}`)).body as { ts: number }[];
      assert.equal(stored.length, 2, `round ${round}: two versions stored`);
      assert.ok(stored[0]!.ts > stored[1]!.ts, `round ${round}: strictly increasing ts`);
    }
  });

  it('create-only (If-None-Match: *) posts of one id through two processes at once give exactly one 201 and one 412, every time', async () => {
    for (let round = 0; round < 25; round++) {
      const id = `once-${round}`;
      const answers = await Promise.all([a(), b()].map((url) => post(`${url}/nodes`, { id, name: url }, { 'if-none-match': '*' })));
      assert.deepEqual(answers.map((x) => x.status).sort(), [201, 412], `round ${round}: ${answers.map((x) => x.text).join(' | ')}`);
      const stored = await get(`${a()}/nodes/${id}?id=${id}`);
      assert.equal(stored.body.length, 1, `round ${round}: one version stored`);
    }
  });

  it('create-only batches that share client ids, posted through two processes at once, never deadlock and never both win', async () => {
    for (let round = 0; round < 10; round++) {
      const ids = Array.from({ length: 20 }, (_, i) => `batch-${round}-${i}`);
      const answers = await Promise.all([
        post(`${a()}/nodes`, ids.map((id) => ({ id })), { 'if-none-match': '*' }),
        post(`${b()}/nodes`, [...ids].reverse().map((id) => ({ id })), { 'if-none-match': '*' }),
      ]);
      assert.deepEqual(answers.map((x) => x.status).sort(), [201, 412], `round ${round}: ${answers.map((x) => x.text).join(' | ')}`);
    }
  });

  it('batches that share client ids, posted through two processes at once, never deadlock and both store a version of each', async () => {
    for (let round = 0; round < 5; round++) {
      const ids = Array.from({ length: 20 }, (_, i) => `both-${round}-${i}`);
      const answers = await Promise.all([post(`${a()}/nodes`, ids.map((id) => ({ id }))), post(`${b()}/nodes`, [...ids].reverse().map((id) => ({ id })))]);
      assert.deepEqual(answers.map((x) => x.status), [201, 201], `round ${round}: ${answers.map((x) => x.text).join(' | ')}`);
      const versions = (await get(`${a()}/nodes/${ids[7]}?id=${ids[7]}`)).body as unknown[];
      assert.equal(versions.length, 2);
    }
  });
});
