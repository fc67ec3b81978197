import assert from 'node:assert/strict';
import { copyFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { createTestDatabase, engine, postgresUrl, withPostgres, type TestDatabase } from '../helpers/database.js';
import { projectRoot, startServer } from '../helpers/server.js';
import { PUBLIC_URL, read, type Expected, type RestRead } from '../fixtures/upgrade/workload.js';

const fixtures = path.join(projectRoot, 'test/fixtures/upgrade');

/** A fresh database holding what the older release left: a copy of its file, or its dump loaded into a new schema. */
async function fromFixture(commit: string, dir: string): Promise<TestDatabase> {
  if (engine === 'sqlite') {
    const file = path.join(dir, `${commit}.sqlite`);
    await copyFile(path.join(fixtures, `${commit}.sqlite`), file);
    return { url: `sqlite:${file}`, drop: async () => undefined };
  }
  const database = await createTestDatabase();
  const dump = (await readFile(path.join(fixtures, `${commit}.postgres.sql`), 'utf8')).replaceAll('topocat_fixture', database.schema!);
  const client = new pg.Client({ connectionString: postgresUrl() });
  await client.connect();
  try {
    // One simple query of many statements: the dump's SETs, DDL and INSERTs.
    await client.query(dump);
  } finally {
    await client.end();
  }
  return database;
}

/** What may differ between two runs of the same reads: when a catalog answer was made. */
function timeless(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const { timestamp: _timestamp, ...rest } = value as Record<string, unknown>;
  return rest;
}

/** What may differ between two runs of the same reads: an error's request id. */
/**
 * The answer as today's release orders it: those releases listed oldest first (`ts`, then `id`,
 * ascending); lists are newest first since rest-contract §5 was revised on 2026-11-29, the exact
 * reverse.
 */
function inTodaysOrder(answer: RestRead): RestRead {
  return /^\/[a-z]+\?limit=1000$/.test(answer.path) && Array.isArray(answer.body) ? { ...answer, body: [...(answer.body as unknown[])].reverse() } : answer;
}

function withoutRequestId(answer: RestRead): RestRead {
  if (answer.path === '/about') {
    // /about names the release that answers (its version, 0541c39), which an upgrade changes; the fixtures predate it.
    const { version: _version, ...about } = answer.body as Record<string, unknown>;
    return { ...answer, body: about };
  }
  const error = (answer.body as { error?: Record<string, unknown> } | undefined)?.error;
  if (!error) return answer;
  const { requestId: _requestId, ...rest } = error;
  return { ...answer, body: { error: rest } };
}

/**
 * Databases written by older releases (test/fixtures/upgrade, made by make.ts from a commit of
 * this repository) upgraded by today's server: every resource, every version and every catalog
 * object reads back as that release answered. A database of a newer release is refused.
 */
describe('upgrades', function () {
  this.timeout(120_000);
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'topocat-upgrade-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const commits = ['b589d72', '268c6cc'];
  it('has fixtures of every release named here', async () => {
    const files = await readdir(fixtures);
    for (const commit of commits) for (const suffix of ['sqlite', 'sqlite.json', 'postgres.sql', 'postgres.json']) assert.ok(files.includes(`${commit}.${suffix}`), `${commit}.${suffix}`);
  });

  for (const commit of commits) {
    it(`a database of ${commit} reads back whole after the upgrade`, async () => {
      const expected = JSON.parse(await readFile(path.join(fixtures, `${commit}.${engine}.json`), 'utf8')) as Expected;
      const database = await fromFixture(commit, dir);
      const server = await startServer({ database, env: { PUBLIC_URL } });
      try {
        assert.ok(server.logs.some((l) => l.msg === 'listening'));
        const answers = await read(server.url, `${server.url}/catalog`);
        assert.equal(answers.rest.length, expected.rest.length);
        for (const [i, want] of expected.rest.entries()) assert.deepEqual(withoutRequestId(answers.rest[i]!), withoutRequestId(inTodaysOrder(want)), want.path);
        for (const [i, want] of expected.catalog.entries()) {
          assert.deepEqual(timeless(answers.catalog[i]!.response), timeless(want.response), `${want.operation} ${JSON.stringify(want.request).slice(0, 100)}`);
        }
        // The upgraded service takes writes, and versions continue after the old ones.
        const patched = await fetch(`${server.url}/nodes/node-0`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: '{"description":"after the upgrade"}' });
        assert.equal(patched.status, 200);
        const versions = (await (await fetch(`${server.url}/nodes/node-0?id=node-0`, { headers: { accept: 'application/json' } })).json()) as unknown[];
        assert.deepEqual(versions.slice(1), expected.rest.find((r) => r.path === '/nodes/node-0?id=node-0')!.body);
      } finally {
        assert.equal(await server.stop(), 0);
        await database.drop();
      }
    });
  }

  it('refuses a database of a newer release, saying so', async () => {
    const database = await createTestDatabase();
    const first = await startServer({ database });
    assert.equal(await first.stop(), 0);
    const future = { name: '9999_from_the_future', batch: 99, migration_time: new Date() };
    if (engine === 'sqlite') {
      const file = new BetterSqlite3(database.url.replace(/^sqlite:/, ''));
      file.prepare('INSERT INTO topocat_migrations (name, batch, migration_time) VALUES (?, ?, ?)').run(future.name, future.batch, future.migration_time.getTime());
      file.close();
    } else {
      await withPostgres(postgresUrl(), (knex) => knex('topocat_migrations').insert(future), database.schema);
    }
    try {
      await assert.rejects(startServer({ database }), (error: Error) => {
        assert.match(error.message, /server exited with 1 before listening/);
        assert.match(error.message, /error: the database \S+.* was migrated by a newer topocat: it has the migration 9999_from_the_future, which this version does not know \(its last is 0\d{3}_\w+\); run the newer version, or restore a backup made before the upgrade/);
        return true;
      });
    } finally {
      await database.drop();
    }
  });
});
