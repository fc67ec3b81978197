import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TopologyClient, UnauthorizedError } from '../../generated/client/rest.js';
import { hashToken } from '../../server/tokens.js';
import { get, post, request } from '../helpers/http.js';
import { run } from '../helpers/project.js';
import { projectRoot, startServer, type RunningServer } from '../helpers/server.js';

const TOKENS = {
  reader: 'tc_reader-secret-0000000000000000000000000000',
  writer: 'tc_writer-secret-0000000000000000000000000000',
  everything: 'tc_all-secret-000000000000000000000000000000000',
};
const configured = JSON.stringify({
  tokens: [
    { name: 'reader', hash: hashToken(TOKENS.reader), scopes: ['read'] },
    { name: 'writer', hash: hashToken(TOKENS.writer), scopes: ['read', 'create', 'update'] },
    { name: 'everything', hash: hashToken(TOKENS.everything), scopes: ['read', 'create', 'update', 'delete'] },
  ],
});
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Bearer tokens and scopes (docs/rest-interface.md). */
describe('authentication with bearer tokens', function () {
  let server: RunningServer;
  let nodes: string;
  before(async () => {
    server = await startServer({ env: { TOPOCAT_TOKENS: configured } });
    nodes = `${server.url}/nodes`;
  });
  after(async () => {
    await server.stop();
  });

  const refusals: [string, () => Promise<{ status: number; headers: Headers; body: any }>, RegExp][] = [
    ['no credentials', () => get(nodes), /read scope are required/],
    ['an unknown token', () => get(nodes, bearer('tc_not-a-configured-token')), /unknown token/],
    ['a token for another scheme', () => get(nodes, { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }), /Bearer/],
    ['a read token that creates', () => post(nodes, { name: 'x' }, bearer(TOKENS.reader)), /lack the create scope/],
    ['a read token that replaces', () => request('PUT', `${nodes}/x`, { body: {}, headers: bearer(TOKENS.reader) }), /lack the update scope/],
    ['a read token that patches', () => request('PATCH', `${nodes}/x`, { body: {}, headers: { ...bearer(TOKENS.reader), 'content-type': 'application/merge-patch+json' } }), /lack the update scope/],
    ['a token without delete that deletes', () => request('DELETE', `${nodes}/x`, { headers: bearer(TOKENS.writer) }), /lack the delete scope/],
  ];
  for (const [name, act, message] of refusals) {
    it(`answers 401 with WWW-Authenticate: Bearer to ${name}`, async () => {
      const answer = await act();
      assert.equal(answer.status, 401);
      assert.match(answer.headers.get('www-authenticate') ?? '', /^Bearer/);
      assert.match(answer.body.error.message, message);
    });
  }

  it('lets each scope do its operations', async () => {
    const created = await post(nodes, { name: 'scoped' }, bearer(TOKENS.writer));
    assert.equal(created.status, 201);
    assert.equal((await get(created.body.selfRef, bearer(TOKENS.reader))).status, 200);
    assert.equal((await request('PATCH', created.body.selfRef, { body: { name: 'b' }, headers: { ...bearer(TOKENS.writer), 'content-type': 'application/merge-patch+json' } })).status, 200);
    assert.equal((await request('DELETE', created.body.selfRef, { headers: bearer(TOKENS.everything) })).status, 204);
  });

  it('keeps health and discovery open', async () => {
    assert.equal((await get(`${server.url}/health`)).status, 200);
    assert.equal((await get(`${server.url}/openapi.json`)).status, 200);
    assert.equal((await get(`${server.url}/health`, bearer('tc_wrong'))).status, 200);
  });

  it('the generated client sends its token and raises UnauthorizedError', async () => {
    const client = new TopologyClient({ baseUrl: server.url, token: TOKENS.writer });
    const { value: node } = await client.nodes.create({ name: 'sdk' });
    assert.equal((await client.nodes.get(node.id!)).value.name, 'sdk');
    const anonymous = new TopologyClient({ baseUrl: server.url });
    await assert.rejects(anonymous.nodes.list(), UnauthorizedError);
  });

  it('does not log tokens', () => {
    const logged = JSON.stringify(server.logs);
    for (const token of Object.values(TOKENS)) assert.ok(!logged.includes(token));
  });
});

describe('npm run token and TOPOCAT_TOKENS_FILE', function () {
  this.timeout(60_000);
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'topocat-tokens-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('mints a token whose hash goes into the file, and the server accepts it', async () => {
    const file = path.join(dir, 'tokens.json');
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'server/token-cli.ts', '--name', 'ci', '--scopes', 'read,create', '--file', file], { cwd: projectRoot });
    const token = stdout.trim();
    assert.match(token, /^tc_[A-Za-z0-9_-]{43}$/);
    const stored = await readFile(file, 'utf8');
    assert.ok(!stored.includes(token), 'only the hash is stored');
    assert.match(stored, /"sha256:[0-9a-f]{64}"/);

    const server = await startServer({ env: { TOPOCAT_TOKENS_FILE: file } });
    try {
      assert.equal((await post(`${server.url}/ports`, { name: 'p' }, bearer(token))).status, 201);
      assert.equal((await post(`${server.url}/ports`, { name: 'p' })).status, 401);
    } finally {
      await server.stop();
    }
  });
});

describe('open mode', function () {
  it('is logged loudly on loopback', async () => {
    const server = await startServer();
    try {
      assert.ok(server.logs.some((l) => l.level === 40 && /OPEN MODE/.test(l.msg)));
    } finally {
      await server.stop();
    }
  });

  it('refuses to start on a non-loopback address without tokens', async () => {
    await assert.rejects(startServer({ env: { HOST: '0.0.0.0' } }), /exited with 2[\s\S]*ALLOW_OPEN_ACCESS/);
  });

  it('starts there when ALLOW_OPEN_ACCESS=true says it is meant', async () => {
    const server = await startServer({ env: { HOST: '0.0.0.0', ALLOW_OPEN_ACCESS: 'true' } });
    try {
      assert.equal((await get(`${server.url}/nodes`)).status, 200);
    } finally {
      await server.stop();
    }
  });
});
