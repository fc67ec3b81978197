import assert from 'node:assert/strict';
import { TopologyClient } from '../../generated/client/rest.js';
import { engine, withPostgres, type TestDatabase } from '../helpers/database.js';
import { until } from '../helpers/federation.js';
import { del, get, patch, post } from '../helpers/http.js';
import { createPrimaryAndStandby, type LocalCluster } from '../../tools/pg-cluster.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { StreamClient } from '../helpers/subscribers.js';

/** The standby applies each commit this long after the primary made it: every read right after a write finds it behind. */
const APPLY_DELAY_MS = 200;

/** One standby's figures in a /metrics text. */
function standbyFigures(metrics: string): { up: number; reads: number; waits: number; fallbacks: number } {
  const figure = (name: string): number => Number(new RegExp(`^${name}\\{standby="[^"]+"\\} (\\S+)$`, 'm').exec(metrics)?.[1] ?? NaN);
  return { up: figure('topocat_standby_up'), reads: figure('topocat_standby_reads_total'), waits: figure('topocat_standby_read_waits_total'), fallbacks: figure('topocat_standby_fallbacks_total') };
}

const metricsOf = async (server: RunningServer): Promise<ReturnType<typeof standbyFigures>> => standbyFigures((await get(`${server.url}/metrics`)).text);

/**
 * Reads past one machine (rest-contract §15) through the real HTTP interface: two servers on a
 * private primary, both reading from a streaming standby that applies every commit 200 ms late.
 * A write acknowledged through one server is seen by every later read through the other; write
 * answers carry the consistency token, which a read sends back; the feed keeps its order on the
 * standby side; a standby that stops is read around without a failed request and serves again
 * once back.
 */
describe('PostgreSQL standbys behind two servers', function () {
  this.timeout(180_000);
  let clusters: Awaited<ReturnType<typeof createPrimaryAndStandby>> | undefined;
  let primary: LocalCluster;
  let standby: LocalCluster;
  let writer: RunningServer;
  let reader: RunningServer;
  const database = (): TestDatabase => ({ url: primary.url, drop: async () => undefined });

  before(async function () {
    if (engine !== 'postgres') this.skip();
    clusters = await createPrimaryAndStandby([`recovery_min_apply_delay=${APPLY_DELAY_MS}ms`]);
    ({ primary, standby } = clusters);
    // No read cache: every read goes to the database, so each one is routed.
    const env = { DATABASE_READ_URLS: standby.url, READ_CACHE_MB: '0' };
    writer = await startServer({ database: database(), env });
    reader = await startServer({ database: database(), env });
  });
  after(async () => {
    await writer?.stop();
    await reader?.stop();
    await clusters?.destroy();
  });

  it('answers every read after a write through the other server with that write, 32 pairs at once', async () => {
    const before = await metricsOf(reader);
    let stale = 0;
    const pairs = 32 * 6;
    await Promise.all(
      Array.from({ length: 32 }, async (_, lane) => {
        for (let i = 0; i < pairs / 32; i++) {
          const id = `pair-${lane}-${i}`;
          switch (i % 4) {
            case 0: {
              assert.equal((await post(`${writer.url}/nodes`, { id, name: id })).status, 201);
              if ((await get(`${reader.url}/nodes/${id}`)).status !== 200) stale++;
              break;
            }
            case 1: {
              assert.equal((await post(`${writer.url}/nodes`, { id, name: id })).status, 201);
              const list = await get(`${reader.url}/nodes?name=${id}`);
              if (list.body.length !== 1) stale++;
              break;
            }
            case 2: {
              assert.equal((await post(`${writer.url}/nodes`, { id, name: id })).status, 201);
              const patched = await patch(`${writer.url}/nodes/${id}`, { description: 'patched' });
              assert.equal(patched.status, 200);
              const read = await get(`${reader.url}/nodes/${id}`);
              if (read.body.description !== 'patched' || read.body.ts !== patched.body.ts) stale++;
              break;
            }
            default: {
              assert.equal((await post(`${writer.url}/nodes`, { id, name: id })).status, 201);
              assert.equal((await get(`${reader.url}/nodes/${id}`)).status, 200);
              assert.equal((await del(`${writer.url}/nodes/${id}`)).status, 204);
              if ((await get(`${reader.url}/nodes/${id}`, { accept: 'application/json' })).status !== 404) stale++;
            }
          }
        }
      }),
    );
    assert.equal(stale, 0, `${stale} reads answered older than a write acknowledged before them`);
    const after = await metricsOf(reader);
    // The standby served reads, and some of them waited for it to replay (it is 200 ms behind).
    assert.ok(after.reads > before.reads, `the standby served no read (${JSON.stringify(after)})`);
    assert.ok(after.waits > before.waits, `no read waited for the standby (${JSON.stringify(after)})`);
  });

  it('answers writes with a consistency token, and serves a read that sends it back where it was replayed', async () => {
    const created = await post(`${writer.url}/nodes`, { id: 'token-1', name: 'token' });
    const token = created.headers.get('consistency-token');
    assert.match(token ?? '', /^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/);
    for (const answer of [await patch(`${writer.url}/nodes/token-1`, { description: 'd' }), await del(`${writer.url}/nodes/token-1`)]) {
      assert.match(answer.headers.get('consistency-token') ?? '', /^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/);
    }
    // Reads carry none.
    assert.equal((await get(`${reader.url}/nodes`)).headers.get('consistency-token'), null);
    const created2 = await post(`${writer.url}/nodes`, { id: 'token-2', name: 'token' });
    const read = await get(`${reader.url}/nodes/token-2`, { 'consistency-token': created2.headers.get('consistency-token')! });
    assert.equal(read.status, 200);
    // A token no standby has reached (another cluster's, say): the read waits READ_WAIT_MS, then the primary serves it.
    const { fallbacks } = await metricsOf(reader);
    const started = performance.now();
    assert.equal((await get(`${reader.url}/nodes/token-2`, { 'consistency-token': 'FFFFFFF/0' })).status, 200);
    assert.ok(performance.now() - started >= 240, 'the read did not wait for the standby');
    assert.equal((await metricsOf(reader)).fallbacks, fallbacks + 1);
    // A malformed one is no token: the read is served as any other.
    assert.equal((await get(`${reader.url}/nodes/token-2`, { 'consistency-token': 'soon' })).status, 200);
  });

  it('sends the token from the generated REST client, whose reads through another server see its writes', async () => {
    const sent: { method: string; token: string | null }[] = [];
    // Writes go to one server, reads to the other, as behind a load balancer.
    const split: typeof fetch = (input, init) => {
      const method = init?.method ?? 'GET';
      sent.push({ method, token: new Headers(init?.headers).get('consistency-token') });
      return fetch(method === 'GET' ? String(input).replace(writer.url, reader.url) : input, init);
    };
    const client = new TopologyClient({ baseUrl: writer.url, fetch: split });
    assert.equal(client.consistencyToken, undefined);
    const { value } = await client.nodes.create({ name: 'sdk-token' });
    const first = client.consistencyToken;
    assert.match(first ?? '', /^[0-9A-F]+\/[0-9A-F]+$/);
    assert.equal((await client.nodes.get(value.id!)).value.id, value.id);
    await client.nodes.patch(value.id!, { description: 'again' });
    const second = client.consistencyToken!;
    assert.notEqual(second, first);
    assert.equal((await client.nodes.get(value.id!)).value.description, 'again');
    assert.deepEqual(sent, [
      { method: 'POST', token: null },
      { method: 'GET', token: first },
      { method: 'PATCH', token: first },
      { method: 'GET', token: second },
    ]);
    // Handed to another client, its reads see those writes.
    const other = new TopologyClient({ baseUrl: reader.url, consistencyToken: second });
    assert.equal(other.consistencyToken, second);
    assert.equal((await other.nodes.get(value.id!)).value.description, 'again');
  });

  it('delivers changes on the standby side once each, in order, and resumes with Last-Event-ID', async () => {
    const subscriber = await StreamClient.open(`${reader.url}/nodes`, {});
    assert.equal(subscriber.status, 200);
    const written: string[] = [];
    for (let i = 0; i < 30; i++) {
      const answer = i % 3 === 2 ? await patch(`${writer.url}/nodes/feed-${i - 1}`, { description: `v${i}` }) : await post(`${writer.url}/nodes`, { id: `feed-${i}`, name: `feed ${i}` });
      assert.ok(answer.status < 300, answer.text);
      written.push(`${answer.body.id} ${answer.body.ts}`);
    }
    const events = await subscriber.atLeast(written.length, 20_000);
    assert.deepEqual(events.map((e) => `${e.data.id} ${e.data.ts}`), written);
    // Resume after the tenth event: the rest, once each, in order.
    const resumed = await StreamClient.open(`${reader.url}/nodes`, { 'last-event-id': events[9]!.id });
    const rest = await resumed.atLeast(written.length - 10, 20_000);
    assert.deepEqual(rest.map((e) => e.id), events.slice(10).map((e) => e.id));
    subscriber.close();
    resumed.close();
  });

  it('reads around a standby that stops, with no failed request, and serves from it again once it is back', async () => {
    assert.equal((await post(`${writer.url}/nodes`, { id: 'outage', name: 'outage' })).status, 201);
    let failed = 0;
    let served = 0;
    let running = true;
    const load = Promise.all(
      Array.from({ length: 8 }, async () => {
        while (running) {
          const answer = await get(`${reader.url}/nodes/outage`);
          if (answer.status === 200) served++;
          else failed++;
        }
      }),
    );
    await until('reads under way', async () => (served > 50 ? true : undefined));
    await standby.stop();
    const down = await until('the standby read around', async () => ((await metricsOf(reader)).up === 0 ? true : undefined));
    assert.ok(down);
    const health = await get(`${reader.url}/health`);
    assert.equal(health.status, 200);
    assert.equal(health.body.standbys[0].status, 'unavailable');
    const whileDown = served;
    await until('reads served by the primary meanwhile', async () => (served > whileDown + 50 ? true : undefined));
    await standby.start();
    const back = performance.now();
    const readsBefore = (await metricsOf(reader)).reads;
    await until('reads served by the standby again', async () => ((await metricsOf(reader)).reads > readsBefore + 20 ? true : undefined), 10_000);
    const seconds = (performance.now() - back) / 1000;
    running = false;
    await load;
    assert.equal(failed, 0, `${failed} of ${served + failed} reads failed while the standby was away`);
    assert.ok(seconds < 3 + APPLY_DELAY_MS / 1000 + 2, `reads went back to the standby ${seconds.toFixed(1)} s after it started`);
    assert.equal((await get(`${reader.url}/health`)).body.standbys[0].status, 'ok');
    const logged = reader.logs.filter((line) => line.msg.startsWith('standby unavailable'));
    assert.equal(logged.length, 1, 'the outage is logged once');
  });
});

/**
 * A standby that cancels reads for conflicts with recovery at once (`max_standby_streaming_delay=0`)
 * while the primary vacuums the resource tables every 200 ms: it cancels statements and ends
 * sessions under reads in flight, and no read may fail or answer stale for it (each reads again
 * where the routing then sends it). Before the fixes this test stands for, such runs hung lists for
 * 30 s (a stream on a connection that ended) and answered 500 (EPIPE read as a query's error).
 */
describe('PostgreSQL standby that cancels reads for conflicts with recovery', function () {
  this.timeout(180_000);
  let clusters: Awaited<ReturnType<typeof createPrimaryAndStandby>> | undefined;
  let primary: LocalCluster;
  let writer: RunningServer;
  let reader: RunningServer;

  before(async function () {
    if (engine !== 'postgres') this.skip();
    clusters = await createPrimaryAndStandby(['recovery_min_apply_delay=200ms', 'max_standby_streaming_delay=0', 'hot_standby_feedback=off']);
    primary = clusters.primary;
    const standby = clusters.standby;
    const database = (): TestDatabase => ({ url: primary.url, drop: async () => undefined });
    writer = await startServer({ database: database() });
    reader = await startServer({ database: database(), env: { DATABASE_READ_URLS: standby.url, READ_CACHE_MB: '0' } });
  });
  after(async () => {
    await writer?.stop();
    await reader?.stop();
    await clusters?.destroy();
  });

  it('answers every read, none stale, while the standby cancels and ends sessions', async () => {
    let vacuuming = true;
    const vacuum = withPostgres(primary.url, async (knex) => {
      while (vacuuming) {
        await knex.raw('VACUUM resource_current');
        await knex.raw('VACUUM resource_history');
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    });
    const wrong: string[] = [];
    try {
      await Promise.all(
        Array.from({ length: 32 }, async (_, lane) => {
          for (let i = 0; i < 24; i++) {
            const id = `conflict-${lane}-${i}`;
            assert.equal((await post(`${writer.url}/nodes`, { id, name: id })).status, 201);
            if (i % 2 === 0) {
              const list = await get(`${reader.url}/nodes?name=${id}`);
              if (list.status !== 200 || list.body.length !== 1) wrong.push(`list ${id}: ${list.status}`);
            } else {
              assert.equal((await patch(`${writer.url}/nodes/${id}`, { description: 'x' })).status, 200);
              const read = await get(`${reader.url}/nodes/${id}`);
              if (read.status !== 200 || read.body.description !== 'x') wrong.push(`get ${id}: ${read.status}`);
            }
          }
        }),
      );
    } finally {
      vacuuming = false;
      await vacuum;
    }
    assert.deepEqual(wrong, []);
  });
});
