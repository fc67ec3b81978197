import assert from 'node:assert/strict';
import knexFactory from 'knex';
import { createTestDatabase, engine, postgresUrl, withPostgres, type TestDatabase } from '../helpers/database.js';
import { get, patch, post, put } from '../helpers/http.js';
import { startServer } from '../helpers/server.js';

/**
 * Stored representations do not freeze the deployment's address: `$schema` and `selfRef` are
 * derived on the way out, and every base the service has written under stays its own.
 */
describe('REST addresses across configurations', function () {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await database.drop();
  });

  it('a resource stored under one PUBLIC_URL is patched, put and inlined under another, and answers with the new addresses', async () => {
    const old = await startServer({ database, env: { PUBLIC_URL: 'http://old.example.net/api' } });
    let stored: any;
    try {
      await post(`${old.url}/ports`, { id: 'p1', name: 'eth0' });
      stored = (await post(`${old.url}/nodes`, { id: 'n1', name: 'n', ports: [{ href: 'http://old.example.net/api/ports/p1', rel: 'full' }] })).body;
      assert.equal(stored.selfRef, 'http://old.example.net/api/nodes/n1');
    } finally {
      await old.stop();
    }
    const moved = await startServer({ database, env: { PUBLIC_URL: 'https://new.example.org', SCHEMA_BASE: 'https://schemas.example.org/topo' } });
    try {
      const patched = await patch(`${moved.url}/nodes/n1`, { description: 'moved' });
      assert.equal(patched.status, 200, patched.text);
      assert.equal(patched.body.selfRef, 'https://new.example.org/nodes/n1');
      assert.equal(patched.body.$schema, 'https://schemas.example.org/topo/node#');
      // Every answer, also of the versions written before the move, carries today's addresses.
      const versions = (await get(`${moved.url}/nodes/n1?id=n1`)).body as { selfRef: string; $schema: string }[];
      assert.deepEqual([...new Set(versions.map((v) => v.selfRef))], ['https://new.example.org/nodes/n1']);
      // A client that kept the old representation may send it back as it is.
      const replaced = await put(`${moved.url}/nodes/n1`, { ...stored, ts: undefined });
      assert.equal(replaced.status, 201, replaced.text);
      // Its references under the old base are still this service's.
      assert.equal((await get(`${moved.url}/nodes/n1?expand`)).body.ports[0].name, 'eth0');
      assert.deepEqual(((await get(`${moved.url}/nodes?selfRef=http://old.example.net/api/nodes/n1&fields=id`)).body as unknown[]).length, 1);
    } finally {
      await moved.stop();
    }
  });

  it('two processes configured differently on one database understand each other\'s addresses', async () => {
    const a = await startServer({ database, env: { PUBLIC_URL: 'http://a.example.net' } });
    const b = await startServer({ database, env: { PUBLIC_URL: 'http://b.example.net' } });
    try {
      const fromA = (await post(`${a.url}/nodes`, { name: 'x' })).body;
      // B meets A's schema address (recorded after B started) and learns it from the database.
      const putThroughB = await put(`${b.url}/nodes/${fromA.id}`, { $schema: fromA.$schema, name: 'y' });
      assert.equal(putThroughB.status, 201, putThroughB.text);
      assert.equal(putThroughB.body.$schema, 'http://b.example.net/schema/20120709/node#');
      assert.equal((await get(`${a.url}/nodes/${fromA.id}`)).body.selfRef, `http://a.example.net/nodes/${fromA.id}`);
      // An address no process has written under is still refused.
      const foreign = await post(`${b.url}/nodes`, { $schema: 'http://c.example.net/schema/20120709/node#' });
      assert.equal(foreign.status, 400);
    } finally {
      await b.stop();
      await a.stop();
    }
  });

  it('the migration strips stored addresses from documents written before it, and keeps their bases as the service\'s own', async () => {
    const first = await startServer({ database, env: { PUBLIC_URL: 'http://first.example.net' } });
    const id = (await post(`${first.url}/nodes`, { name: 'legacy' })).body.id as string;
    await first.stop();
    // The database as the service left it before migration 0004: addresses inside documents.
    const legacyDoc = JSON.stringify({ $schema: 'http://legacy.example.net/schema/20120709/node#', id, selfRef: `http://legacy.example.net/nodes/${id}`, ts: 1, name: 'legacy' });
    await rewind(database, id, legacyDoc);

    const again = await startServer({ database, env: { PUBLIC_URL: 'http://again.example.net' } });
    try {
      const answer = await get(`${again.url}/nodes/${id}`);
      assert.equal(answer.status, 200);
      assert.equal(answer.body.selfRef, `http://again.example.net/nodes/${id}`);
      assert.equal(answer.body.$schema, 'http://again.example.net/schema/20120709/node#');
      // The legacy base found in the data is the service's own.
      const put1 = await put(`${again.url}/nodes/${id}`, { $schema: 'http://legacy.example.net/schema/20120709/node#', name: 'ok' });
      assert.equal(put1.status, 201, put1.text);
    } finally {
      await again.stop();
    }
  });
});

/** Put one resource's rows back into their pre-0004 form and un-run migration 0004. */
async function rewind(database: TestDatabase, id: string, doc: string): Promise<void> {
  const work = async (knex: knexFactory.Knex) => {
    const value = engine === 'postgres' ? knex.raw('?::jsonb', [doc]) : doc;
    await knex('resource_history').where({ kind: 'nodes', id }).update({ doc: value, ts: 1 });
    await knex('resource_current').where({ kind: 'nodes', id }).update({ doc: value, ts: 1 });
    await knex.schema.dropTable('topocat_addresses');
    await knex.schema.dropTable('topocat_service');
    await knex('topocat_migrations').where('name', '0004_service_facts').delete();
  };
  if (engine === 'postgres') return withPostgres(postgresUrl(), work, database.schema);
  const knex = knexFactory({ client: 'better-sqlite3', connection: { filename: database.url.replace(/^sqlite:/, '') }, useNullAsDefault: true });
  try {
    await work(knex);
  } finally {
    await knex.destroy();
  }
}
