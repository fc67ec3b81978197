import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { get, patch, post } from '../helpers/http.js';
import { linesOf, manifestOf, registrationOf, until } from '../helpers/federation.js';
import { startServer, type RunningServer } from '../helpers/server.js';

/**
 * rest-contract §13: an instance reports its registration (manifests kept as writes happen) to
 * each upstream lookup at start and every period, with UNIS's headers.
 */
describe('reporting upstream: registrations with manifests (rest-contract §13)', function () {
  let lookup: RunningServer;
  let site: RunningServer;
  let received: { headers: IncomingHttpHeaders; body: string }[];
  let capture: Server;
  let captureUrl: string;

  before(async () => {
    received = [];
    capture = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(201, { 'Content-Type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => capture.listen(0, '127.0.0.1', resolve));
    captureUrl = `http://127.0.0.1:${(capture.address() as AddressInfo).port}`;
    lookup = await startServer();
    site = await startServer({
      env: {
        // An unreachable upstream beside the two: a warn line, and the others still get reports.
        REGISTER_URLS: `${lookup.url},${captureUrl},http://127.0.0.1:9`,
        REGISTER_COMMUNITIES: 'alpha,beta',
        REGISTER_INTERVAL_MS: '200',
        REGISTER_MANIFEST_LIMIT: '2',
        REGISTER_TOKEN: 'upstream-secret',
      },
    });
  });
  after(async () => {
    await site?.stop();
    await lookup?.stop();
    capture?.close();
  });

  it('reports at start, with UNIS headers, ttl twice the period, and its communities', async () => {
    const registration = await registrationOf(lookup, site.url);
    assert.deepEqual(registration.communities, ['alpha', 'beta']);
    assert.equal(registration.ttl, 1);
    assert.equal(registration.properties.depth, 0);
    const report = await until('a report at the capture server', async () => received[0]);
    assert.match(String(report.headers['content-type']), /^application\/perfsonar\+json;profile=http:\/\/unis\.crest\.iu\.edu\/schema\/20160630\/service#$/);
    assert.equal(report.headers.authorization, 'Bearer upstream-secret');
    assert.equal(JSON.parse(report.body).accessPoint, site.url);
  });

  it('keeps each collection\'s value sets as writes happen, "*" past the limit', async () => {
    for (const node of [
      { id: 'n1', name: 'n1', properties: { geni: { slice: 's1' } }, lifetimes: [{ start: 'a', end: 'b' }] },
      { name: 'n2', properties: { geni: { slice: 's1' } } },
    ]) assert.equal((await post(`${site.url}/nodes`, node)).status, 201);
    const two = await registrationOf(lookup, site.url, (r) => (manifestOf(r, 'nodes')?.name as unknown[] | undefined)?.length === 2);
    const nodes = manifestOf(two, 'nodes')!;
    assert.deepEqual(nodes.name, ['"n1"', '"n2"'].map((v) => JSON.parse(v)));
    assert.deepEqual(nodes['properties.geni.slice'], ['s1']);
    assert.deepEqual(nodes['lifetimes.start'], ['a']);
    assert.equal(nodes.id, undefined);
    assert.equal(nodes.ts, undefined);
    assert.equal(manifestOf(two, 'register'), undefined);

    assert.equal((await post(`${site.url}/nodes`, { name: 'n3' })).status, 201);
    const past = await registrationOf(lookup, site.url, (r) => manifestOf(r, 'nodes')?.name === '*');
    assert.deepEqual(manifestOf(past, 'nodes')!['properties.geni.slice'], ['s1']);
    // A new version (PATCH: an update of the current row) adds its values too.
    assert.equal((await patch(`${site.url}/nodes/n1`, { properties: { geni: { slice: 's2' } } })).status, 200);
    const patched = await registrationOf(lookup, site.url, (r) => (manifestOf(r, 'nodes')?.['properties.geni.slice'] as unknown[] | undefined)?.length === 2);
    assert.deepEqual(manifestOf(patched, 'nodes')!['properties.geni.slice'], ['s1', 's2']);
  });

  it('reports again each period; an unreachable upstream is a warn line each period, and requests are answered', async () => {
    const first = await registrationOf(lookup, site.url);
    const later = await registrationOf(lookup, site.url, (r) => r.ts > first.ts);
    assert.equal(later.id, first.id);
    await until('two warnings about the unreachable upstream', async () => (linesOf(site, 'upstream unreachable; reporting again next period').length >= 2 ? true : undefined));
    const warn = linesOf(site, 'upstream unreachable; reporting again next period')[0]!;
    assert.equal(warn.level, 40);
    assert.equal(warn.upstream, 'http://127.0.0.1:9');
    assert.equal((await get(`${site.url}/nodes?name=n1`)).body.length, 1);
    assert.equal((await get(`${lookup.url}/register?accessPoint=${encodeURIComponent(site.url)}`)).body.length, 1);
  });
});

describe('several processes of one instance on one database: one registration (rest-contract §13)', function () {
  let lookup: RunningServer;
  let first: RunningServer;
  let second: RunningServer;
  before(async () => {
    lookup = await startServer();
    const env = { REGISTER_URLS: lookup.url, REGISTER_INTERVAL_MS: '200', PUBLIC_URL: 'http://site.example:8888' };
    first = await startServer({ env });
    second = await startServer({ env, database: first.database });
  });
  after(async () => {
    await second?.stop();
    await first?.stop();
    await lookup?.stop();
  });

  it('both report the same registration, as new versions of it', async () => {
    await post(`${first.url}/nodes`, { name: 'from-first' });
    await post(`${second.url}/nodes`, { name: 'from-second' });
    const registration = await registrationOf(lookup, 'http://site.example:8888', (r) => (manifestOf(r, 'nodes')?.name as unknown[] | undefined)?.length === 2);
    assert.deepEqual(manifestOf(registration, 'nodes')!.name, ['from-first', 'from-second']);
    const versions = await until('reports of both processes', async () => {
      const all = await get(`${lookup.url}/register/${registration.id}?ts=gt=0`);
      return all.body.length >= 4 ? all.body : undefined;
    });
    assert.ok(versions.every((v: { id: string }) => v.id === registration.id));
    const all = await get(`${lookup.url}/register`);
    assert.equal(all.body.length, 1, all.text);
  });
});
