import assert from 'node:assert/strict';
import knexFactory, { type Knex } from 'knex';
import { createTestDatabase, engine, postgresUrl, type TestDatabase } from '../helpers/database.js';
import { post } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { SocketClient, StreamClient } from '../helpers/subscribers.js';
import { eventually } from '../helpers/wait.js';

/**
 * The event log's horizon on PostgreSQL (docs/internals.md, "The event log"): a change is
 * delivered once every transaction that was running when it committed has ended, anywhere on the
 * server; a subscriber hears exactly the changes committed after it asked, even those that stand
 * behind an older transaction; and a transaction that holds the horizon for long is named in a
 * warning.
 */
describe('PostgreSQL: the change feed behind an older transaction', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let server: RunningServer;
  let holder: Knex;

  before(async function () {
    if (engine !== 'postgres') return this.skip();
    database = await createTestDatabase();
    server = await startServer({ database });
    holder = knexFactory({ client: 'pg', connection: { connectionString: postgresUrl(), application_name: 'topocat-test-holder' }, pool: { min: 0, max: 1 } });
  });
  after(async () => {
    await holder?.destroy();
    await server?.stop();
    await database?.drop();
  });

  /** Run `work` while another session of the server holds a transaction with an id open. */
  async function whileHeld<T>(work: () => Promise<T>): Promise<T> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    const transaction = holder.transaction(async (trx) => {
      await trx.raw('SELECT txid_current()');
      held();
      await released;
    });
    await holding;
    try {
      return await work();
    } finally {
      release();
      await transaction;
    }
  }

  it('delivers a change committed after an older transaction began once that one ends, and only to those who asked before it', async () => {
    const socket = await SocketClient.open(server.url, '/subscribe/nodes');
    let late: SocketClient | undefined;
    let lateStream: StreamClient | undefined;
    try {
      await whileHeld(async () => {
        assert.equal((await post(`${server.url}/nodes`, { id: 'before', name: 'committed before the late subscribers asked' })).status, 201);
        late = await SocketClient.open(server.url, '/subscribe/nodes');
        lateStream = await StreamClient.open(`${server.url}/nodes`);
        assert.equal((await post(`${server.url}/nodes`, { id: 'after', name: 'committed after they asked' })).status, 201);
        // Behind the open transaction, nothing is delivered yet.
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        assert.deepEqual(socket.changes, []);
      });
      assert.deepEqual((await socket.changesAtLeast(2)).map((f) => f.headers!.id), ['before', 'after']);
      assert.deepEqual((await late!.changesAtLeast(1)).map((f) => f.headers!.id), ['after']);
      assert.deepEqual((await lateStream!.atLeast(1)).map((e) => e.data.id), ['after']);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(late!.changes.length, 1);
      assert.equal(lateStream!.events.length, 1);
    } finally {
      socket.close();
      late?.close();
      lateStream?.close();
    }
  });

  it('names the session that holds the horizon for over ten seconds in a warning', async () => {
    const socket = await SocketClient.open(server.url, '/subscribe/nodes');
    try {
      await whileHeld(async () => {
        assert.equal((await post(`${server.url}/nodes`, { name: 'waiting' })).status, 201);
        const warning = await eventually('the horizon warning', () => server.logs.find((l) => l.msg.includes('held back')), 20_000);
        assert.equal(warning.level, 40);
        assert.equal(warning.application, 'topocat-test-holder');
        assert.equal(typeof warning.pid, 'number');
      });
      await socket.changesAtLeast(1);
    } finally {
      socket.close();
    }
  });
});
