import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { hashToken } from '../../server/tokens.js';
import { DIRECT, startCatalog, type CatalogServer } from '../helpers/catalog.js';
import { createTestDatabase, engine, type TestDatabase } from '../helpers/database.js';
import { get, post } from '../helpers/http.js';
import { sample } from '../helpers/metrics.js';
import { startServer } from '../helpers/server.js';
import { eventually } from '../helpers/wait.js';

async function scrape(url: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(`${url}/metrics`, { headers });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return response.text();
}

const healthCount = (text: string): number => sample(text, 'topocat_http_request_duration_seconds_count', { route: '/health', method: 'GET', status: '200' }) ?? 0;

/** GET /metrics in the Prometheus text format (docs/operating.md, "Metrics"). */
describe('metrics', function () {
  this.timeout(60_000);

  describe('one process', function () {
    let catalog: CatalogServer;
    let url: string;
    before(async () => {
      catalog = await startCatalog();
      url = catalog.server.url;
    });
    after(async () => {
      await catalog.stop();
    });

    it('requests by route template, method and status, with durations', async () => {
      const created = await post(`${url}/nodes`, { name: 'counted' });
      assert.equal(created.status, 201);
      for (let i = 0; i < 3; i++) assert.equal((await get(`${url}/nodes/${created.body.id as string}`)).status, 200);
      // A typed client's miss (without Accept, UNIS's clients get 200 []).
      assert.equal((await get(`${url}/nodes/no-such-node`, { accept: 'application/json' })).status, 404);
      const text = await scrape(url);
      const count = (route: string, method: string, status: string) => sample(text, 'topocat_http_request_duration_seconds_count', { route, method, status });
      const table: [string, { route: string; method: string; status: string; want: number }][] = [
        ['the POST', { route: '/nodes', method: 'POST', status: '201', want: 1 }],
        ['the GETs of one node (the hot read)', { route: '/nodes/:id', method: 'GET', status: '200', want: 3 }],
        ['the miss', { route: '/nodes/:id', method: 'GET', status: '404', want: 1 }],
      ];
      for (const [name, { route, method, status, want }] of table) assert.equal(count(route, method, status), want, name);
      assert.ok((sample(text, 'topocat_http_request_duration_seconds_bucket', { route: '/nodes/:id', method: 'GET', status: '200', le: '+Inf' }) ?? 0) === 3);
      // The buckets are cumulative, every bound is there, and the sum is the durations' (the histogram is counted by server/metrics/request-durations.ts).
      const one = { route: '/nodes/:id', method: 'GET', status: '200' };
      const bounds = ['0.0005', '0.001', '0.0025', '0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '10', '+Inf'];
      const buckets = bounds.map((le) => sample(text, 'topocat_http_request_duration_seconds_bucket', { ...one, le }));
      assert.ok(buckets.every((n) => n !== undefined), `every bound: ${buckets.join(' ')}`);
      assert.ok(buckets.every((n, i) => i === 0 || n! >= buckets[i - 1]!), `cumulative: ${buckets.join(' ')}`);
      const sum = sample(text, 'topocat_http_request_duration_seconds_sum', one) ?? 0;
      assert.ok(sum > 0, `three GETs took ${sum} s`);
      // Every GET took more than the bound below the first non-empty bucket, and at most the first bound that holds all three.
      const first = buckets.findIndex((n) => n! > 0);
      const all = buckets.findIndex((n) => n === 3);
      if (first > 0) assert.ok(sum > 3 * Number(bounds[first - 1]), `the sum ${sum} s against le=${bounds[first - 1]!}`);
      if (bounds[all] !== '+Inf') assert.ok(sum <= 3 * Number(bounds[all]), `the sum ${sum} s against le=${bounds[all]!}`);
      assert.ok(!text.includes('no-such-node'), 'paths are never labels');
    });

    it('catalog operations by name and status', async () => {
      await catalog.client('CN=metrics').checkStatus({ errorDeliveryMethod: DIRECT });
      const text = await scrape(url);
      const calls = [...text.matchAll(/^topocat_catalog_operations_total\{(.*)\} (\d+)$/gm)];
      assert.ok(calls.some((m) => m[1]!.includes('operation="checkStatus"') && Number(m[2]) >= 1), text.split('\n').filter((l) => l.includes('catalog')).join('\n'));
    });

    it('the process, the event loop, the storage', async () => {
      const text = await scrape(url);
      for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_p99_seconds', 'nodejs_heap_size_used_bytes']) {
        assert.notEqual(sample(text, name), undefined, name);
      }
      if (engine === 'sqlite') {
        assert.ok((sample(text, 'topocat_sqlite_wal_bytes') ?? 0) > 0, 'the WAL holds the writes');
        assert.ok((sample(text, 'topocat_group_commits_total') ?? 0) >= 1);
        assert.ok((sample(text, 'topocat_group_commit_jobs_total') ?? 0) >= (sample(text, 'topocat_group_commits_total') ?? 0));
        assert.equal(sample(text, 'topocat_write_queue_jobs'), 0);
      } else {
        assert.notEqual(sample(text, 'topocat_db_pool_connections', { state: 'idle' }), undefined);
        assert.equal(sample(text, 'topocat_db_pool_connections', { state: 'waiting' }), 0);
      }
    });

    it('subscribers while an event stream is open, none after', async () => {
      const target = new URL(`${url}/nodes`);
      const req = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, headers: { accept: 'text/event-stream' } });
      const opened = new Promise<void>((resolve) => req.once('response', (res) => res.once('data', () => resolve())));
      req.on('error', () => undefined);
      req.end();
      await opened;
      assert.equal(sample(await scrape(url), 'topocat_subscribers'), 1);
      assert.notEqual(sample(await scrape(url), 'topocat_subscriber_buffered_bytes'), undefined);
      req.destroy();
      let last = '';
      for (let i = 0; i < 100; i++) {
        last = await scrape(url);
        if (sample(last, 'topocat_subscribers') === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.equal(sample(last, 'topocat_subscribers'), 0);
    });
  });

  it('with tokens: only credentials with the metrics scope', async () => {
    const tokens = { scraper: 'tc_scraper-0000000000000000000000', reader: 'tc_reader-00000000000000000000000' };
    const server = await startServer({
      env: {
        TOPOCAT_TOKENS: JSON.stringify({ tokens: [{ name: 'scraper', hash: hashToken(tokens.scraper), scopes: ['metrics'] }, { name: 'reader', hash: hashToken(tokens.reader), scopes: ['read'] }] }),
      },
    });
    try {
      const cases: [string, { headers: Record<string, string>; want: number }][] = [
        ['no credentials', { headers: {}, want: 401 }],
        ['a read token', { headers: { authorization: `Bearer ${tokens.reader}` }, want: 401 }],
        ['a metrics token', { headers: { authorization: `Bearer ${tokens.scraper}` }, want: 200 }],
      ];
      for (const [name, { headers, want }] of cases) assert.equal((await get(`${server.url}/metrics`, headers)).status, want, name);
      assert.equal((await get(`${server.url}/nodes`, { authorization: `Bearer ${tokens.scraper}` })).status, 401, 'the metrics scope reads nothing else');
    } finally {
      await server.stop();
    }
  });

  it('METRICS=false: no /metrics', async () => {
    const server = await startServer({ env: { METRICS: 'false' } });
    try {
      assert.equal((await get(`${server.url}/metrics`)).status, 404);
    } finally {
      await server.stop();
    }
  });

  describe('--workers 2', function () {
    let database: TestDatabase;
    before(async () => {
      database = await createTestDatabase();
    });
    after(async () => {
      await database.drop();
    });

    it('one answer for every worker: each request counted once, whichever worker served it', async () => {
      const server = await startServer({ database, args: ['--workers', '2'] });
      try {
        const before = healthCount(await scrape(server.url));
        const pids = new Set<number>();
        for (let i = 0; i < 40; i++) {
          // A new connection each time, so the kernel spreads them over the workers.
          const response = await fetch(`${server.url}/health`, { headers: { connection: 'close', 'x-request-id': `spread-${i}` } });
          assert.equal(response.status, 200);
          await response.arrayBuffer();
        }
        await eventually('the access lines', () => (server.logs.filter((l) => String(l.requestId).startsWith('spread-')).length === 40 ? true : undefined));
        for (const line of server.logs.filter((l) => String(l.requestId).startsWith('spread-'))) pids.add(line.pid as number);
        assert.equal(pids.size, 2, 'both workers served');
        for (let i = 0; i < 4; i++) assert.equal(healthCount(await scrape(server.url)) - before, 40);
        const text = await scrape(server.url);
        assert.equal(text.split('\n').filter((l) => l.startsWith('topocat_subscribers ')).length, 1, 'one sample, not one per worker');
      } finally {
        await server.stop();
      }
    });
  });
});
