import assert from 'node:assert/strict';
import knexFactory from 'knex';
import { engine, withPostgres } from '../helpers/database.js';
import { del, get, patch, post, put, type Answer } from '../helpers/http.js';
import { createCluster, type Cluster } from '../../tools/pg-cluster.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { CatalogServiceClient } from '../../generated/client/soap.js';

/** What "quickly" means for an answer while the database is down (the issue asks well under 5 s). */
const QUICK_MS = 2_000;
/** Shared by the two servers of this file, which write the same resources. */
const PUBLIC_URL = 'http://topology.example.net';

/**
 * Keep the row of one resource locked from a session of the test's own, so that a write to it
 * waits inside the database, holding its pooled connection, until `release`.
 */
async function lockRow(url: string, id: string): Promise<{ release(): Promise<void> }> {
  const knex = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const holding = new Promise<void>((resolve) => (locked = resolve));
  const session = knex.transaction(async (trx) => {
    await trx.raw("SELECT 1 FROM resource_current WHERE kind = 'nodes' AND id = ? FOR UPDATE", [id]);
    locked();
    await released;
  });
  await Promise.race([holding, session]);
  return {
    async release() {
      release();
      try {
        await session;
      } finally {
        await knex.destroy();
      }
    },
  };
}

/** The server session that waits for a lock (a write held up by `lockRow`), once it waits. */
async function waitingSession(url: string): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const pids = await withPostgres(url, async (knex) =>
      (await knex('pg_stat_activity').where({ application_name: 'topocat', wait_event_type: 'Lock' }).pluck('pid')) as number[],
    );
    if (pids.length === 1) return pids[0]!;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('no server session came to wait for the locked row');
}

/**
 * The database goes away under a running server and comes back. On a cluster of this test's
 * own (initdb in a temporary directory), so that no other test loses its database.
 */
describe('PostgreSQL outage: 503 at once, recovery without a restart', function () {
  this.timeout(90_000);
  let cluster: Cluster | undefined;
  let server: RunningServer | undefined;
  let nodes: string;

  before(async function () {
    if (engine !== 'postgres') this.skip();
    cluster = await createCluster();
    await cluster.start();
    // The throwaway cluster is the whole database; destroying the cluster drops it.
    server = await startServer({ database: { url: cluster.url, drop: async () => undefined }, env: { PUBLIC_URL } });
    nodes = `${server.url}/nodes`;
  });
  after(async () => {
    await server?.stop();
    await cluster?.destroy();
  });

  const timed = async (act: () => Promise<Answer>): Promise<{ answer: Answer; ms: number }> => {
    const started = performance.now();
    const answer = await act();
    return { answer, ms: performance.now() - started };
  };

  it('a write whose session is terminated while it waits inside the database answers 503 and stores nothing', async () => {
    assert.equal((await post(nodes, { id: 'before', name: 'stored before the outage' })).status, 201);
    const row = await lockRow(cluster!.url, 'before');
    try {
      const waiting = patch(`${nodes}/before`, { name: 'waiting' });
      const pid = await waitingSession(cluster!.url);
      // What a shutdown or an administrator does to every session: 57P01.
      await withPostgres(cluster!.url, (knex) => knex.raw('SELECT pg_terminate_backend(?)', [pid]));
      const answer = await waiting;
      assert.equal(answer.status, 503, answer.text);
      assert.equal(answer.headers.get('retry-after'), '1');
    } finally {
      await row.release();
    }
    assert.equal((await get(`${nodes}/before`)).body.name, 'stored before the outage');
  });

  it('answers 503 with the error body and Retry-After, quickly, to every kind of request, and /health too', async () => {
    // The pool holds idle connections now; the shutdown terminates them.
    await cluster!.stop();

    const requests: [string, () => Promise<Answer>][] = [
      ['GET /health', () => get(`${server!.url}/health`)],
      ['GET one', () => get(`${nodes}/before`)],
      ['GET a list', () => get(nodes)],
      ['GET a query', () => get(`${nodes}?name=stored%20before%20the%20outage`)],
      ['POST', () => post(nodes, { name: 'during the outage' })],
      ['PUT', () => put(`${nodes}/before`, { name: 'replaced' })],
      ['PATCH', () => patch(`${nodes}/before`, { name: 'patched' })],
      ['DELETE', () => del(`${nodes}/before`)],
    ];
    for (const [name, act] of requests) {
      const { answer, ms } = await timed(act);
      assert.equal(answer.status, 503, `${name}: ${answer.text}`);
      assert.equal(answer.headers.get('retry-after'), '1', name);
      assert.match(answer.headers.get('content-type') ?? '', /^application\/json/, name);
      assert.equal(answer.body.error.status, 503, name);
      assert.equal(typeof answer.body.error.message, 'string', name);
      assert.equal(answer.body.error.requestId, answer.headers.get('x-request-id'), name);
      assert.doesNotMatch(answer.text, /\bat \S+ \(|node_modules|\.js:\d+|ECONNREFUSED/, `${name}: nothing internal leaks`);
      assert.ok(ms < QUICK_MS, `${name} took ${Math.round(ms)} ms; at most ${QUICK_MS} ms expected`);
    }
    // The catalog answers its operations' own non-success statuses, as quickly.
    const catalog = new CatalogServiceClient({ url: `${server!.url}/catalog`, username: 'CN=outage' });
    const calls: [string, () => Promise<{ catalogOperationStatus: { status: string; operationSummary?: { operationStatus: string } } }>][] = [
      ['checkStatus', () => catalog.checkStatus({ errorDeliveryMethod: 'DIRECT' })],
      ['createUser', () => catalog.createUser({ catalogUser: [{ userId: 'CN=outage' }], errorDeliveryMethod: 'DIRECT' })],
      ['allWorkspaceQuery', () => catalog.allWorkspaceQuery({})],
    ];
    for (const [name, call] of calls) {
      const started = performance.now();
      const { catalogOperationStatus } = await call();
      const ms = performance.now() - started;
      assert.notEqual(catalogOperationStatus.status, 'OPERATION_SUCCESSFUL', name);
      assert.equal(catalogOperationStatus.operationSummary?.operationStatus, 'NO_DATABASE_CONNECTION', name);
      assert.ok(ms < QUICK_MS, `${name} took ${Math.round(ms)} ms; at most ${QUICK_MS} ms expected`);
    }
    assert.equal(server!.process.exitCode, null, 'the server keeps running');
    assert.deepEqual(server!.strayOutput, [], 'stdout stays JSON log lines throughout');
    // rest-contract §16 (2026-11-29): once per change of state, not once per request.
    const lost = server!.logs.filter((l) => l.level >= 40 && /no host takes writes/.test(String(l.msg)));
    assert.equal(lost.length, 1, 'the outage is logged once, as a change of state');
    assert.deepEqual(server!.logs.filter((l) => l.level >= 50).map((l) => l.msg), [], 'no error line per request');
  });

  it('serves again as soon as the database is back, without a restart, and lost no committed write', async () => {
    await cluster!.start();
    assert.equal((await get(`${server!.url}/health`)).status, 200);
    const kept = await get(`${nodes}/before`);
    assert.equal(kept.status, 200, kept.text);
    assert.equal(kept.body.name, 'stored before the outage');
    assert.equal((await patch(`${nodes}/before`, { name: 'after the outage' })).status, 200);
    assert.equal((await post(nodes, { name: 'after the outage' })).status, 201);
    assert.deepEqual((await get(`${nodes}?name=after%20the%20outage&fields=name`)).body, [{ name: 'after the outage' }, { name: 'after the outage' }]);
    const catalog = new CatalogServiceClient({ url: `${server!.url}/catalog`, username: 'CN=outage' });
    assert.equal((await catalog.createUser({ catalogUser: [{ userId: 'CN=outage' }], errorDeliveryMethod: 'DIRECT' })).catalogOperationStatus.status, 'OPERATION_SUCCESSFUL');
    assert.equal(server!.process.exitCode, null, 'the same process served throughout');
    assert.equal(server!.logs.filter((l) => l.msg === 'listening').length, 1);
    assert.equal(server!.logs.filter((l) => /takes writes again/.test(String(l.msg))).length, 1, 'the return is logged once, with how long it took');
  });

  it('answers 503 when every pooled connection stays busy past the acquire timeout, then serves again', async () => {
    const single = await startServer({ database: { url: cluster!.url, drop: async () => undefined }, env: { PUBLIC_URL, DATABASE_POOL_MAX: '1' } });
    try {
      const row = await lockRow(cluster!.url, 'before');
      let stuck: Promise<Answer>;
      try {
        // Holds the one connection of that process while it waits for the row.
        stuck = patch(`${single.url}/nodes/before`, { name: 'stuck' });
        await waitingSession(cluster!.url);
        const { answer, ms } = await timed(() => get(`${single.url}/nodes/before`));
        assert.equal(answer.status, 503, answer.text);
        assert.equal(answer.headers.get('retry-after'), '1');
        assert.ok(ms < 5_000, `answered after ${Math.round(ms)} ms`);
      } finally {
        await row.release();
      }
      assert.equal((await stuck).status, 200);
      assert.equal((await get(`${single.url}/nodes/before`)).body.name, 'stuck');
    } finally {
      await single.stop();
    }
  });
});
