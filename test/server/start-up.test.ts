import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startServer } from '../helpers/server.js';

/** How one request sent during a start ended. */
type Outcome = { readonly kind: 'answered'; readonly status: number; readonly retryAfter: string | undefined } | { readonly kind: 'refused' } | { readonly kind: 'unanswered'; readonly why: string };

/** A port nobody listens on now. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * One GET /health on a connection of its own. Refused (nothing listens yet) and answered are
 * fine; a connection that is reset, or left without an answer until the server is stopped, is
 * what this test exists to catch.
 */
function probe(port: number, settled: Promise<void>): Promise<Outcome> {
  return new Promise((resolve) => {
    let connected = false;
    const req = httpRequest({ host: '127.0.0.1', port, path: '/health', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ kind: 'answered', status: res.statusCode!, retryAfter: res.headers['retry-after'] }));
    });
    req.on('socket', (socket) => socket.on('connect', () => (connected = true)));
    req.on('error', (error: NodeJS.ErrnoException) => resolve(!connected && error.code === 'ECONNREFUSED' ? { kind: 'refused' } : { kind: 'unanswered', why: error.code ?? error.message }));
    // A request still open once every other has settled and the server has served for a while
    // was never going to be answered: without a handler, Node drops the request it parsed.
    void settled.then(() => {
      resolve({ kind: 'unanswered', why: 'no answer' });
      req.destroy();
    });
    req.end();
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Requests sent every few milliseconds from the spawn of the server on: every one is answered or refused. */
describe('start-up', function () {
  this.timeout(90_000);
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
  });
  after(async () => {
    await database.drop();
  });

  for (const [name, { given }] of [
    ['a first start (migrations)', { given: 'fresh' }],
    ['a restart on the same database', { given: 'existing' }],
    ['another restart', { given: 'existing' }],
  ] as const) {
    it(`answers every request that reaches the socket: ${name} (${given} database)`, async () => {
      const port = await freePort();
      const outcomes: Promise<Outcome>[] = [];
      let firing = true;
      let markSettled!: () => void;
      const settled = new Promise<void>((resolve) => (markSettled = resolve));
      const fire = (async () => {
        while (firing) {
          outcomes.push(probe(port, settled));
          await sleep(3);
        }
      })();
      const server = await startServer({ database, env: { PORT: String(port) } });
      try {
        // Keep firing a little after the start: the last requests before ready are the ones at risk.
        await sleep(300);
        firing = false;
        await fire;
        // Every answerable request is answered within this once the service is ready.
        await sleep(3_000);
        markSettled();
        const results = await Promise.all(outcomes);
        const unanswered = results.filter((r) => r.kind === 'unanswered');
        assert.deepEqual(unanswered, [], `${unanswered.length} of ${results.length} requests left unanswered or cut`);
        const answered = results.filter((r) => r.kind === 'answered');
        for (const r of answered) {
          if (r.status === 503) assert.equal(r.retryAfter, '1', 'a 503 at start carries Retry-After');
          else assert.equal(r.status, 200);
        }
        assert.equal(answered.at(-1)?.status, 200, 'the requests after ready are served');
      } finally {
        markSettled();
        assert.equal(await server.stop(), 0);
      }
    });
  }
});
