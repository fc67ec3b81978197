import assert from 'node:assert/strict';
import { selfRefSegment } from '../../server/storage/id-segment.js';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { del, get, patch, post, put, request, type Answer } from '../helpers/http.js';
import { distRoot, startServer, type RunningServer } from '../helpers/server.js';

/** The address both servers answer under: the round trip keeps every selfRef and href as it was. */
const PUBLIC_URL = 'http://topocat.example:8080';
const UNIS_NODE = 'http://unis.crest.iu.edu/schema/20160630/node#';
const main = path.join(distRoot, 'server/main.js');

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `npm start -- <args>` as the built entry runs it, on `database`, with PUBLIC_URL unless `env` says otherwise (`{}`: none). */
function command(args: readonly string[], database: TestDatabase, env: Record<string, string> = { PUBLIC_URL }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [main, ...args], { env: { PATH: process.env.PATH ?? '', DATABASE_URL: database.url, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

type Doc = Record<string, unknown>;

/** The lines of one exported file, parsed. */
async function lines(folder: string, collection: string): Promise<Doc[]> {
  const text = await readFile(path.join(folder, `${collection}.json`), 'utf8');
  return text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Doc);
}

/**
 * `npm run export -- --to <dir>` (docs/moving-from-unis.md, "Export back to UNIS"): a server
 * filled through REST is exported; the files are checked as UNIS stores documents; the folder
 * imported into an empty database gives a second server that answers every query as the first.
 */
describe('export back to UNIS', function () {
  this.timeout(180_000);
  let source: RunningServer;
  let dir: string;
  let folder: string;
  /** The ts of every version written, by `<collection>/<id>` (deletions aside). */
  const written = new Map<string, number[]>();
  const wrote = (collection: string, id: string, answer: Answer, ts = answer.body?.ts as number): void => {
    assert.ok(answer.status < 300, answer.text);
    (written.get(`${collection}/${id}`) ?? written.set(`${collection}/${id}`, []).get(`${collection}/${id}`)!).push(ts);
  };
  /** Instants between the writes, for `?at=`. */
  const instants: number[] = [];
  const mark = (): number => instants[instants.push(Date.now() * 1000) - 1]!;

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'topocat-export-'));
    folder = path.join(dir, 'unis');
    source = await startServer({ env: { PUBLIC_URL } });
    const at = (collection: string, id = ''): string => `${source.url}/${collection}${id === '' ? '' : `/${encodeURIComponent(id)}`}`;
    const tsOf = async (collection: string, id: string): Promise<number> => (await get(at(collection, id))).body.ts as number;

    wrote('nodes', 'n1', await post(at('nodes'), { id: 'n1', name: 'first', properties: { 'a.b': 1, nested: { 'x.y': 'z', $ref: 'kept' } } }));
    mark();
    // A re-POST of the same id: a new version.
    wrote('nodes', 'n1', await post(at('nodes'), { id: 'n1', name: 'again', properties: { 'a.b': 2 } }));
    wrote('nodes', 'n1', await put(at('nodes', 'n1'), { id: 'n1', name: 'put', description: 'replaced' }));
    mark();
    wrote('nodes', 'n1', await patch(at('nodes', 'n1'), { description: 'patched' }));
    wrote('nodes', 'n2', await post(at('nodes'), { id: 'n2', name: 'to delete' }));
    mark();
    assert.equal((await del(at('nodes', 'n2'))).status, 204);
    mark();
    // Created again after its deletion.
    wrote('nodes', 'n2', await post(at('nodes'), { id: 'n2', name: 'back' }));
    // A UNIS $schema, kept as sent.
    wrote('nodes', 'u1', await post(at('nodes'), { $schema: UNIS_NODE, id: 'u1', name: 'unis' }, { 'content-type': 'application/perfsonar+json' }));
    wrote('nodes', 'odd:id.v1~', await post(at('nodes'), { id: 'odd:id.v1~', name: 'encoded' }));
    mark();
    // Composite: a topology with embedded nodes, ports and a link, stored as resources of their own.
    const topology = await post(at('topologies'), {
      id: 't1',
      name: 'composite',
      nodes: [
        { id: 'cn1', name: 'c1', ports: [{ id: 'cn1:p0', name: 'p0' }] },
        { id: 'cn2', name: 'c2', ports: [{ id: 'cn2:p0', name: 'p0' }] },
      ],
      links: [{ id: 'cl1', directed: false, endpoints: [{ href: '#/nodes/0/ports/0', rel: 'full' }, { href: '#/nodes/1/ports/0', rel: 'full' }] }],
    });
    assert.equal(topology.status, 201, topology.text);
    for (const [collection, id] of [['topologies', 't1'], ['nodes', 'cn1'], ['nodes', 'cn2'], ['ports', 'cn1:p0'], ['ports', 'cn2:p0'], ['links', 'cl1']] as const) {
      wrote(collection, id, { status: 201 } as Answer, await tsOf(collection, id));
    }
    mark();
    // A series with its points.
    wrote('metadata', 'm1', await post(at('metadata'), { id: 'm1', subject: { href: `${PUBLIC_URL}/nodes/n1`, rel: 'full' }, eventType: 'cpu.utilization' }));
    const registered = await post(at('events'), { metadata_URL: `${PUBLIC_URL}/metadata/m1`, collection_size: 1000, ttl: 0 });
    assert.equal(registered.status, 201, registered.text);
    const appended = await post(at('data', 'm1'), { data: [1, 2, 3, 4.5].map((ts) => ({ ts, value: ts * 10, 'unit.name': 'percent' })) });
    assert.equal(appended.status, 201, appended.text);
    mark();

    const run = await command(['export', '--to', folder], source.database);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^file +as +written +resources +deletions$/m);
  });

  after(async () => {
    await source?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('writes one mongoexport file per collection, every version in (id, ts) order, as UNIS stores them', async () => {
    const files = (await readdir(folder)).sort();
    assert.ok(!files.some((f) => f.endsWith('.partial')), files.join(' '));
    for (const f of ['nodes.json', 'ports.json', 'links.json', 'topologies.json', 'metadata.json', 'events_cache.json', 'm1.json']) assert.ok(files.includes(f), `${f} in ${files.join(' ')}`);

    const nodes = await lines(folder, 'nodes');
    // (id, ts) order, ids as the database orders them: each resource's versions together, oldest first.
    const seen = new Set<string>();
    nodes.forEach((d, i) => {
      const previous = nodes[i - 1];
      if (previous !== undefined && previous.id === d.id) return assert.ok((d.ts as number) > (previous.ts as number), `${d.id as string}: ts ascending`);
      assert.ok(!seen.has(d.id as string), `${d.id as string}: its versions together`);
      seen.add(d.id as string);
    });
    // Every version written, and the deletion of n2 among them.
    for (const [key, versions] of written) {
      const [collection, id] = [key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1)];
      const exported = (await lines(folder, collection)).filter((d) => d.id === id && d['\\$status'] !== 'DELETED').map((d) => d.ts);
      assert.deepEqual(exported, versions, key);
    }
    for (const d of nodes) {
      assert.equal(d._id, `${d.id as string}:${d.ts as number}`);
      assert.equal(Object.keys(d)[0], '_id');
      // The id as UNIS wrote it in selfRef (`:` unencoded: rest-contract §3, revised 2026-11-29).
      assert.equal(d.selfRef, `${PUBLIC_URL}/nodes/${selfRefSegment(d.id as string)}`);
      assert.equal('$schema' in d, false, 'no key starts with $');
      assert.equal(typeof d['\\$schema'], 'string');
      assert.equal(typeof d.ts, 'number', 'ts as a plain number (relaxed Extended JSON)');
    }
    const n1 = nodes.filter((d) => d.id === 'n1');
    assert.equal(n1.length, 4);
    assert.deepEqual(n1[0]!.properties, { a$DOT$b: 1, nested: { x$DOT$y: 'z', '\\$ref': 'kept' } });
    assert.equal(n1[0]!['\\$schema'], `${PUBLIC_URL}/schema/20120709/node#`);
    assert.equal(n1[3]!.description, 'patched');
    // The deletion: a version of its own, as UNIS on MongoDB marks one.
    const n2 = nodes.filter((d) => d.id === 'n2');
    assert.deepEqual(n2.map((d) => d['\\$status'] ?? d.name), ['to delete', 'DELETED', 'back']);
    assert.deepEqual(Object.keys(n2[1]!), ['_id', 'id', 'ts', '\\$status', 'selfRef', '\\$schema']);
    assert.ok((n2[1]!.ts as number) > (n2[0]!.ts as number) && (n2[1]!.ts as number) < (n2[2]!.ts as number));
    assert.equal(nodes.find((d) => d.id === 'u1')!['\\$schema'], UNIS_NODE);
    // References as the service answers them.
    assert.deepEqual((await lines(folder, 'links'))[0]!.endpoints, [
      { href: `${PUBLIC_URL}/ports/cn1:p0`, rel: 'full' },
      { href: `${PUBLIC_URL}/ports/cn2:p0`, rel: 'full' },
    ]);

    const [registration, ...more] = await lines(folder, 'events_cache');
    assert.equal(more.length, 0);
    assert.deepEqual(Object.keys(registration!), ['_id', 'id', 'metadata_URL', 'collection_size', 'ttl', 'ts']);
    assert.equal(registration!._id, `m1:${registration!.ts as number}`);
    assert.equal(registration!.metadata_URL, `${PUBLIC_URL}/metadata/m1`);
    assert.equal(registration!.collection_size, 1000);
    assert.deepEqual(await lines(folder, 'm1'), [1, 2, 3, 4.5].map((ts) => ({ ts, value: ts * 10, unit$DOT$name: 'percent' })));
  });

  it('refuses a folder that holds files unless --force; --help; no --to', async () => {
    const refused = await command(['export', '--to', folder], source.database);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /holds files already .*add --force/);
    const other = path.join(dir, 'other');
    await rm(other, { recursive: true, force: true });
    await command(['export', '--to', other], source.database);
    await writeFile(path.join(other, 'nodes.json'), 'stale\n');
    const forced = await command(['export', '--to', other, '--force'], source.database);
    assert.equal(forced.code, 0, forced.stderr);
    assert.deepEqual(await readFile(path.join(other, 'nodes.json'), 'utf8'), await readFile(path.join(folder, 'nodes.json'), 'utf8'));
    const help = await command(['export', '--help'], source.database);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^usage: npm run export -- --to <dir>/);
    const none = await command(['export'], source.database);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /^error: --to is required/);
  });

  it('names a series whose mid cannot name its file, exports the rest, and exits 1', async () => {
    const server = await startServer({ env: { PUBLIC_URL } });
    try {
      assert.equal((await post(`${server.url}/metadata`, { id: 'nodes', subject: { href: `${PUBLIC_URL}/nodes/n1`, rel: 'full' }, eventType: 'cpu' })).status, 201);
      assert.equal((await post(`${server.url}/events`, { metadata_URL: `${PUBLIC_URL}/metadata/nodes`, collection_size: 10 })).status, 201);
      assert.equal((await post(`${server.url}/data/nodes`, { data: [{ ts: 1, value: 1 }] })).status, 201);
      const out = path.join(dir, 'clash');
      const run = await command(['export', '--to', out], server.database);
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stdout, /^not exported nodes: 1 point left out: nodes\.json holds the nodes collection$/m);
      assert.deepEqual(await lines(out, 'nodes'), []);
      assert.equal((await lines(out, 'events_cache')).length, 1);
    } finally {
      await server.stop();
    }
  });

  describe('round trip: the export imported into an empty database', () => {
    let copy: RunningServer;
    let database: TestDatabase;
    before(async () => {
      database = await createTestDatabase();
      const imported = await command(['import', '--from', folder], database);
      assert.equal(imported.code, 0, `${imported.stdout}\n${imported.stderr}`);
      assert.doesNotMatch(imported.stdout, /^refused/m);
      copy = await startServer({ database, env: { PUBLIC_URL } });
    });
    after(async () => {
      await copy?.stop();
      await database?.drop();
    });

    /** The same request to both servers: the same status, body bytes, and the headers a client can compare. */
    async function same(query: string, headers: Record<string, string> = {}): Promise<void> {
      const [a, b] = await Promise.all([request('GET', `${source.url}${query}`, { headers }), request('GET', `${copy.url}${query}`, { headers })]);
      assert.equal(b.status, a.status, `${query}: ${b.text}`);
      assert.equal(b.text, a.text, query);
      // A list's ETag is where the list stands in its database's event log (rest-contract §5,
      // added 2026-11-29): the copy holds the same rows at positions of its own.
      const list = /^\/[^/?]+(\?|$)/.test(query);
      for (const header of ['etag', 'last-modified', 'content-type', 'location']) if (!(list && header === 'etag')) assert.equal(b.headers.get(header), a.headers.get(header), `${query}: ${header}`);
    }

    it('answers every version (?ts=), every resource, every list, ?at= and ?since=0 alike', async () => {
      const collections = (await readdir(folder)).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5));
      let compared = 0;
      for (const collection of collections) {
        if (collection === 'events_cache' || collection === 'm1') continue;
        const documents = await lines(folder, collection);
        for (const d of documents) {
          const id = encodeURIComponent(d.id as string);
          await same(`/${collection}/${id}?ts=${d.ts as number}`);
          compared++;
        }
        for (const id of new Set(documents.map((d) => d.id as string))) {
          await same(`/${collection}/${encodeURIComponent(id)}`);
          await same(`/${collection}/${encodeURIComponent(id)}?ts=gt=0`);
          for (const at of instants) await same(`/${collection}/${encodeURIComponent(id)}?at=${at}`);
        }
        await same(`/${collection}`);
        await same(`/${collection}`, { accept: 'application/perfsonar+json' });
        await same(`/${collection}?since=0`);
        for (const at of instants) {
          await same(`/${collection}?at=${at}`);
          await same(`/${collection}?since=${at}`);
        }
      }
      assert.ok(compared >= 15, `${compared} versions compared`);
    });

    it('answers /events and /data alike', async () => {
      await same('/events');
      await same('/events/m1');
      await same('/data/m1');
      await same('/data/m1?sort=ts:1');
      await same('/data/m1', { accept: 'application/perfsonar+json' });
    });

    it('exports again what it was given, byte for byte', async () => {
      const again = path.join(dir, 'again');
      const run = await command(['export', '--to', again], database);
      assert.equal(run.code, 0, run.stderr);
      for (const file of await readdir(folder)) assert.equal(await readFile(path.join(again, file), 'utf8'), await readFile(path.join(folder, file), 'utf8'), file);
    });
  });

  describe('the base of an export (rest-contract §14, revised 2026-11-29)', () => {
    /** The base the service wrote under: not the export's shell's. */
    const WRITTEN = 'http://written.example:8080';
    const OTHER = 'https://moved.example';
    let server: RunningServer;
    before(async () => {
      server = await startServer({ env: { PUBLIC_URL: WRITTEN } });
      assert.equal((await post(`${server.url}/ports`, { id: 'p', name: 'p' })).status, 201);
      assert.equal((await post(`${server.url}/nodes`, { id: 'n', name: 'n', ports: [{ href: `${WRITTEN}/ports/p`, rel: 'full' }] })).status, 201);
    });
    after(async () => {
      await server?.stop();
    });

    /** Every selfRef and href of an export folder's resource files, by file. */
    async function addresses(out: string): Promise<string[]> {
      const found: string[] = [];
      const walk = (value: unknown): void => {
        if (Array.isArray(value)) return value.forEach(walk);
        if (value === null || typeof value !== 'object') return;
        for (const [k, v] of Object.entries(value)) {
          if ((k === 'href' || k === 'selfRef') && typeof v === 'string') found.push(v);
          else walk(v);
        }
      };
      for (const collection of ['nodes', 'ports']) (await lines(out, collection)).forEach(walk);
      return found;
    }

    it('without PUBLIC_URL, writes selfRefs under the base the hrefs were written with, and its import answers alike', async () => {
      const out = path.join(dir, 'no-public-url');
      const run = await command(['export', '--to', out], server.database, {});
      assert.equal(run.code, 0, run.stderr);
      const found = await addresses(out);
      assert.deepEqual(found.filter((a) => !a.startsWith(`${WRITTEN}/`)), [], 'every selfRef and href under one base');
      assert.ok(found.includes(`${WRITTEN}/nodes/n`) && found.includes(`${WRITTEN}/ports/p`), found.join(' '));
      assert.match(run.stderr, new RegExp(`selfRef and hrefs under ${WRITTEN.replace(/\./g, '\\.')} \\(recorded in the database\\)`));

      const database = await createTestDatabase();
      let copy: RunningServer | undefined;
      try {
        const imported = await command(['import', '--from', out], database, { PUBLIC_URL: WRITTEN });
        assert.equal(imported.code, 0, `${imported.stdout}\n${imported.stderr}`);
        copy = await startServer({ database, env: { PUBLIC_URL: WRITTEN } });
        const copyUrl = copy.url;
        for (const query of ['/nodes/n', '/ports/p', '/nodes', '/nodes/n?expand', '/ports']) {
          const a: Answer = await get(`${server.url}${query}`);
          const b: Answer = await get(`${copyUrl}${query}`);
          assert.equal(b.status, a.status, query);
          assert.equal(b.text, a.text, query);
        }
      } finally {
        await copy?.stop();
        await database.drop();
      }
    });

    it('refuses a PUBLIC_URL other than the recorded base, naming both and --base (exit 2)', async () => {
      const out = path.join(dir, 'other-public-url');
      const run = await command(['export', '--to', out], server.database, { PUBLIC_URL: OTHER });
      assert.equal(run.code, 2, run.stderr);
      assert.ok(run.stderr.includes(`PUBLIC_URL is ${OTHER}, but the hrefs of this database were written under ${WRITTEN}`), run.stderr);
      assert.ok(run.stderr.includes(`--base ${OTHER}`), run.stderr);
      assert.deepEqual(await readdir(out).catch(() => []), [], 'no file written');
    });

    it('with --base, moves every selfRef and href onto it; imported under that base, the references are the service\'s own', async () => {
      const out = path.join(dir, 'rebased');
      const run = await command(['export', '--to', out, '--base', `${OTHER}/`], server.database, { PUBLIC_URL: OTHER });
      assert.equal(run.code, 0, run.stderr);
      const found = await addresses(out);
      assert.deepEqual(found.filter((a) => !a.startsWith(`${OTHER}/`)), [], 'every selfRef and href under --base');
      assert.deepEqual((await lines(out, 'nodes'))[0]!.ports, [{ href: `${OTHER}/ports/p`, rel: 'full' }]);
      const database = await createTestDatabase();
      let copy: RunningServer | undefined;
      try {
        assert.equal((await command(['import', '--from', out], database, { PUBLIC_URL: OTHER })).code, 0);
        copy = await startServer({ database, env: { PUBLIC_URL: OTHER } });
        assert.equal((await get(`${copy.url}/nodes/n?expand`)).body.ports[0].id, 'p');
      } finally {
        await copy?.stop();
        await database.drop();
      }
      const bad = await command(['export', '--to', path.join(dir, 'bad-base'), '--base', 'ftp://x'], server.database, {});
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /^error: --base: must be an http or https URL/);
    });

    it('moves hrefs under an earlier base of the service onto the recorded one', async () => {
      const database = await createTestDatabase();
      const earlier = await startServer({ database, env: { PUBLIC_URL: WRITTEN } });
      try {
        assert.equal((await post(`${earlier.url}/ports`, { id: 'p', name: 'p' })).status, 201);
        assert.equal((await post(`${earlier.url}/nodes`, { id: 'old', ports: [{ href: `${WRITTEN}/ports/p`, rel: 'full' }] })).status, 201);
      } finally {
        await earlier.stop();
      }
      const later = await startServer({ database, env: { PUBLIC_URL: OTHER } });
      try {
        assert.equal((await post(`${later.url}/nodes`, { id: 'new', ports: [{ href: `${OTHER}/ports/p`, rel: 'full' }] })).status, 201);
      } finally {
        await later.stop();
      }
      try {
        const out = path.join(dir, 'two-bases');
        const run = await command(['export', '--to', out], database, {});
        assert.equal(run.code, 0, run.stderr);
        assert.deepEqual((await addresses(out)).filter((a) => !a.startsWith(`${OTHER}/`)), []);
        assert.match(run.stderr, /hrefs under http:\/\/written\.example:8080 \(earlier bases of this service\) moved onto it/);
      } finally {
        await database.drop();
      }
    });
  });
});
