import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BearerTokens } from '../../server/auth.js';
import type { Access } from '../../server/http/access-line.js';
import { directSoap } from '../../server/soap/direct.js';
import { hashToken } from '../../server/tokens.js';
import { engine } from '../helpers/database.js';
import { startServer, type LogLine, type RunningServer } from '../helpers/server.js';
import { eventually } from '../helpers/wait.js';

const DN = '/C=US/O=Example/CN=Direct';
const TOKEN = 'tc_direct-000000000000000000000000000000000';
const READ_ONLY = 'tc_direct-read-0000000000000000000000000000';
const USERNAME_NS = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wsswssecurity-secext-1.0.xsd';
const TYPES = 'http://www.cs.indiana.edu/dde/namespaces/2008/02/catalog/types';

const envelope = (body: string, header = `<Username xmlns="${USERNAME_NS}">${DN}</Username>`): string =>
  `<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Header>${header}</soap:Header><soap:Body>${body}</soap:Body></soap:Envelope>`;
const checkStatus = envelope(`<checkStatusRequest xmlns="${TYPES}"><errorDeliveryMethod>DIRECT</errorDeliveryMethod></checkStatusRequest>`);
const createUser = (dn: string) =>
  envelope(`<createUserRequest xmlns="${TYPES}"><catalogUser><userId>${dn}</userId></catalogUser><errorDeliveryMethod>DIRECT</errorDeliveryMethod></createUserRequest>`);
const XML = 'text/xml; charset=utf-8';

describe('which requests the SOAP path before Koa answers (in-process)', function () {
  let server: Server;
  let base: string;
  const logged: Access[] = [];

  before(async () => {
    const authenticator = new BearerTokens([{ name: 'direct', hash: hashToken(TOKEN), scopes: ['read'], dn: DN }]);
    // The exchange and Koa are played by handlers that say they were reached.
    const soap = directSoap({ path: '/catalog', authenticator, access: (a) => logged.push(a), exchange: async (_req, caller) => ({ status: 200, body: `direct ${caller.principal?.name ?? caller.credentialProblem ?? 'anonymous'}`, operation: 'checkStatus' }) });
    server = createServer((req, res) => {
      if (soap(req, res)) return;
      res.writeHead(299, { 'content-type': 'text/plain' });
      res.end('koa');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  const cases: [string, { method: string; path: string; headers?: Record<string, string>; want: string }][] = [
    ['POST of the catalog path', { method: 'POST', path: '/catalog', headers: { authorization: `Bearer ${TOKEN}` }, want: 'direct direct' }],
    ['without credentials (the exchange refuses them)', { method: 'POST', path: '/catalog', want: 'direct anonymous' }],
    ['an unknown token (the exchange refuses it)', { method: 'POST', path: '/catalog', headers: { authorization: 'Bearer tc_unknown' }, want: 'direct unknown token' }],
    ['a query string', { method: 'POST', path: '/catalog?x=1', want: 'koa' }],
    ['a trailing slash', { method: 'POST', path: '/catalog/', want: 'koa' }],
    ['GET ?wsdl', { method: 'GET', path: '/catalog?wsdl', want: 'koa' }],
    ['another path', { method: 'POST', path: '/catalogue', want: 'koa' }],
  ];
  for (const [name, { method, path, headers, want }] of cases) {
    it(`${name}: ${want.startsWith('direct') ? 'answered' : 'passed on to Koa'}`, async () => {
      const response = await fetch(`${base}${path}`, { method, headers: headers ?? {}, ...(method === 'POST' ? { body: '<x/>' } : {}) });
      assert.equal(await response.text(), want);
      if (want !== 'koa') assert.equal(response.headers.get('content-type'), XML);
    });
  }

  it('writes one access line per answer, with the operation', async () => {
    logged.length = 0;
    await (await fetch(`${base}/catalog`, { method: 'POST', headers: { 'x-request-id': 'line-1' }, body: '<x/>' })).text();
    const line = await eventually('the access line', () => logged[0]);
    assert.deepEqual({ ...line, ms: 0 }, { requestId: 'line-1', method: 'POST', path: '/catalog', status: 200, operation: 'checkStatus', ms: 0 });
  });
});

/**
 * SOAP calls are answered before Koa (server/soap/direct.ts) unless the URL has a query string
 * (or CORS is configured): both ways must give the same status, headers, body and access line.
 */
describe(`SOAP calls before Koa, the same as through it (${engine})`, function () {
  this.timeout(60_000);
  let server: RunningServer;

  before(async () => {
    const tokens = [
      { name: 'direct', hash: hashToken(TOKEN), scopes: ['read', 'create', 'update', 'delete', 'admin'], dn: DN },
      { name: 'read-only', hash: hashToken(READ_ONLY), scopes: ['read'], dn: DN },
    ];
    server = await startServer({ env: { TOPOCAT_TOKENS: JSON.stringify({ tokens }) } });
  });
  after(async () => {
    await server?.stop();
  });

  /** Everything of an answer but the headers that differ per request. */
  async function answerOf(path: string, headers: Record<string, string>, body: string): Promise<{ status: number; headers: [string, string][]; body: string }> {
    const response = await fetch(`${server.url}${path}`, { method: 'POST', headers, body });
    const kept = [...response.headers].filter(([name]) => name !== 'date');
    return { status: response.status, headers: kept, body: await response.text() };
  }

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const cases: [string, { headers: Record<string, string>; body: (i: number) => string; status: number }][] = [
    ['checkStatus', { headers: { ...bearer(TOKEN), 'content-type': XML }, body: () => checkStatus, status: 200 }],
    ['a write (createUser), each way a user of its own', { headers: { ...bearer(TOKEN), 'content-type': XML }, body: (i) => createUser(`/CN=user ${i}`), status: 200 }],
    ['no credentials: 401 with WWW-Authenticate', { headers: { 'content-type': XML }, body: () => checkStatus, status: 401 }],
    ['an unknown token: 401', { headers: { ...bearer('tc_unknown-0000000000000000000000000000'), 'content-type': XML }, body: () => checkStatus, status: 401 }],
    ['a scope the operation lacks: 401', { headers: { ...bearer(READ_ONLY), 'content-type': XML }, body: (i) => createUser(`/CN=refused ${i}`), status: 401 }],
    ['malformed XML: a Client fault', { headers: { ...bearer(TOKEN), 'content-type': XML }, body: () => '<soap:Envelope', status: 500 }],
    ['an unknown body element: a Client fault', { headers: { ...bearer(TOKEN), 'content-type': XML }, body: () => envelope('<nothing xmlns="urn:x"/>'), status: 500 }],
    ['SOAP 1.2: VersionMismatch', { headers: { ...bearer(TOKEN), 'content-type': 'application/soap+xml' }, body: () => checkStatus, status: 500 }],
    ['not XML: 415', { headers: { ...bearer(TOKEN), 'content-type': 'application/json' }, body: () => '{}', status: 415 }],
  ];
  for (const [i, [name, { headers, body, status }]] of cases.entries()) {
    it(`${name}: the same answer and access line either way`, async () => {
      const direct = await answerOf('/catalog', { ...headers, 'x-request-id': `direct-${i}` }, body(2 * i));
      const koa = await answerOf('/catalog?through=koa', { ...headers, 'x-request-id': `koa-${i}` }, body(2 * i + 1));
      assert.equal(direct.status, status);
      if (status === 401) assert.ok(direct.headers.some(([h, v]) => h === 'www-authenticate' && v === 'Bearer realm="topocat"'));
      const sameId = (a: typeof direct) => ({ ...a, headers: a.headers.map(([h, v]): [string, string] => [h, h === 'x-request-id' ? v.replace(/^\w+-/, '') : v]) });
      assert.deepEqual(sameId(direct), sameId(koa));
      const lines = await eventually('two access lines', () => {
        const found = [`direct-${i}`, `koa-${i}`].map((id) => server.logs.find((l: LogLine) => l.msg === 'request' && l.requestId === id));
        return found.every(Boolean) ? (found as LogLine[]) : undefined;
      });
      // Koa logs the query string of a 4xx; the rest must be the same.
      const comparable = (l: LogLine) => ({ ...l, requestId: undefined, time: undefined, ms: undefined, query: undefined });
      assert.deepEqual(comparable(lines[0]!), comparable(lines[1]!));
      assert.deepEqual(
        lines.map((l) => l.path),
        ['/catalog', '/catalog'],
      );
    });
  }
});
