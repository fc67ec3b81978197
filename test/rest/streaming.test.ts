import assert from 'node:assert/strict';
import { get, post, request } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';

/** Lists are streamed from the database in chunks; the result is one valid JSON array. */
describe('REST streamed lists', function () {
  let server: RunningServer;
  before(async () => {
    server = await startServer();
    for (let batch = 0; batch < 3; batch++) {
      const answer = await post(`${server.url}/nodes`, Array.from({ length: 2000 }, (_, i) => ({ name: `n${batch * 2000 + i}`, description: 'x'.repeat(40) })));
      assert.equal(answer.status, 201);
    }
  });
  after(async () => {
    await server.stop();
  });

  // Newest first (rest-contract §5, revised 2026-11-29; was oldest first).
  it('streams 6,000 resources as one JSON array, newest first', async () => {
    const answer = await get(`${server.url}/nodes`);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('content-length'), null, 'chunked, not buffered');
    assert.equal(answer.body.length, 6000);
    const ts = answer.body.map((n: { ts: number }) => n.ts);
    assert.deepEqual(ts, [...ts].sort((a: number, b: number) => b - a));
  });

  it('survives clients that disconnect mid-stream', async () => {
    for (let i = 0; i < 5; i++) {
      const controller = new AbortController();
      const response = await fetch(`${server.url}/nodes`, { signal: controller.signal });
      const reader = response.body!.getReader();
      await reader.read();
      controller.abort();
    }
    assert.equal((await get(`${server.url}/nodes?limit=1`)).body.length, 1);
  });

  it('HEAD on a list answers without a body', async () => {
    const answer = await request('HEAD', `${server.url}/nodes`);
    assert.equal(answer.status, 200);
    assert.equal(answer.text, '');
    assert.equal((await get(`${server.url}/health`)).status, 200);
  });
});
