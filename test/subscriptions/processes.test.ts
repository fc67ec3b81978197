import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { createTestDatabase, engine, type TestDatabase } from '../helpers/database.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { SocketClient, StreamClient } from '../helpers/subscribers.js';
import { eventually } from '../helpers/wait.js';

/** One POST on a connection of its own, so that a cluster hands it to the next worker. */
function freshPost(url: string, body: unknown): Promise<{ status: number; requestId: string }> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, requestId: String(res.headers['x-request-id']) }));
    });
    req.on('error', reject);
    req.end(text);
  });
}

/** Every process hears every write (docs/subscriptions.md): subscribe on one, write through another. */
describe('subscriptions across processes', function () {
  this.timeout(60_000);

  describe('two servers on one PostgreSQL database (LISTEN/NOTIFY)', function () {
    let database: TestDatabase;
    let a: RunningServer;
    let b: RunningServer;
    before(async function () {
      if (engine !== 'postgres') return this.skip();
      database = await createTestDatabase();
      a = await startServer({ database });
      b = await startServer({ database });
    });
    after(async () => {
      await b?.stop();
      await a?.stop();
      await database?.drop();
    });

    it('a WebSocket on one process hears the writes made through the other, in commit order', async () => {
      const socket = await SocketClient.open(a.url, '/subscribe/nodes');
      const stream = await StreamClient.open(`${b.url}/nodes`);
      try {
        for (let i = 0; i < 20; i++) {
          const status = (await freshPost(`${i % 2 === 0 ? b.url : a.url}/nodes`, { id: `x${i}` })).status;
          assert.equal(status, 201);
        }
        const frames = await socket.changesAtLeast(20);
        assert.deepEqual(frames.map((f) => f.headers!.id), Array.from({ length: 20 }, (_, i) => `x${i}`));
        const events = await stream.atLeast(20);
        assert.deepEqual(events.map((e) => e.data.id), Array.from({ length: 20 }, (_, i) => `x${i}`));
        // Both processes number the changes alike: one event log.
        assert.deepEqual(events.map((e) => Number(e.id)), [...events.map((e) => Number(e.id))].sort((x, y) => x - y));
      } finally {
        socket.close();
        stream.close();
      }
    });

    it('a stream resumed on the other process misses nothing', async () => {
      const first = await StreamClient.open(`${a.url}/ports`);
      await freshPost(`${a.url}/ports`, { name: 'seen' });
      const [seen] = await first.atLeast(1);
      first.close();
      await freshPost(`${a.url}/ports`, [{ name: 'missed-1' }, { name: 'missed-2' }]);
      const resumed = await StreamClient.open(`${b.url}/ports`, { 'last-event-id': seen!.id });
      try {
        assert.deepEqual((await resumed.atLeast(2)).map((e) => e.data.name), ['missed-1', 'missed-2']);
      } finally {
        resumed.close();
      }
    });
  });

  describe('--workers 2 on one SQLite file (the primary relays)', function () {
    let server: RunningServer;
    before(async function () {
      if (engine !== 'sqlite') return this.skip();
      server = await startServer({ args: ['--workers', '2'] });
    });
    after(async () => {
      await server?.stop();
    });

    it('a subscriber on one worker hears the writes the other worker commits', async () => {
      const socket = await SocketClient.open(server.url, '/subscribe/nodes');
      const pidOf = (reply: { requestId: string }) => eventually('the log line of a write', () => server.logs.find((l) => l.msg === 'request' && l.requestId === reply.requestId)?.pid as number | undefined);
      try {
        // New connections go to the workers in turn; write until both have served some.
        const pids = new Set<number>();
        let written = 0;
        while (written < 20 || (pids.size < 2 && written < 200)) {
          const reply = await freshPost(`${server.url}/nodes`, { id: `w${written}` });
          assert.equal(reply.status, 201);
          pids.add(await pidOf(reply));
          written++;
        }
        assert.equal(pids.size, 2, 'writes reached both workers');
        const frames = await socket.changesAtLeast(written);
        assert.deepEqual(frames.map((f) => f.headers!.id), Array.from({ length: written }, (_, i) => `w${i}`));
      } finally {
        socket.close();
      }
    });
  });
});
