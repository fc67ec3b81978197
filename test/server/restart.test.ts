import assert from 'node:assert/strict';
import BetterSqlite3 from 'better-sqlite3';
import { createTestDatabase, engine, type TestDatabase } from '../helpers/database.js';
import { get, post } from '../helpers/http.js';
import { startServer } from '../helpers/server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The SQLite file of a test database. */
function sqliteFile(database: TestDatabase): string {
  return database.url.replace(/^sqlite:/, '');
}

/**
 * A restart on the same database while the old process still stops: the new one waits for the
 * write lock the old one holds (bounded by START_LOCK_TIMEOUT_MS, and logged) instead of failing
 * with "database is locked".
 */
describe('restart', function () {
  this.timeout(120_000);
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase();
    // The file and its schema exist: what a restart meets.
    const first = await startServer({ database });
    assert.equal(await first.stop(), 0);
  });
  afterEach(async () => {
    await database.drop();
  });

  it('starts at once after SIGTERM while the old process still writes, and keeps every acknowledged write', async () => {
    const old = await startServer({ database });
    // Large arrays make a WAL the old process copies back into the file as its last connection closes.
    const nodes = (round: number) => Array.from({ length: 2_000 }, (_, i) => ({ id: `r${round}-${i}`, name: 'x'.repeat(200) }));
    const writes = Array.from({ length: 8 }, (_, round) => post(`${old.url}/nodes`, nodes(round)).then((r) => r.status, () => 0));
    await sleep(150);
    const stopped = old.stop('SIGTERM');
    const next = await startServer({ database });
    try {
      const statuses = await Promise.all(writes);
      assert.equal(await stopped, 0);
      for (const [round, status] of statuses.entries()) {
        if (status !== 201) continue;
        const answer = await get(`${next.url}/nodes/r${round}-1999`);
        assert.equal(answer.status, 200, `the write of round ${round} was acknowledged`);
      }
    } finally {
      assert.equal(await next.stop(), 0);
    }
  });

  if (engine === 'sqlite') {
    it('waits for a write lock another process holds, says so, and starts once it is free', async () => {
      const holder = new BetterSqlite3(sqliteFile(database));
      holder.exec('BEGIN IMMEDIATE');
      // Released once the server says it waits (not after a fixed time: a loaded machine may take
      // longer than that to reach the lock), or after 15 s, when the assertions below fail.
      let waiting!: () => void;
      const release = Promise.race([new Promise<void>((resolve) => (waiting = resolve)), sleep(15_000)]).then(() => holder.exec('COMMIT'));
      try {
        const server = await startServer({ database, onLog: (line) => line.msg.startsWith('the database is locked by another process') && waiting() });
        await release;
        try {
          const waited = server.logs.find((l) => l.msg.startsWith('the database is locked by another process'));
          assert.ok(waited, 'a warning says the start waits for the lock');
          assert.equal(waited.timeoutMs, 30_000);
          assert.ok(server.logs.some((l) => l.msg === 'the database lock is free: starting'));
          assert.equal((await get(`${server.url}/health`)).status, 200);
        } finally {
          assert.equal(await server.stop(), 0);
        }
      } finally {
        await release;
        holder.close();
      }
    });

    it('gives up after START_LOCK_TIMEOUT_MS with a message that says why', async () => {
      const holder = new BetterSqlite3(sqliteFile(database));
      holder.exec('BEGIN IMMEDIATE');
      try {
        await assert.rejects(startServer({ database, env: { START_LOCK_TIMEOUT_MS: '300' } }), (error: Error) => {
          assert.match(error.message, /server exited with 1 before listening/);
          assert.match(error.message, /stayed locked by another process for \d+ ms; stop the other server on it first, or raise START_LOCK_TIMEOUT_MS/);
          return true;
        });
      } finally {
        holder.exec('ROLLBACK');
        holder.close();
      }
    });
  }
});
