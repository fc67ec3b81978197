import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { hashToken } from '../../server/tokens.js';
import { get, post, request } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';

/**
 * What openapi.json promises, held against the server that serves it (issue: "an API
 * description that third-party tools can trust"). Every answer of these requests also goes
 * through the suite's checker of answers against the description (test/helpers/openapi.ts).
 */
describe('openapi.json tells the truth', function () {
  let server: RunningServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.stop();
  });

  it('406 on POST, PUT and PATCH with an Accept the server cannot answer, as described', async () => {
    const created = (await post(`${server.url}/nodes`, { name: 'n' })).body;
    for (const [method, url] of [['POST', `${server.url}/nodes`], ['PUT', created.selfRef], ['PATCH', created.selfRef]] as const) {
      const answer = await request(method, url, { body: { name: 'm' }, headers: { accept: 'text/html', ...(method === 'PATCH' ? { 'content-type': 'application/merge-patch+json' } : {}) } });
      assert.equal(answer.status, 406, `${method}: ${answer.text}`);
    }
  });

  it('HEAD of a list sends no Content-Length (its GET has a body of unknown length); HEAD of a resource the true one', async () => {
    const created = (await post(`${server.url}/nodes`, { name: 'h' })).body;
    const head = (target: string): Promise<Record<string, string | string[] | undefined>> =>
      new Promise((resolve, reject) => {
        const outgoing = httpRequest(`${server.url}${target}`, { method: 'HEAD', agent: false }, (response) => {
          response.resume();
          response.on('end', () => resolve(response.headers));
        });
        outgoing.on('error', reject);
        outgoing.end();
      });
    assert.equal((await head('/nodes'))['content-length'], undefined);
    assert.equal((await head('/nodes?name=nothing'))['content-length'], undefined);
    const one = await get(created.selfRef);
    assert.equal((await head(`/nodes/${created.id}`))['content-length'], String(Buffer.byteLength(one.text)));
  });

  it('a touch is a body of id, ts, $schema and selfRef only, as the PUT description says', async () => {
    const created = (await post(`${server.url}/nodes`, { name: 't' })).body;
    const touched = await request('PUT', created.selfRef, { body: { id: created.id, selfRef: created.selfRef } });
    assert.equal(touched.status, 201, touched.text);
    assert.equal(touched.body.name, 't');
  });

  it('without tokens, credentials are optional', async () => {
    const served = (await get(`${server.url}/openapi.json`)).body;
    assert.deepEqual(served.security, [{}, { bearer: [] }]);
    assert.equal(served.paths['/nodes'].get.security, undefined);
  });
});

describe('openapi.json of a server with tokens', function () {
  let server: RunningServer;
  before(async () => {
    const tokens = [{ name: 'reader', hash: hashToken('tc_desc-reader-00000000000000000000000000000000'), scopes: ['read'] }];
    server = await startServer({ env: { TOPOCAT_TOKENS: JSON.stringify({ tokens }) } });
  });
  after(async () => {
    await server.stop();
  });

  it('requires credentials and names the scope of each operation, discovery open', async () => {
    const served = (await get(`${server.url}/openapi.json`)).body;
    assert.deepEqual(served.security, [{ bearer: [] }]);
    const want: [string, string, string[] | undefined][] = [
      ['/nodes', 'get', ['read']],
      ['/nodes', 'head', ['read']],
      ['/nodes', 'post', ['create']],
      ['/nodes/{id}', 'put', ['update']],
      ['/nodes/{id}', 'patch', ['update']],
      ['/nodes/{id}', 'delete', ['delete']],
      ['/data', 'post', ['create']],
      ['/health', 'get', undefined],
      ['/openapi.json', 'get', undefined],
    ];
    for (const [template, method, scopes] of want) {
      const security = served.paths[template][method].security as { bearer: string[] }[];
      assert.deepEqual(security, scopes === undefined ? [] : [{ bearer: scopes }], `${method} ${template}`);
    }
    // The server agrees: without credentials, a described-open path answers and a scoped one is 401.
    assert.equal((await get(`${server.url}/health`)).status, 200);
    assert.equal((await get(`${server.url}/nodes`)).status, 401);
  });
});
