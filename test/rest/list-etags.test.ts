import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { createTestDatabase, engine, type TestDatabase } from '../helpers/database.js';
import { TOPOLOGY } from '../helpers/http.js';
import { checkAnswer } from '../helpers/openapi.js';
import { startServer, type RunningServer } from '../helpers/server.js';

interface Reply {
  readonly status: number;
  readonly etag: string | undefined;
  readonly text: string;
  readonly body: any;
}

/**
 * One request on a connection of its own (no keep-alive), checked against openapi.json: with
 * `--workers`, the cluster hands each new connection to the next worker, so consecutive requests
 * reach different processes.
 */
function fresh(method: string, url: string, options: { body?: unknown; headers?: Record<string, string> } = {}): Promise<Reply> {
  const text = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = { ...options.headers, ...(text === undefined ? {} : { 'content-type': TOPOLOGY, 'content-length': String(Buffer.byteLength(text)) }) };
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, agent: false, headers }, (res) => {
      let received = '';
      res.on('data', (chunk: Buffer) => (received += chunk.toString()));
      res.on('end', () => {
        const requestId = res.headers['x-request-id'];
        checkAnswer({ method, url, status: res.statusCode!, contentType: res.headers['content-type'] ?? null, requestId: typeof requestId === 'string' ? requestId : null, text: received });
        let body: unknown;
        try {
          body = received === '' ? undefined : JSON.parse(received);
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode!, etag: res.headers.etag, text: received, body });
      });
    });
    req.on('error', reject);
    req.end(text);
  });
}

/**
 * rest-contract §5 (added 2026-11-29): a list answer carries an ETag, and If-None-Match with it
 * gives 304 with no body while nothing the list could show has changed; any committed write
 * through any process that could change the list changes the tag. The processes: two servers on
 * one PostgreSQL database, or one SQLite server with `--workers 2`.
 */
describe('list ETags: 304 while nothing the list could show has changed, across processes', function () {
  this.timeout(60_000);
  // On PostgreSQL a tag may also move with no write, when the server's oldest running transaction
  // (any session of the shared server) ends and its horizon passes events (see settled() below):
  // a 200 more, never a wrong 304. A case caught by such a move between its requests is run
  // again; one that sees a wrong 304 or a tag that does not move fails every time.
  if (engine === 'postgres') this.retries(2);
  let database: TestDatabase;
  const servers: RunningServer[] = [];
  /** The processes' base addresses: two servers, or one cluster whose fresh connections alternate between its workers. */
  let bases: string[] = [];

  before(async () => {
    database = await createTestDatabase();
    const env = { PUBLIC_URL: 'http://topology.example.net' };
    if (engine === 'postgres') {
      // One after the other: on a busy machine two starting at once may miss the helper's 20 s.
      for (let i = 0; i < 2; i++) servers.push(await startServer({ database, env }));
      bases = servers.map((s) => s.url);
    } else {
      servers.push(await startServer({ database, env, args: ['--workers', '2'] }));
      bases = [servers[0]!.url, servers[0]!.url];
    }
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await database?.drop();
  });

  const a = (): string => bases[0]!;
  const b = (): string => bases[1]!;
  const ref = (path: string): { href: string; rel: string } => ({ href: `http://topology.example.net${path}`, rel: 'full' });

  /**
   * On PostgreSQL a list's tag may move once more after a write, without a write, when the oldest
   * running transaction of the server ends and its horizon passes the write's events
   * (storage/list-positions.ts): a 200 more, never a wrong 304. Other sessions of a shared
   * server may hold it for a while; wait until the tag has stayed the same for a moment.
   */
  async function settled(path: string): Promise<void> {
    let last = (await fresh('GET', `${a()}${path}`)).etag;
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const now = (await fresh('GET', `${b()}${path}`)).etag;
      if (now === last) return;
      last = now;
    }
  }

  /** The list through every process: each answers 200 with one tag, and 304 to it. */
  async function tagEverywhere(path: string): Promise<{ etag: string; body: any }> {
    await settled(path);
    const first = await fresh('GET', `${a()}${path}`);
    assert.equal(first.status, 200, first.text);
    assert.match(first.etag ?? '', /^W\/"[^"]+"$/, `${path}: a weak ETag`);
    for (const base of [b(), a(), b()]) {
      const again = await fresh('GET', `${base}${path}`);
      assert.equal(again.etag, first.etag, `${path}: the same tag from every process while nothing changes`);
      const cached = await fresh('GET', `${base}${path}`, { headers: { 'if-none-match': first.etag! } });
      assert.equal(cached.status, 304, `${path}: 304 to its own tag`);
      assert.equal(cached.text, '', 'no body');
      assert.equal(cached.etag, first.etag, 'the 304 keeps the ETag');
    }
    return { etag: first.etag!, body: first.body };
  }

  /** Every process answers the list 200, with a new tag, to a client holding `etag`. */
  async function changedEverywhere(path: string, etag: string): Promise<void> {
    for (const base of [a(), b(), a(), b()]) {
      const answer = await fresh('GET', `${base}${path}`, { headers: { 'if-none-match': etag } });
      assert.equal(answer.status, 200, `${path}: a changed list is answered again (${base})`);
      assert.notEqual(answer.etag, etag);
    }
  }

  before(async () => {
    // What the writes below change: nodes, a link between two of them, a file with an extent.
    for (const id of ['n-put', 'n-patch', 'n-touch', 'n-delete', 'n-linked']) assert.equal((await fresh('POST', `${a()}/nodes`, { body: { id, name: id } })).status, 201);
    assert.equal((await fresh('POST', `${a()}/links`, { body: { id: 'l1', directed: false, endpoints: [ref('/nodes/n-linked'), ref('/nodes/n-put')] } })).status, 201);
    assert.equal((await fresh('POST', `${a()}/exnodes`, { body: { id: 'f1', name: 'file', mode: 'file', size: 10, created: 1, modified: 1, parent: null } })).status, 201);
    assert.equal((await fresh('POST', `${a()}/extents`, { body: { id: 'x1', parent: ref('/exnodes/f1'), offset: 0, size: 5, location: 'ibp://a' } })).status, 201);
  });

  const cases: [string, { list: string; write: (base: string) => Promise<Reply>; status: number }][] = [
    ['POST of one resource', { list: '/nodes', write: (base) => fresh('POST', `${base}/nodes`, { body: { id: 'n-new', name: 'new' } }), status: 201 }],
    ['POST of an array', { list: '/nodes', write: (base) => fresh('POST', `${base}/nodes`, { body: [{ id: 'n-array-1' }, { id: 'n-array-2' }] }), status: 201 }],
    ['composite insert (a domain with an embedded node)', { list: '/nodes', write: (base) => fresh('POST', `${base}/domains`, { body: { id: 'd1', name: 'd', nodes: [{ id: 'n-embedded', name: 'embedded' }] } }), status: 201 }],
    ['PUT', { list: '/nodes', write: (base) => fresh('PUT', `${base}/nodes/n-put`, { body: { id: 'n-put', name: 'replaced' } }), status: 201 }],
    ['PATCH', { list: '/nodes', write: (base) => fresh('PATCH', `${base}/nodes/n-patch`, { body: { name: 'patched' }, headers: { 'content-type': 'application/merge-patch+json' } }), status: 200 }],
    ['touch (a PUT of the id alone)', { list: '/nodes', write: (base) => fresh('PUT', `${base}/nodes/n-touch`, { body: { id: 'n-touch' } }), status: 201 }],
    ['DELETE', { list: '/nodes?name=n-delete', write: (base) => fresh('DELETE', `${base}/nodes/n-delete`), status: 204 }],
    ['a write to a node that an expanded list of links shows', { list: '/links?expand', write: (base) => fresh('PATCH', `${base}/nodes/n-linked`, { body: { name: 'renamed' }, headers: { 'content-type': 'application/merge-patch+json' } }), status: 200 }],
    ['a new extent of a file that `inline` shows', { list: '/exnodes?inline', write: (base) => fresh('POST', `${base}/extents`, { body: { id: 'x2', parent: ref('/exnodes/f1'), offset: 5, size: 5, location: 'ibp://b' } }), status: 201 }],
  ];
  cases.forEach(([name, { list, write, status }], i) => {
    it(`${name}: the tag of ${list} changes at once in every process`, async () => {
      const before = await tagEverywhere(list);
      // Written through one process or the other in turn; read back through both.
      const written = await write(i % 2 === 0 ? a() : b());
      assert.equal(written.status, status, written.text);
      await changedEverywhere(list, before.etag);
      // And the new tag (once settled) is one tag from every process, answered 304 by each.
      const after = await tagEverywhere(list);
      assert.notEqual(after.etag, before.etag);
      assert.notDeepEqual(after.body, before.body, 'the new answer holds the change');
    });
  });

  const unchanged: [string, { list: string; write: (base: string) => Promise<Reply> }][] = [
    ['a write to ports leaves the list of nodes', { list: '/nodes', write: (base) => fresh('POST', `${base}/ports`, { body: { id: 'p-other' } }) }],
    ['a write to a node leaves the list of links without expand', { list: '/links', write: (base) => fresh('PATCH', `${base}/nodes/n-linked`, { body: { name: 'again' }, headers: { 'content-type': 'application/merge-patch+json' } }) }],
  ];
  for (const [name, { list, write }] of unchanged) {
    it(`${name}: ${list} is still answered 304`, async () => {
      const before = await tagEverywhere(list);
      assert.ok((await write(b())).status < 300);
      for (const base of [a(), b()]) assert.equal((await fresh('GET', `${base}${list}`, { headers: { 'if-none-match': before.etag } })).status, 304);
    });
  }

  it('HEAD carries the tag of GET, and answers 304 to it', async () => {
    const got = await fresh('GET', `${a()}/nodes?fields=id`);
    const head = await fresh('HEAD', `${b()}/nodes?fields=id`);
    assert.equal(head.status, 200);
    assert.equal(head.etag, got.etag);
    const cached = await fresh('HEAD', `${a()}/nodes?fields=id`, { headers: { 'if-none-match': got.etag! } });
    assert.equal(cached.status, 304);
    assert.equal(cached.etag, got.etag);
  });

  const variants: [string, { one: [string, Record<string, string>?]; other: [string, Record<string, string>?] }][] = [
    ['another query string', { one: ['/nodes?name=n-put'], other: ['/nodes?name=n-patch'] }],
    ['a projection', { one: ['/nodes'], other: ['/nodes?fields=id'] }],
    ['paging', { one: ['/nodes?limit=1'], other: ['/nodes?limit=1&skip=1'] }],
    ['another media type (Accept)', { one: ['/nodes', { accept: 'application/json' }], other: ['/nodes', { accept: TOPOLOGY }] }],
  ];
  for (const [name, { one, other }] of variants) {
    it(`${name} is another answer with another tag, never 304 to the first's`, async () => {
      const first = await fresh('GET', `${a()}${one[0]}`, { headers: one[1] ?? {} });
      const second = await fresh('GET', `${a()}${other[0]}`, { headers: { ...other[1], 'if-none-match': first.etag! } });
      assert.equal(second.status, 200);
      assert.notEqual(second.etag, first.etag);
    });
  }

  it('a list that does not match answers 200 with the list and its tag', async () => {
    const answer = await fresh('GET', `${a()}/nodes?fields=id`, { headers: { 'if-none-match': 'W/"0.other", "123"' } });
    assert.equal(answer.status, 200);
    assert.ok(Array.isArray(answer.body));
    assert.match(answer.etag ?? '', /^W\//);
  });

  const untagged: [string, string][] = [
    ['a list of the past (`at`)', `/nodes?at=${Date.now() * 1000}`],
    ['what changed between two instants (`since`)', `/nodes?since=${(Date.now() - 60_000) * 1000}`],
  ];
  for (const [name, list] of untagged) {
    it(`${name} carries no ETag: an import may add to the past without an event`, async () => {
      const answer = await fresh('GET', `${a()}${list}`, { headers: { 'if-none-match': '*' } });
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.etag, undefined);
    });
  }
});

describe('list ETags: the configured addresses', function () {
  this.timeout(60_000);
  const servers: RunningServer[] = [];
  after(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  it('two services configured with other PUBLIC_URLs never share a tag for the same list of the same position', async () => {
    for (const url of ['http://one.example.net', 'http://two.example.net']) servers.push(await startServer({ env: { PUBLIC_URL: url } }));
    const [one, two] = await Promise.all(servers.map((s) => fresh('GET', `${s.url}/nodes`)));
    assert.equal(one!.text, '[]');
    assert.equal(two!.text, '[]');
    assert.notEqual(one!.etag, two!.etag);
    assert.equal((await fresh('GET', `${servers[1]!.url}/nodes`, { headers: { 'if-none-match': one!.etag! } })).status, 200);
  });
});
