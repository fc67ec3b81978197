import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { get, post, request } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Send raw bytes and read the raw answer (for what fetch will not send). */
function raw(url: string, bytes: Buffer | string, waitMs = 5000): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    // write, not end: Node treats a half-closed request as abandoned and answers nothing.
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    socket.setTimeout(waitMs, () => socket.destroy());
  });
}

function postRaw(url: string, path: string, body: Buffer | string, headers: Record<string, string> = {}): Promise<string> {
  const data = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const head = Object.entries({ host: 'localhost', 'content-type': 'application/json', 'content-length': String(data.length), connection: 'close', ...headers })
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n');
  return raw(url, Buffer.concat([Buffer.from(`POST ${path} HTTP/1.1\r\n${head}\r\n\r\n`, 'latin1'), data]));
}

const statusOf = (rawAnswer: string): number => Number(/^HTTP\/1\.1 (\d{3})/.exec(rawAnswer)?.[1] ?? 0);

/**
 * Hostile input against the REST interface (issue: security and robustness). Each case checks
 * the documented answer, that the server still answers, and that the data stored before is
 * byte-for-byte what it was.
 */
describe('hostile input to the REST interface', function () {
  this.timeout(120_000);
  let server: RunningServer;
  let nodes: string;
  /** selfRef → exact body text and ETag, recorded before any hostile request. */
  const baseline = new Map<string, { text: string; etag: string | null }>();

  before(async () => {
    server = await startServer({ env: { HEADERS_TIMEOUT_MS: '1500', REQUEST_TIMEOUT_MS: '3000' } });
    nodes = `${server.url}/nodes`;
    const created = await post(nodes, [
      { id: 'keep-1', name: 'before', location: { institution: 'IU' }, properties: { a: [1, 2, 3] } },
      { id: 'keep-2', name: 'ünïcödé ✓ 🚀', description: 'quotes " and \\ backslashes' },
    ]);
    assert.equal(created.status, 201);
    for (const node of created.body) {
      const answer = await get(node.selfRef);
      baseline.set(node.selfRef, { text: answer.text, etag: answer.headers.get('etag') });
    }
  });

  afterEach(async function () {
    if (this.currentTest?.state !== 'passed') return;
    assert.equal((await get(`${server.url}/health`)).status, 200, 'the server still answers');
    for (const [selfRef, { text, etag }] of baseline) {
      const answer = await get(selfRef);
      assert.equal(answer.text, text, `${selfRef} is byte-for-byte intact`);
      assert.equal(answer.headers.get('etag'), etag);
    }
    assert.equal((await get(`${nodes}?id=keep-1,keep-2`)).body.length, 2);
  });

  after(async () => {
    await server.stop();
  });

  const malformed = ['', ' ', '{', '}', '[', '{"a":}', '{"a" 1}', 'nul', 'tru', '{"a":1,}', '[1,]', "{'a':1}", 'NaN', '{"a":01}', '{"a":"\\x"}', '{"a":"\u0001"}', '{"a":1}{"b":2}', '\u0000', '{"a":"unterminated'];
  for (const text of malformed) {
    it(`answers 400 to malformed JSON ${JSON.stringify(text).slice(0, 24)}`, async () => {
      const answer = await request('POST', nodes, { raw: text, headers: { 'content-type': 'application/json' } });
      assert.equal(answer.status, 400, answer.text);
      assert.equal(answer.body.error.status, 400);
    });
  }

  for (const depth of [65, 1_000, 100_000]) {
    it(`answers 400 to JSON nested ${depth} levels deep`, async () => {
      const answer = await request('POST', nodes, { raw: `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}` });
      assert.equal(answer.status, 400);
      assert.match(answer.body.error.message, /nested deeper than 64/);
    });
  }

  it('answers 413 to a body over 10 MiB without reading it all', async () => {
    const answer = await request('POST', nodes, { raw: `{"name":"${'x'.repeat(10 * 1024 * 1024)}"}` });
    assert.equal(answer.status, 413);
  });

  it('answers 413 to an array of 10,001 resources', async () => {
    assert.equal((await request('POST', nodes, { raw: `[${Array(10_001).fill('{}').join(',')}]` })).status, 413);
  });

  it('stores a 9 MiB string and a 500,000-element array within the limits', async () => {
    const big = await post(nodes, { name: 'big', blob: 'y'.repeat(9 * 1024 * 1024) });
    assert.equal(big.status, 201);
    assert.equal((await get(big.body.selfRef)).body.blob.length, 9 * 1024 * 1024);
    const wide = await request('POST', nodes, { raw: `{"name":"wide","list":[${Array(500_000).fill(0).join(',')}]}` });
    assert.equal(wide.status, 201);
  });

  const strings: [string, string, RegExp][] = [
    ['an escaped NUL', '{"name":"a\\u0000b"}', /NUL/],
    ['an unpaired high surrogate', '{"name":"\\ud800"}', /unpaired surrogate/],
    ['an unpaired low surrogate', '{"name":"\\udc00x"}', /unpaired surrogate/],
    ['a surrogate pair in the wrong order', '{"name":"\\udc00\\ud800"}', /unpaired surrogate/],
  ];
  for (const [name, body, message] of strings) {
    it(`answers 400 to ${name}`, async () => {
      const answer = await request('POST', nodes, { raw: body });
      assert.equal(answer.status, 400);
      assert.match(answer.body.error.message, message);
    });
  }

  it('accepts a proper surrogate pair', async () => {
    const answer = await request('POST', nodes, { raw: '{"name":"\\ud83d\\ude80"}' });
    assert.equal(answer.status, 201);
    assert.equal(answer.body.name, '🚀');
  });

  const invalidUtf8: [string, number[]][] = [
    ['a truncated sequence', [0xc3, 0x28]],
    ['an overlong encoding', [0xc0, 0xaf]],
    ['an encoded surrogate (CESU-8)', [0xed, 0xa0, 0x80]],
    ['a stray continuation byte', [0x80]],
    ['0xFF', [0xff]],
  ];
  for (const [name, bytes] of invalidUtf8) {
    it(`answers 400 to invalid UTF-8: ${name}`, async () => {
      const body = Buffer.concat([Buffer.from('{"name":"'), Buffer.from(bytes), Buffer.from('"}')]);
      const answer = await postRaw(server.url, '/nodes', body);
      assert.equal(statusOf(answer), 400, answer);
      assert.match(answer, /not valid UTF-8/);
    });
  }

  it('keeps __proto__ and constructor as plain members, in POST and in merge patches', async () => {
    const created = await request('POST', nodes, { raw: '{"name":"proto","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}' });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.__proto__, { polluted: true });
    const patched = await request('PATCH', created.body.selfRef, { raw: '{"__proto__":{"also":1},"constructor":null}', headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(patched.status, 200);
    assert.deepEqual(JSON.parse(patched.text).__proto__, { polluted: true, also: 1 });
    assert.equal(Object.hasOwn(JSON.parse(patched.text), 'constructor'), false, 'null removed the member');
    // The server's own objects kept their prototypes: ordinary requests still behave.
    const plain = await post(nodes, { name: 'after-proto' });
    assert.equal(plain.status, 201);
    assert.equal(plain.body.polluted, undefined);
    assert.equal((await get(`${nodes}?polluted=true`)).body.length, 0);
  });

  const injections = [
    "name=x' OR '1'='1",
    "name=x'; DROP TABLE resource_current; --",
    'name=lte=!") OR 1=1 --',
    "name=x|id=y' OR 1=1 --",
    'name=a,b\') UNION SELECT doc FROM resource_history --',
    'location.institution=number:1 OR 1=1',
    'name=string:%27%29%20OR%201%3D1%20--',
  ];
  for (const query of injections) {
    it(`treats SQL in a query value as data: ?${query}`, async () => {
      const answer = await get(`${nodes}?${query.replace(/ /g, '%20')}`);
      assert.ok(answer.status === 200 || answer.status === 400, answer.text);
      if (answer.status === 200) assert.deepEqual(answer.body, []);
    });
  }

  const fieldInjections = [
    "name'--=1",
    'name"=1',
    'a);DROP TABLE resource_current;--=1',
    'sort=name);DROP TABLE resource_current;--:1',
    "sort=name':1",
    'fields=name,(SELECT 1)',
    "fields=a'b",
    'limit=1;DELETE FROM resource_current',
    'skip=1 OR 1=1',
    'x.$.y[0]=1',
  ];
  for (const query of fieldInjections) {
    it(`answers 400 to SQL in a field name or option: ?${query}`, async () => {
      const answer = await get(`${nodes}?${query.replace(/ /g, '%20').replace(/"/g, '%22')}`);
      assert.equal(answer.status, 400, answer.text);
      assert.equal(answer.body.error.status, 400);
    });
  }

  const ids: [string, string, number][] = [
    ['a traversal id in the body', '{"id":".."}', 400],
    ['a dot id in the body', '{"id":"."}', 400],
    ['a slash in the id', '{"id":"a/b"}', 400],
    ['a question mark in the id', '{"id":"a?b"}', 400],
    ['a hash in the id', '{"id":"a#b"}', 400],
    ['a space in the id', '{"id":"a b"}', 400],
    ['an empty id', '{"id":""}', 400],
    ['a 1,025-byte id', `{"id":"${'a'.repeat(1025)}"}`, 400],
    // Stored exactly as sent (rest-contract §3, revised 2026-11-29): `%` as unisencoder writes it,
    // any letter, up to 1,024 bytes.
    ['a percent-encoded slash, kept as sent', '{"id":"a%2Fb"}', 201],
    ['a non-ASCII id', '{"id":"ünï"}', 201],
    ['a 1,024-byte id', `{"id":"${'a'.repeat(1024)}"}`, 201],
    ['a numeric id', '{"id":5}', 400],
  ];
  for (const [name, body, status] of ids) {
    it(`answers ${status} to ${name}`, async () => assert.equal((await request('POST', nodes, { raw: body })).status, status));
  }

  const paths = ['/nodes/..%2F..%2Fetc%2Fpasswd', '/nodes/%2e%2e', '/nodes/%00', '/nodes/a%00b', '/nodes/..', '/nodes/%E0%A4%A', `/nodes/${'a'.repeat(5000)}`, '/../../etc/passwd', '/nodes/keep-1/../keep-2'];
  for (const path of paths) {
    it(`answers a client error to the odd path ${path.slice(0, 40)}`, async () => {
      const answer = await raw(server.url, `GET ${path} HTTP/1.1\r\nhost: localhost\r\naccept: application/json\r\nconnection: close\r\n\r\n`);
      const status = statusOf(answer);
      assert.ok(status >= 400 && status < 500, answer.slice(0, 200));
      assert.doesNotMatch(answer, /root:|at \S+ \(/);
    });
  }

  it('answers 400 to a thousand repeated query parameters', async () => {
    const answer = await get(`${nodes}?${Array(1000).fill('name=a').join('&')}`);
    assert.equal(answer.status, 400);
    assert.match(answer.body.error.message, /at most 256 query parameters/);
  });

  it('answers 431 to a request line over 16 KiB (Node\'s header limit) and keeps serving', async () => {
    assert.equal((await get(`${nodes}?${Array(5000).fill('name=a').join('&')}`)).status, 431);
  });

  it('builds selfRef and Location from configuration, not from a forged Host or X-Forwarded-Host', async () => {
    const answer = await postRaw(server.url, '/nodes', '{"name":"forged"}', { host: 'evil.example.com', 'x-forwarded-host': 'evil2.example.com', 'x-forwarded-proto': 'https' });
    assert.equal(statusOf(answer), 201);
    assert.doesNotMatch(answer, /evil/);
    assert.match(answer, new RegExp(`Location: ${server.url}/nodes/`));
  });

  it('ignores method-override headers and parameters', async () => {
    for (const header of ['x-http-method-override', 'x-http-method', 'x-method-override']) {
      const answer = await get(`${nodes}/keep-1?_method=DELETE`, { [header]: 'DELETE' });
      assert.equal(answer.status, 200);
    }
    const posted = await request('POST', `${nodes}/keep-1?_method=DELETE`, { body: {}, headers: { 'x-http-method-override': 'DELETE' } });
    assert.equal(posted.status, 405);
  });

  it('bounds slow clients by the request timeouts while serving others', async () => {
    const { port } = new URL(server.url);
    const open = (): Promise<Socket> =>
      new Promise((resolve) => {
        const socket = connect(Number(port), '127.0.0.1', () => resolve(socket));
        socket.on('error', () => undefined);
      });
    const closed = (socket: Socket): Promise<number> => {
      const started = Date.now();
      return new Promise((resolve) => socket.once('close', () => resolve(Date.now() - started)));
    };
    // Headers trickled one byte at a time, and a body trickled after complete headers.
    const slowHeaders = await Promise.all(Array.from({ length: 20 }, open));
    const slowBodies = await Promise.all(Array.from({ length: 20 }, open));
    const headerTimes = slowHeaders.map(closed);
    const bodyTimes = slowBodies.map(closed);
    for (const socket of slowBodies) socket.write('POST /nodes HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{');
    const trickle = setInterval(() => {
      for (const socket of slowHeaders) if (!socket.destroyed) socket.write('X');
      for (const socket of slowBodies) if (!socket.destroyed) socket.write(' ');
    }, 200);
    try {
      await sleep(300);
      const started = Date.now();
      const answer = await get(`${nodes}/keep-1`);
      assert.equal(answer.status, 200);
      assert.ok(Date.now() - started < 1000, 'other clients are served at once');
      const times = await Promise.all([...headerTimes, ...bodyTimes]);
      assert.ok(Math.max(...times) < 8000, `every slow connection is closed by the timeouts (slowest ${Math.max(...times)} ms)`);
    } finally {
      clearInterval(trickle);
      for (const socket of [...slowHeaders, ...slowBodies]) socket.destroy();
    }
  });
});
