import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { get, post } from '../helpers/http.js';
import { startServer } from '../helpers/server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** SIGTERM: no new connections, requests in flight finish, then the process exits 0. */
describe('graceful shutdown', function () {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
  });
  after(async () => {
    await database.drop();
  });

  it('finishes a request in flight after SIGTERM and keeps its write', async () => {
    const server = await startServer({ database });
    const url = new URL(`${server.url}/nodes`);
    const body = JSON.stringify({ id: 'in-flight', name: 'survives shutdown' });
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(
        { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, text }));
        },
      );
      req.on('error', reject);
      // Half the body now; the rest after the signal.
      req.write(body.slice(0, 10));
      setTimeout(() => req.end(body.slice(10)), 400);
    });
    await sleep(100);
    const exited = server.stop('SIGTERM');
    // The listener closes at the first check (every 50 ms) that finds no new connection.
    await sleep(250);
    await assert.rejects(get(`${server.url}/health`), 'new connections are refused while stopping');
    const result = await answer;
    assert.equal(result.status, 201, result.text);
    assert.equal(await exited, 0);
    assert.ok(server.logs.some((l) => l.msg === 'stopped'));

    const again = await startServer({ database });
    try {
      assert.equal((await get(`${again.url}/nodes/in-flight`)).body.name, 'survives shutdown');
    } finally {
      await again.stop();
    }
  });

  it('answers every request whose connection was made before SIGTERM, also those accepted but not read yet', async () => {
    const server = await startServer({ database });
    const nodes = Array.from({ length: 1_000 }, (_, i) => ({ id: `drain-${i}`, name: `n${i}`, description: 'x'.repeat(200) }));
    assert.equal((await post(`${server.url}/nodes`, nodes)).status, 201);
    const url = new URL(`${server.url}/nodes?limit=1000`);
    let connected = 0;
    let allConnected!: () => void;
    const ready = new Promise<void>((resolve) => (allConnected = resolve));
    // Lists of 1,000 nodes: the server is busy with the first while the others wait unread;
    // the signal goes once all 16 have connected.
    const answers = Array.from(
      { length: 16 },
      () =>
        new Promise<string>((resolve) => {
          const req = httpRequest({ host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, agent: false }, (res) => {
            res.resume();
            res.on('end', () => resolve(String(res.statusCode)));
          });
          req.on('socket', (socket) => socket.on('connect', () => ++connected === 16 && allConnected()));
          req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
          req.end();
        }),
    );
    await ready;
    const exited = server.stop('SIGTERM');
    assert.deepEqual(await Promise.all(answers), Array.from({ length: 16 }, () => '200'));
    assert.equal(await exited, 0);
  });
});
