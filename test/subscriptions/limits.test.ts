import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { hashToken } from '../../server/tokens.js';
import { post } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { SocketClient, StreamClient } from '../helpers/subscribers.js';
import { eventually } from '../helpers/wait.js';

const TOKENS = { reader: 'tc_sub-reader-0000000000000000000000000000000', writer: 'tc_sub-writer-000000000000000000000000000000' };
const configured = JSON.stringify({
  tokens: [
    { name: 'reader', hash: hashToken(TOKENS.reader), scopes: ['read'] },
    { name: 'writer', hash: hashToken(TOKENS.writer), scopes: ['create'] },
  ],
});

/** Resident memory of a process, from /proc (Linux). */
function rssBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))!;
  return Number(/(\d+)/.exec(line)![1]) * 1024;
}

/** Credentials and limits of subscriptions (docs/subscriptions.md), and subscribers that misbehave. */
describe('subscriptions: credentials, limits and hostile subscribers', function () {
  this.timeout(120_000);

  describe('with tokens configured', function () {
    let server: RunningServer;
    before(async () => {
      server = await startServer({ env: { TOPOCAT_TOKENS: configured } });
    });
    after(async () => {
      await server.stop();
    });

    const refused: [string, { path: string; headers?: Record<string, string> }][] = [
      ['no credentials', { path: '/subscribe/nodes' }],
      ['an unknown token', { path: '/subscribe/nodes', headers: { authorization: 'Bearer tc_nobody' } }],
      ['a token without the read scope', { path: '/subscribe/nodes', headers: { authorization: `Bearer ${TOKENS.writer}` } }],
      ['a query token without the read scope', { path: `/subscribe/nodes?access_token=${TOKENS.writer}` }],
    ];
    for (const [name, { path, headers }] of refused) {
      it(`a WebSocket with ${name} is refused with 401`, async () => {
        await assert.rejects(SocketClient.open(server.url, path, headers), (error: { status?: number }) => error.status === 401);
      });
    }

    it('a WebSocket with the read scope, in the header or as access_token=, subscribes', async () => {
      const byHeader = await SocketClient.open(server.url, '/subscribe/nodes', { authorization: `Bearer ${TOKENS.reader}` });
      const byQuery = await SocketClient.open(server.url, `/subscribe/nodes?access_token=${TOKENS.reader}`);
      await post(`${server.url}/nodes`, { name: 'n' }, { authorization: `Bearer ${TOKENS.writer}` });
      await Promise.all([byHeader.changesAtLeast(1), byQuery.changesAtLeast(1)]);
      byHeader.close();
      byQuery.close();
    });

    it('an event stream takes access_token= (EventSource cannot set headers), and the token is never logged', async () => {
      assert.equal((await StreamClient.open(`${server.url}/nodes`)).status, 401);
      const stream = await StreamClient.open(`${server.url}/nodes?access_token=${TOKENS.reader}`);
      assert.equal(stream.status, 200);
      await post(`${server.url}/nodes`, { name: 'streamed' }, { authorization: `Bearer ${TOKENS.writer}` });
      assert.equal((await stream.atLeast(1))[0]!.data.name, 'streamed');
      stream.close();
      await eventually('the stream\'s log line', () => server.logs.find((l) => l.msg === 'request' && l.path === '/nodes' && l.method === 'GET'));
      assert.ok(!JSON.stringify(server.logs).includes(TOKENS.reader), 'no log line holds the token');
      // On any other request a token in the query is no credential.
      assert.equal((await fetch(`${server.url}/nodes?access_token=${TOKENS.reader}`)).status, 401);
    });
  });

  describe('limits', function () {
    let server: RunningServer;
    before(async () => {
      server = await startServer({ env: { MAX_SUBSCRIBERS: '3', MAX_SUBSCRIBER_BUFFER_BYTES: String(256 * 1024), MAX_SUBSCRIPTION_MESSAGE_BYTES: '4096' } });
    });
    after(async () => {
      await server.stop();
    });

    it('past MAX_SUBSCRIBERS, a WebSocket gets 503 and an event stream too', async () => {
      const held = await Promise.all([SocketClient.open(server.url, '/subscribe'), SocketClient.open(server.url, '/subscribe'), StreamClient.open(`${server.url}/nodes`)]);
      await assert.rejects(SocketClient.open(server.url, '/subscribe'), (error: { status?: number }) => error.status === 503);
      assert.equal((await StreamClient.open(`${server.url}/nodes`)).status, 503);
      for (const client of held) client.close();
      // Places come back as subscribers leave.
      const later = await retry(() => SocketClient.open(server.url, '/subscribe'));
      later.close();
    });

    // Both transports are refused by one gate, in the same words.
    const transports: [string, (url: string) => Promise<{ status: number; retryAfter: string | undefined; message: unknown }>][] = [
      ['a WebSocket upgrade', (url) => refusedUpgrade(url, '/subscribe/nodes')],
      ['an event stream', async (url) => {
        const answer = await fetch(`${url}/nodes`, { headers: { accept: 'text/event-stream' } });
        return { status: answer.status, retryAfter: answer.headers.get('retry-after') ?? undefined, message: ((await answer.json()) as { error: { message: unknown } }).error.message };
      }],
    ];
    for (const [name, open] of transports) {
      it(`past MAX_SUBSCRIBERS, ${name} is refused: 503, Retry-After and the gate's words`, async () => {
        // One at a time: places of the tests before come back as the server notices their sockets close.
        const held: SocketClient[] = [];
        for (let i = 0; i < 3; i++) held.push(await retry(() => SocketClient.open(server.url, '/subscribe')));
        try {
          assert.deepEqual(await open(server.url), { status: 503, retryAfter: '5', message: 'at most 3 subscribers at once' });
        } finally {
          for (const client of held) client.close();
          // The server lets a socket go as its close handshake ends: the places are free for the tests after.
          await eventually('the held sockets\' close', () => (held.every((client) => client.closed) ? true : undefined));
        }
      });
    }

    it('an upgrade the handshake refuses (no Sec-WebSocket-Key) gives its place back', async () => {
      // Twice the limit: were each to keep its place, the three sockets after would be refused.
      for (let i = 0; i < 6; i++) assert.equal(await malformedUpgrade(server.url, '/subscribe'), 400);
      const held: SocketClient[] = [];
      for (let i = 0; i < 3; i++) held.push(await retry(() => SocketClient.open(server.url, '/subscribe')));
      for (const client of held) client.close();
      await eventually('the held sockets\' close', () => (held.every((client) => client.closed) ? true : undefined));
    });

    it('a message over MAX_SUBSCRIPTION_MESSAGE_BYTES closes the socket (1009); others go on', async () => {
      const huge = await SocketClient.open(server.url, '/subscribe');
      huge.send({ resourceType: 'nodes', query: { name: 'x'.repeat(10_000) } });
      await eventually('the close', () => huge.closed);
      assert.equal(huge.closed!.code, 1009);
    });

    it('a subscriber that never reads is disconnected while 10,000 writes flow; memory stays bounded and others keep receiving', async () => {
      const reader = await retry(() => SocketClient.open(server.url, '/subscribe/ports'));
      const stalled = await retry(() => SocketClient.open(server.url, '/subscribe/ports'));
      // It never reads: the server's frames pile up in its socket until the limit.
      (stalled.ws as unknown as { _socket: { pause(): void } })._socket.pause();
      const before = rssBytes(server.process.pid!);
      let peak = before;
      for (let batch = 0; batch < 20; batch++) {
        const answer = await post(`${server.url}/ports`, Array.from({ length: 500 }, (_, i) => ({ name: `p-${batch}-${i}`, description: 'x'.repeat(200) })));
        assert.equal(answer.status, 201);
        peak = Math.max(peak, rssBytes(server.process.pid!));
      }
      await reader.changesAtLeast(10_000, 60_000);
      const closed = await eventually('the log line of the slow subscriber', () => server.logs.find((l) => l.msg === 'subscriber does not read: closing its socket'));
      assert.ok(Number(closed.bufferedBytes) <= 256 * 1024 + 4096, `closed at ${closed.bufferedBytes} buffered bytes`);
      // 10,000 frames of about 400 bytes were 4 MB for the stalled subscriber; it held at most the limit.
      assert.ok(peak - before < 64 * 1024 * 1024, `RSS grew ${((peak - before) / 1048576).toFixed(1)} MiB`);
      reader.close();
      stalled.ws.terminate();
    });
  });

  it('thousands of subscriptions on one socket stop at the limit; a backtracking pattern runs in linear time', async () => {
    const server = await startServer({ env: { MAX_SUBSCRIPTIONS_PER_CONNECTION: '1000' } });
    try {
      const client = await SocketClient.open(server.url, '/subscribe');
      for (let i = 0; i < 5_000; i++) client.send({ resourceType: 'nodes', query: { name: `n${i}` } });
      await client.settled();
      await eventually('4,000 refusals', () => (client.frames.filter((f) => f.error).length === 4_000 ? true : undefined), 30_000);
      client.close();
      // (a+)+$ against a long run of a's and a mismatch: exponential for a backtracking engine.
      const patterned = await SocketClient.open(server.url, `/subscribe/ports?query=${encodeURIComponent(JSON.stringify({ name: { reg: '(a+)+$' } }))}`);
      const other = await SocketClient.open(server.url, '/subscribe/ports');
      await post(`${server.url}/ports`, [{ name: `${'a'.repeat(50_000)}!` }, { name: 'aaa' }]);
      const frames = await patterned.changesAtLeast(1);
      assert.deepEqual(frames.map((f) => f.data.name), ['aaa']);
      await other.changesAtLeast(2);
      patterned.close();
      other.close();
    } finally {
      await server.stop();
    }
  });
});

/** The answer to a WebSocket upgrade the server refuses: its status, Retry-After and error message. */
function refusedUpgrade(url: string, path: string): Promise<{ status: number; retryAfter: string | undefined; message: unknown }> {
  return new Promise((resolve, reject) => {
    const headers = { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': randomBytes(16).toString('base64') };
    const req = httpRequest(`${url}${path}`, { headers, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], message: (JSON.parse(body) as { error: { message: unknown } }).error.message }));
    });
    req.on('upgrade', () => reject(new Error('the upgrade was accepted')));
    req.on('error', reject);
    req.end();
  });
}

/** Try `attempt` until it succeeds (a place frees as the server notices closed sockets). */
/** The status of an upgrade request without the Sec-WebSocket-Key a handshake needs. */
function malformedUpgrade(url: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${url}${path}`, { headers: { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13' } });
    request.once('response', (answer) => {
      answer.resume();
      resolve(answer.statusCode ?? 0);
    });
    request.once('upgrade', () => reject(new Error('the malformed handshake was accepted')));
    request.once('error', reject);
    request.end();
  });
}

async function retry<T>(attempt: () => Promise<T>, ms = 5_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
