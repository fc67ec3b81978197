import assert from 'node:assert/strict';
import { hashToken } from '../../server/tokens.js';
import { request } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';

const APP = 'https://app.example.org';
const TOKEN = 'tc_cors-secret-000000000000000000000000000000000';
const TOKENS = JSON.stringify({ tokens: [{ name: 'page', hash: hashToken(TOKEN), scopes: ['read', 'create', 'update'] }] });

/** CORS: browser pages of the configured origins may use the REST interface; no other origin may. */
describe('CORS', function () {
  let open: RunningServer;
  let allowing: RunningServer;
  before(async () => {
    [open, allowing] = await Promise.all([startServer(), startServer({ env: { CORS_ORIGINS: `${APP} http://localhost:3000`, TOPOCAT_TOKENS: TOKENS } })]);
  });
  after(async () => {
    await Promise.all([open?.stop(), allowing?.stop()]);
  });

  const preflight = (origin: string, method: string) => ({
    origin,
    'access-control-request-method': method,
    'access-control-request-headers': 'authorization,content-type,if-match',
  });

  const cases: [string, { server: () => RunningServer; method: string; path: string; headers: Record<string, string>; want: { status: number; allowOrigin: string | null } }][] = [
    ['no origin is allowed by default', { server: () => open, method: 'GET', path: '/nodes', headers: { origin: APP }, want: { status: 200, allowOrigin: null } }],
    ['a configured origin reads a list', { server: () => allowing, method: 'GET', path: '/nodes', headers: { origin: APP, authorization: `Bearer ${TOKEN}` }, want: { status: 200, allowOrigin: APP } }],
    ['a preflight for a conditional PATCH needs no token', { server: () => allowing, method: 'OPTIONS', path: '/nodes/x', headers: preflight(APP, 'PATCH'), want: { status: 204, allowOrigin: APP } }],
    ['another origin gets no CORS headers', { server: () => allowing, method: 'GET', path: '/nodes', headers: { origin: 'https://evil.example.com', authorization: `Bearer ${TOKEN}` }, want: { status: 200, allowOrigin: null } }],
    ['an error answer keeps the CORS headers, so the page can read it', { server: () => allowing, method: 'GET', path: '/nodes', headers: { origin: APP }, want: { status: 401, allowOrigin: APP } }],
  ];
  for (const [name, { server, method, path, headers, want }] of cases) {
    it(name, async () => {
      const answer = await request(method, `${server().url}${path}`, { headers });
      assert.equal(answer.status, want.status);
      assert.equal(answer.headers.get('access-control-allow-origin'), want.allowOrigin);
    });
  }

  it('a preflight allows the methods and headers a client sends; answers expose ETag and Location', async () => {
    const answer = await request('OPTIONS', `${allowing.url}/nodes/x`, { headers: preflight('http://localhost:3000', 'PUT') });
    assert.match(answer.headers.get('access-control-allow-methods') ?? '', /PATCH/);
    assert.match(answer.headers.get('access-control-allow-headers') ?? '', /if-match/);
    const created = await request('POST', `${allowing.url}/nodes`, { body: { name: 'from a page' }, headers: { origin: APP, authorization: `Bearer ${TOKEN}` } });
    assert.equal(created.status, 201);
    assert.match(created.headers.get('access-control-expose-headers') ?? '', /ETag.*Location/);
  });

  it('refuses a CORS_ORIGINS entry that is not an origin', async () => {
    await assert.rejects(startServer({ env: { CORS_ORIGINS: 'https://app.example.org/path' } }), /CORS_ORIGINS: "https:\/\/app.example.org\/path" is not an origin/);
  });
});
