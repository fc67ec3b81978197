import assert from 'node:assert/strict';
import { get, post, request } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';

/** Content types, profiles and schema addresses (docs/rest-interface.md). */
describe('REST media types', function () {
  let server: RunningServer;
  let nodes: string;
  before(async () => {
    server = await startServer();
    nodes = `${server.url}/nodes`;
  });
  after(async () => {
    await server.stop();
  });

  const accepted: [string, string][] = [
    ['topology+json with the profile', `application/topology+json; profile="{schema}/node#"`],
    ['topology+json without a profile', 'application/topology+json'],
    ['application/json', 'application/json; charset=utf-8'],
    ['perfsonar+json (UNIS clients)', 'application/perfsonar+json'],
  ];
  for (const [name, type] of accepted) {
    it(`accepts a body of ${name}`, async () => {
      const answer = await request('POST', nodes, { raw: '{"name":"m"}', headers: { 'content-type': type.replace('{schema}', `${server.url}/schema/20120709`) } });
      assert.equal(answer.status, 201, answer.text);
    });
  }

  /** Any other Content-Type on a body is a 415, whatever the body (rest-contract §2), decided before the body is read. */
  const refused: [string, { method: string; type: string; body: string }][] = [
    ['PUT of XML', { method: 'PUT', type: 'application/xml', body: '<node><name>x</name></node>' }],
    ['PUT of XML that happens to be JSON', { method: 'PUT', type: 'application/xml', body: '{"name":"x"}' }],
    ['PATCH of a JSON Patch', { method: 'PATCH', type: 'application/json-patch+json', body: '[{"op":"replace","path":"/name","value":"x"}]' }],
    ['PATCH of text', { method: 'PATCH', type: 'text/plain', body: 'name=x' }],
    ['POST of a form', { method: 'POST', type: 'application/x-www-form-urlencoded', body: 'name=x' }],
    ['PUT of merge-patch (PATCH only)', { method: 'PUT', type: 'application/merge-patch+json', body: '{"name":"x"}' }],
    ['PUT of a malformed type', { method: 'PUT', type: 'json', body: '{"name":"x"}' }],
  ];
  for (const [index, [name, { method, type, body }]] of refused.entries()) {
    it(`answers 415 to a ${name}`, async () => {
      const created = await post(nodes, { id: `media-refused-${index}`, name: 'before' });
      const url = method === 'POST' ? nodes : created.body.selfRef;
      const answer = await request(method, url, { raw: body, headers: { 'content-type': type } });
      assert.equal(answer.status, 415, answer.text);
      assert.equal(answer.body.error.details[0].path, 'Content-Type');
      assert.equal((await get(created.body.selfRef)).body.name, 'before', 'nothing was written');
    });
  }

  // Ours under any base gives ours; a UNIS address is kept as sent (§2, revised 2026-11-26).
  const schemas: [string, { given: string; want: string }][] = [
    ['our own address', { given: '{base}/schema/20120709/node#', want: '{base}/schema/20120709/node#' }],
    ['the canonical $id', { given: 'https://topocat.dev/schema/20120709/node#', want: '{base}/schema/20120709/node#' }],
    ['UNIS (incntre)', { given: 'http://unis.incntre.iu.edu/schema/20120709/node#', want: 'http://unis.incntre.iu.edu/schema/20120709/node#' }],
    ['UNIS (crest)', { given: 'http://unis.crest.iu.edu/schema/20120709/node', want: 'http://unis.crest.iu.edu/schema/20120709/node' }],
  ];
  for (const [name, { given, want }] of schemas) {
    it(`accepts $schema of ${name} and answers ${want}`, async () => {
      const answer = await post(nodes, { $schema: given.replace('{base}', server.url), name: 's' });
      assert.equal(answer.status, 201, answer.text);
      assert.equal(answer.body.$schema, want.replace('{base}', server.url));
    });
  }

  it('a body without $schema is of the collection kind', async () => {
    assert.equal((await post(`${server.url}/ports`, { capacity: 5 })).body.$schema, `${server.url}/schema/20120709/port#`);
  });

  it('answers application/json to a client that accepts only that', async () => {
    const answer = await get(nodes, { accept: 'application/json' });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('content-type'), 'application/json; charset=utf-8');
  });

  it('answers topology+json with the profile by default and to */*', async () => {
    for (const accept of ['application/topology+json', '*/*', 'application/*', 'application/json;q=0.5, application/topology+json']) {
      const answer = await get(nodes, { accept });
      assert.equal(answer.headers.get('content-type'), `application/topology+json; profile="${server.url}/schema/20120709/node#"`, accept);
    }
  });

  it('answers perfsonar+json to UNIS clients that ask for it', async () => {
    const answer = await get(nodes, { accept: 'application/perfsonar+json' });
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get('content-type')!, /^application\/perfsonar\+json/);
  });
});
