import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { linesOf, manifestOf, registrationOf, storedManifests, until, type Registration } from '../helpers/federation.js';
import { del, patch, post, put } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';

/** Writes of every kind on `url`: a batch, a single POST, PUT, PATCH, DELETE. */
async function writeEverything(url: string, prefix: string): Promise<void> {
  const batch = Array.from({ length: 40 }, (_, i) => ({ id: `${prefix}-${i}`, name: `${prefix}-n${i % 3}`, description: `${prefix} node ${i}`, properties: { geni: { slice: `${prefix}-s${i % 2}` } } }));
  assert.equal((await post(`${url}/nodes`, batch)).status, 201);
  assert.equal((await post(`${url}/ports`, { name: `${prefix}-p` })).status, 201);
  assert.equal((await put(`${url}/nodes/${prefix}-1`, { name: `${prefix}-n0` })).status, 201);
  assert.equal((await patch(`${url}/nodes/${prefix}-0`, { properties: { geni: { slice: `${prefix}-s0` } } })).status, 200);
  assert.equal((await del(`${url}/nodes/${prefix}-39`)).status, 204);
}

/**
 * rest-contract §13 (revised 2026-11-28): manifests cost nothing where nothing reads them. An
 * instance that reports to no lookup keeps none; one restarted with an upstream builds them by a
 * scan before its first report, then keeps them as writes happen. The databases are read
 * directly, on both engines.
 */
describe('manifests only where a process reports upstream (rest-contract §13, revised 2026-11-28)', function () {
  let lookup: RunningServer;
  let capture: Server;
  let captureUrl: string;
  let received: Registration[];
  const started: RunningServer[] = [];
  const databases: TestDatabase[] = [];

  before(async () => {
    received = [];
    capture = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push(JSON.parse(body) as Registration);
        res.writeHead(201, { 'Content-Type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => capture.listen(0, '127.0.0.1', resolve));
    captureUrl = `http://127.0.0.1:${(capture.address() as AddressInfo).port}`;
    lookup = await startServer({ env: { LOOKUP: 'true' } });
  });
  after(async () => {
    for (const server of started.reverse()) await server.stop();
    await lookup?.stop();
    for (const database of databases) await database.drop();
    capture?.close();
  });

  async function start(database: TestDatabase, env: Record<string, string> = {}): Promise<RunningServer> {
    const server = await startServer({ database, env });
    started.push(server);
    return server;
  }

  it('an instance without federation configured keeps no manifest rows and no triggers after writes of every kind', async () => {
    const database = await createTestDatabase();
    databases.push(database);
    const plain = await start(database);
    await writeEverything(plain.url, 'plain');
    assert.deepEqual(await storedManifests(database), { rows: 0, triggers: 0 });
    await plain.stop();
  });

  it('a restart with an upstream builds them by a scan: its first report carries what was written before, and writes after are kept', async () => {
    const database = await createTestDatabase();
    databases.push(database);
    const plain = await start(database);
    await writeEverything(plain.url, 'before');
    await plain.stop();
    assert.deepEqual(await storedManifests(database), { rows: 0, triggers: 0 });

    const site = await start(database, { REGISTER_URLS: `${captureUrl},${lookup.url}`, REGISTER_INTERVAL_MS: '200', PUBLIC_URL: 'http://restarted.example:8080' });
    const first = await until('the first report', async () => received.find((r) => r.accessPoint === 'http://restarted.example:8080'));
    const nodes = manifestOf(first, 'nodes')!;
    assert.deepEqual(nodes.name, ['before-n0', 'before-n1', 'before-n2']);
    assert.deepEqual(nodes['properties.geni.slice'], ['before-s0', 'before-s1']);
    // 40 descriptions, past UNIS's limit of 10: any value.
    assert.equal(nodes.description, '*');
    assert.deepEqual(manifestOf(first, 'ports')!.name, ['before-p']);
    // Logged before the report is sent, but the log reaches the test by a pipe of its own.
    const built = await until('the scan\'s log line', async () => linesOf(site, 'manifests built by a scan of the stored resources')[0]);
    // The live resources: 40 nodes and a port, less the deleted node.
    assert.equal(built.documents, 40);

    assert.equal((await post(`${site.url}/nodes`, { name: 'after-n' })).status, 201);
    assert.equal((await post(`${site.url}/ports`, { name: 'after-p' })).status, 201);
    // A report after both writes (one between them would carry the first only).
    const later = await registrationOf(lookup, 'http://restarted.example:8080', (r) => (manifestOf(r, 'ports')?.name as unknown[] | undefined)?.includes('after-p') === true);
    assert.deepEqual(manifestOf(later, 'nodes')!.name, ['after-n', 'before-n0', 'before-n1', 'before-n2']);
    assert.deepEqual(manifestOf(later, 'ports')!.name, ['after-p', 'before-p']);
    const kept = await storedManifests(database);
    assert.ok(kept.rows > 0 && kept.triggers > 0, JSON.stringify(kept));
    await site.stop();

    // Reporting turned off again: the next start drops them, and writes add nothing.
    const again = await start(database);
    assert.equal(linesOf(again, 'manifests dropped: no process of this database reports upstream').length, 1);
    await writeEverything(again.url, 'again');
    assert.deepEqual(await storedManifests(database), { rows: 0, triggers: 0 });
    await again.stop();
  });

  it('a process without federation on a database a reporting process uses leaves them kept, and the reports carry its writes', async () => {
    const site = await startServer({ env: { REGISTER_URLS: lookup.url, REGISTER_INTERVAL_MS: '200', PUBLIC_URL: 'http://shared.example:8080' } });
    started.push(site);
    await registrationOf(lookup, 'http://shared.example:8080');
    const plain = await start(site.database);
    assert.equal(linesOf(plain, 'manifests kept: another process of this database reports upstream').length, 1);
    assert.equal((await post(`${plain.url}/nodes`, { name: 'via-plain' })).status, 201);
    const registration = await registrationOf(lookup, 'http://shared.example:8080', (r) => (manifestOf(r, 'nodes')?.name as unknown[] | undefined)?.includes('via-plain') === true);
    assert.deepEqual(manifestOf(registration, 'nodes')!.name, ['via-plain']);
  });
});
