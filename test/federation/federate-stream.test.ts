import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hashToken } from '../../server/tokens.js';
import { post } from '../helpers/http.js';
import { checkAnswer } from '../helpers/openapi.js';
import { registrationOf } from '../helpers/federation.js';
import { startServer, type RunningServer } from '../helpers/server.js';

/** Each instance reports every 2 s (ttl 4 s): a loaded machine's late report does not expire it mid-test (with 200 ms, the ttl is 1 s). */
const REPORT_EVERY_MS = '2000';

interface Node {
  id: string;
  ts: number;
  name: string;
  selfRef: string;
  properties?: { group?: unknown };
}

async function ask(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Node[]; partial: string | null }> {
  const answer = await fetch(url, { headers });
  const text = await answer.text();
  checkAnswer({ method: 'GET', url, status: answer.status, contentType: answer.headers.get('content-type'), requestId: answer.headers.get('x-request-id'), text });
  return { status: answer.status, body: JSON.parse(text) as Node[], partial: answer.headers.get('federation-partial') };
}

/** Sort values of every kind an instance orders: missing and null, numbers and booleans, text (bytewise: `a\uffff` before an emoji, unlike UTF-16). */
const GROUPS: unknown[] = [undefined, null, 3, 10, -1.5, 0, true, false, 'b', 'B', 'é', '😀', 'a\uffff', ''];

/** `count` nodes named `<prefix><i>` with the groups in turn. */
function nodes(prefix: string, count: number): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => {
    const group = GROUPS[(i * 7) % GROUPS.length];
    return { name: `${prefix}${String(i).padStart(5, '0')}`, ...(group === undefined ? {} : { properties: { group } }) };
  });
}

async function store(server: RunningServer, items: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < items.length; i += 500) {
    const answer = await post(`${server.url}/nodes`, items.slice(i, i + 500));
    assert.equal(answer.status, 201, answer.text.slice(0, 300));
  }
}

/**
 * rest-contract §13, beyond UNIS: the merged list of `federate=true`, streamed, is the list one
 * instance holding every element would answer (its database's order is the reference), and the
 * paging applies to the merged list.
 */
describe('federate=true streamed: a big merge in the instances\' own order (rest-contract §13)', function () {
  const perInstance = 1_500;
  let lookup: RunningServer;
  let a: RunningServer;
  let b: RunningServer;
  /** Holds every node of a and b, registered nowhere: its lists are what the merge must give. */
  let reference: RunningServer;
  before(async () => {
    lookup = await startServer({ env: { LOOKUP: 'true', FEDERATE_TIMEOUT_MS: '30000' } });
    const env = { REGISTER_URLS: lookup.url, REGISTER_INTERVAL_MS: REPORT_EVERY_MS };
    [a, b, reference] = await Promise.all([startServer({ env }), startServer({ env }), startServer()]);
    const [ofA, ofB] = [nodes('a', perInstance), nodes('b', perInstance)];
    await Promise.all([store(a, ofA), store(b, ofB), store(reference, [...ofA, ...ofB])]);
    await registrationOf(lookup, a.url, (r) => r.properties.summary.some((m) => m.$collection === 'nodes'));
    await registrationOf(lookup, b.url, (r) => r.properties.summary.some((m) => m.$collection === 'nodes'));
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop(), reference?.stop()]);
    await lookup?.stop();
  });

  const cases: [string, string][] = [
    ['every kind of value, ascending, then a second key', 'sort=properties.group:1,name:-1'],
    ['descending: missing values last', 'sort=properties.group:-1,name:1'],
    ['skip and limit over the merged list', 'sort=properties.group:1,name:1&skip=700&limit=1100'],
    ['skip alone', 'sort=name:-1&skip=2950'],
    ['a limit past the end', 'sort=name:1&limit=5000'],
    ['limit=0: no limit', 'sort=name:1&limit=0'],
    ['limit=0 and skip', 'sort=name:1&limit=0&skip=2990'],
    ['a condition', 'sort=properties.group:1,name:1&properties.group=b,10,é'],
  ];
  for (const [name, given] of cases) {
    it(`${given}: ${name}`, async () => {
      const [merged, want] = await Promise.all([ask(`${lookup.url}/nodes?federate=true&${given}`), ask(`${reference.url}/nodes?${given}`)]);
      assert.equal(merged.status, 200);
      assert.equal(merged.partial, null);
      assert.deepEqual(merged.body.map((n) => n.name), want.body.map((n) => n.name));
    });
  }

  // Revised 2026-11-29 (rest-contract §13): newest first, like every list (was ts then id ascending).
  it('no sort: the default order, newest first (ts then id, descending), over the merged list', async () => {
    const merged = await ask(`${lookup.url}/nodes?federate=true`);
    assert.equal(merged.partial, null);
    assert.equal(merged.body.length, 2 * perInstance);
    for (let i = 1; i < merged.body.length; i++) {
      const [p, n] = [merged.body[i - 1]!, merged.body[i]!];
      assert.ok(p.ts > n.ts || (p.ts === n.ts && p.id >= n.id), `${p.name} (${p.ts}) before ${n.name} (${n.ts})`);
    }
    assert.ok(merged.body.some((n) => n.selfRef.startsWith(a.url)) && merged.body.some((n) => n.selfRef.startsWith(b.url)));
  });
});

/**
 * An instance whose list breaks off after the answer started cannot be named in a header any
 * more: the merged answer is cut off, so the client sees an error, not a list missing elements.
 */
describe('federate=true: an instance that breaks off mid-list (rest-contract §13, docs/federation.md)', function () {
  let lookup: RunningServer;
  let a: RunningServer;
  let breaking: Server;
  before(async () => {
    // An instance that answers the start of a list, then drops the connection.
    breaking = createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.write('[{"id":"x0","ts":1,"name":"0"},');
      setImmediate(() => response.destroy());
    });
    await new Promise<void>((resolve) => breaking.listen(0, '127.0.0.1', resolve));
    const breakingUrl = `http://127.0.0.1:${(breaking.address() as AddressInfo).port}`;
    lookup = await startServer({ env: { LOOKUP: 'true' } });
    a = await startServer({ env: { REGISTER_URLS: lookup.url, REGISTER_INTERVAL_MS: REPORT_EVERY_MS } });
    await store(a, nodes('a', 3));
    await registrationOf(lookup, a.url, (r) => r.properties.summary.some((m) => m.$collection === 'nodes'));
    const registered = await post(`${lookup.url}/register`, { accessPoint: breakingUrl, ttl: 3600, properties: { summary: [{ $collection: 'nodes', properties: { name: '*' } }] } });
    assert.equal(registered.status, 201, registered.text);
  });
  after(async () => {
    await a?.stop();
    await lookup?.stop();
    breaking?.closeAllConnections();
    breaking?.close();
  });

  it('the answer is cut off: reading it fails (before its head, or after: the merged page is 64 KiB at a time)', async () => {
    await assert.rejects(async () => {
      const answer = await fetch(`${lookup.url}/nodes?federate=true&sort=name`);
      await answer.text();
    });
    // The lookup goes on answering.
    assert.equal((await fetch(`${lookup.url}/nodes?name=a00000`)).status, 200);
  });
});

/**
 * rest-contract §13 with tokens (§8): the lookup passes the caller's Authorization on to the
 * registered instances, so instances that need a token for reads answer the federated query
 * as they would answer the caller.
 */
describe('federate=true with tokens: the caller\'s credentials reach the instances (rest-contract §8, §13)', function () {
  const tokens = { reporter: 'reporter-token-0123456789', reader: 'reader-token-0123456789', writer: 'writer-token-0123456789' };
  const configured = JSON.stringify({
    tokens: [
      { name: 'reporter', hash: hashToken(tokens.reporter), scopes: ['register'] },
      { name: 'reader', hash: hashToken(tokens.reader), scopes: ['read'] },
      { name: 'writer', hash: hashToken(tokens.writer), scopes: ['read', 'create'] },
    ],
  });
  let lookup: RunningServer;
  let a: RunningServer;
  let b: RunningServer;
  before(async () => {
    lookup = await startServer({ env: { LOOKUP: 'true', TOPOCAT_TOKENS: configured } });
    const env = { TOPOCAT_TOKENS: configured, REGISTER_URLS: lookup.url, REGISTER_INTERVAL_MS: REPORT_EVERY_MS, REGISTER_TOKEN: tokens.reporter };
    [a, b] = await Promise.all([startServer({ env }), startServer({ env })]);
    const write = { Authorization: `Bearer ${tokens.writer}` };
    assert.equal((await post(`${a.url}/nodes`, { name: 'a1' }, write)).status, 201);
    assert.equal((await post(`${b.url}/nodes`, { name: 'b1' }, write)).status, 201);
    const read = async (accessPoint: string) => {
      for (;;) {
        const answer = await ask(`${lookup.url}/register?accessPoint=${encodeURIComponent(accessPoint)}`, { Authorization: `Bearer ${tokens.reader}` });
        if (answer.body.length === 1 && JSON.stringify(answer.body).includes('"$collection":"nodes"')) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    await Promise.all([read(a.url), read(b.url)]);
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await lookup?.stop();
  });

  it('a reader\'s token: every instance answers, nothing partial', async () => {
    const answer = await ask(`${lookup.url}/nodes?federate=true&sort=name`, { Authorization: `Bearer ${tokens.reader}` });
    assert.equal(answer.status, 200);
    assert.equal(answer.partial, null);
    assert.deepEqual(answer.body.map((n) => n.name), ['a1', 'b1']);
  });

  it('no token: the lookup itself refuses (401)', async () => {
    assert.equal((await fetch(`${lookup.url}/nodes?federate=true`)).status, 401);
  });
});
