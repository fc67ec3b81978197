import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { BSON } from 'bson';
import { createTestDatabase, engine, postgresUrl, withPostgres, type TestDatabase } from '../helpers/database.js';
import { get, post } from '../helpers/http.js';
import { projectRoot } from '../helpers/paths.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { importCommand, reportRow, startCommand, writeSource, type StoredCollection } from '../helpers/unis-registry.js';

/**
 * `npm run import` (rest-contract §14, docs/moving-from-unis.md) of a registry the real UNIS
 * server stored (test/fixtures/unis, made by running periscope-ps/unis with its in-memory layer:
 * see its README): in each form a UNIS database leaves, every version UNIS answered is answered
 * here with the same members, its references moved onto this service.
 */
const FIXTURES = path.join(projectRoot, 'test/fixtures/unis');
const PUBLIC = 'http://topocat.test:8080';
const JSON_ACCEPT = { Accept: 'application/json' };

type Doc = Record<string, unknown>;
interface Expected {
  readonly unis: { readonly baseUrl: string };
  readonly collections: Readonly<Record<string, readonly Doc[]>>;
  readonly data: Readonly<Record<string, { readonly cappedSize: number; readonly points: readonly Doc[] }>>;
  readonly events: { readonly stored: readonly Doc[] };
  readonly deleted: readonly { readonly collection: string; readonly id: string; readonly ts: number }[];
  readonly skipped: readonly string[];
}
const expected = JSON.parse(await readFile(path.join(FIXTURES, 'expected.json'), 'utf8')) as Expected;
const OLD = expected.unis.baseUrl;

/** `value` with every `href` and `selfRef` under UNIS's base moved onto ours, as the import does. */
function rebased(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rebased);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, (k === 'href' || k === 'selfRef') && typeof v === 'string' && v.startsWith(`${OLD}/`) ? PUBLIC + v.slice(OLD.length) : rebased(v)]));
}

interface Refused {
  readonly collection: string;
  readonly id: string;
}
const refused = (JSON.parse(await readFile(path.join(FIXTURES, 'expected.json'), 'utf8')) as { refusedByTopocat: Refused[] }).refusedByTopocat;

/**
 * A GET, checked against openapi.json (test/helpers/http.ts) unless its answer holds a document
 * the schemas refuse: imported all the same, it does not match the description, by design.
 */
async function read(url: string, collection: string, id?: string): Promise<{ status: number; body: any; text: string }> {
  if (!refused.some((r) => r.collection === collection && (id === undefined || r.id === id))) return get(url, JSON_ACCEPT);
  const response = await fetch(url, { headers: JSON_ACCEPT });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text), text };
}

const isDeleted = (collection: string, id: string): boolean => expected.deleted.some((d) => d.collection === collection && d.id === id);

/** The newest version of each live resource of a collection, as UNIS answered them. */
function newestOf(collection: string): Map<string, Doc> {
  const newest = new Map<string, Doc>();
  for (const doc of expected.collections[collection]!) {
    const id = doc.id as string;
    if (isDeleted(collection, id)) continue;
    if (!newest.has(id) || (newest.get(id)!.ts as number) < (doc.ts as number)) newest.set(id, doc);
  }
  return newest;
}

/** What every form must give: every version, the lists, the past, the series and their points. */
async function assertImported(url: string): Promise<void> {
  for (const [collection, docs] of Object.entries(expected.collections)) {
    for (const doc of docs) {
      const answer = await read(`${url}/${collection}/${encodeURIComponent(doc.id as string)}?ts=${doc.ts as number}`, collection, doc.id as string);
      if (isDeleted(collection, doc.id as string)) {
        // UNIS on MongoDB marks each version of a deleted resource deleted: it is gone, history and all.
        assert.equal(answer.status, 404, `${collection}/${doc.id as string} was deleted on UNIS`);
        continue;
      }
      assert.equal(answer.status, 200, `${collection}/${doc.id as string}?ts=${doc.ts as number}`);
      assert.deepEqual(answer.body, rebased(doc), `${collection}/${doc.id as string} at ${doc.ts as number}`);
    }
    const list = await read(`${url}/${collection}`, collection);
    assert.equal(list.status, 200);
    const newest = newestOf(collection);
    assert.deepEqual(
      new Map((list.body as Doc[]).map((d) => [d.id as string, d])),
      new Map([...newest].map(([id, d]) => [id, rebased(d)])),
      `GET /${collection}: the newest version of each live resource`,
    );
  }
  // The past answers as of UNIS's own times: node-ams before its re-POSTs.
  const ams = [...expected.collections.nodes!].filter((d) => d.id === 'node-ams').sort((a, b) => (a.ts as number) - (b.ts as number));
  const at = await get(`${url}/nodes/node-ams?at=${(ams[1]!.ts as number) - 1}`, JSON_ACCEPT);
  assert.deepEqual(at.body, rebased(ams[0]));
  for (const d of expected.deleted) assert.equal((await get(`${url}/${d.collection}/${d.id}`, JSON_ACCEPT)).status, 404);

  const series = await get(`${url}/events`, JSON_ACCEPT);
  assert.equal(series.status, 200);
  assert.deepEqual((series.body as { mid: string }[]).map((s) => s.mid).sort(), Object.keys(expected.data).sort());
  for (const [mid, { points }] of Object.entries(expected.data)) {
    const answer = await get(`${url}/data/${mid}?sort=ts:1`, JSON_ACCEPT);
    assert.equal(answer.status, 200, `/data/${mid}`);
    assert.deepEqual(answer.body, points, `/data/${mid}: every point UNIS kept`);
  }
}

/** A server on `database` that answers with our PUBLIC_URL; stopped by the caller. */
const serverOn = (database: TestDatabase): Promise<RunningServer> => startServer({ database, env: { PUBLIC_URL: PUBLIC } });

describe('moving from UNIS: npm run import', function () {
  this.timeout(180_000);

  const forms: [string, string][] = [
    ['mongoexport JSON lines, Extended JSON v2 relaxed', 'mongoexport-v2'],
    ['mongoexport one array, Extended JSON v1 strict', 'mongoexport-v1'],
    ['mongodump BSON with metadata', 'mongodump'],
  ];
  for (const [form, folder] of forms) {
    describe(`from ${form}`, function () {
      let database: TestDatabase;
      let server: RunningServer | undefined;
      let first: Awaited<ReturnType<typeof importCommand>>;
      before(async () => {
        database = await createTestDatabase();
        first = await importCommand(database, PUBLIC, '--from', path.join(FIXTURES, folder));
      });
      after(async () => {
        await server?.stop();
        await database.drop();
      });

      it('reports each collection, names the refused document and what was skipped, and exits 0', () => {
        assert.equal(first.code, 0, first.stderr);
        for (const [collection, docs] of Object.entries(expected.collections)) {
          const row = reportRow(first.stdout, collection);
          assert.deepEqual([row.read, row.imported, row.skipped, row.unreadable], [docs.length, docs.length, 0, 0], collection);
        }
        assert.equal(reportRow(first.stdout, 'ports').refused, 1);
        assert.match(first.stdout, /^refused ports\/port-sea-2 ts=\d+ \/capacity: must be integer$/m);
        for (const name of expected.skipped) assert.match(first.stdout, new RegExp(`^${name} was skipped: `, 'm'));
        assert.match(first.stdout, /^references rebased from http:\/\/127\.0\.0\.1:8888$/m);
        assert.equal(reportRow(first.stdout, 'events_cache').imported, 2);
      });

      it('answers every version, list, instant, series and point as UNIS stored them', async () => {
        server = await serverOn(database);
        await assertImported(server.url);
      });

      it('keeps the refused document as UNIS stored it', async () => {
        const answer = await read(`${server!.url}/ports/port-sea-2`, 'ports', 'port-sea-2');
        assert.equal(answer.body.capacity, '10G');
        const check = await startCommand(database, PUBLIC, ['--check-data']);
        assert.equal(check.code, 1, check.stderr);
        assert.match(check.stdout, /^ports\/port-sea-2 \/capacity: must be integer$/m);
      });

      it('changes nothing when run again: every version is skipped', async () => {
        const before = (await get(`${server!.url}/nodes?since=0`, JSON_ACCEPT)).text;
        await server!.stop();
        server = undefined;
        const again = await importCommand(database, PUBLIC, '--from', path.join(FIXTURES, folder));
        assert.equal(again.code, 0, again.stderr);
        for (const [collection, docs] of Object.entries(expected.collections)) {
          const row = reportRow(again.stdout, collection);
          assert.deepEqual([row.imported, row.skipped], [0, docs.length], collection);
        }
        assert.doesNotMatch(again.stdout, /^refused /m);
        server = await serverOn(database);
        assert.equal((await get(`${server.url}/nodes?since=0`, JSON_ACCEPT)).text, before);
        await assertImported(server.url);
      });
    });
  }

  it('names a line that cannot be read with its file and place, imports the rest, and exits 1', async () => {
    const database = await createTestDatabase();
    try {
      const outcome = await importCommand(database, PUBLIC, '--from', path.join(FIXTURES, 'broken'));
      assert.equal(outcome.code, 1);
      assert.match(outcome.stdout, /^unreadable nodes\.json line 3: /m);
      assert.deepEqual(reportRow(outcome.stdout, 'nodes'), { read: 6, imported: 5, skipped: 0, refused: 0, unreadable: 1 });
      assert.equal(reportRow(outcome.stdout, 'ports').imported, 6);
    } finally {
      await database.drop();
    }
  });

  /** What a database holds of topocat, read without changing it: the SQLite file's bytes, or the PostgreSQL schema's tables. */
  async function footprint(database: TestDatabase): Promise<string> {
    if (engine === 'sqlite') {
      const file = database.url.replace(/^sqlite:/, '');
      const bytes = await readFile(file).catch(() => undefined);
      return bytes === undefined ? 'no file' : `a file of ${bytes.length} bytes, ${createHash('sha256').update(bytes).digest('hex')}`;
    }
    return withPostgres(postgresUrl(), async (knex) => {
      const schema = await knex('pg_namespace').where('nspname', database.schema).first('nspname');
      if (!schema) return 'no schema';
      const tables = (await knex('pg_tables').where('schemaname', database.schema).select('tablename')) as { tablename: string }[];
      return `a schema with ${tables.length} tables`;
    });
  }

  // A new database, as an operator has it before anything ran on it: no file or an empty one (SQLite), no schema (PostgreSQL).
  const newDatabases: [string, { engines: readonly string[]; given: (database: TestDatabase) => Promise<void> }][] = [
    ['no file or schema yet', { engines: ['sqlite', 'postgres'], given: async () => undefined }],
    ['an empty file', { engines: ['sqlite'], given: (database) => writeFile(database.url.replace(/^sqlite:/, ''), '') }],
    ['a schema with no table', { engines: ['postgres'], given: (database) => withPostgres(postgresUrl(), async (knex) => void (await knex.raw('CREATE SCHEMA ??', [database.schema!]))) }],
  ];
  for (const [name, { given }] of newDatabases.filter(([, c]) => c.engines.includes(engine))) {
    it(`a dry run on a new database (${name}) reads, checks and counts everything and writes nothing, not even the schema`, async () => {
      const database = await createTestDatabase();
      try {
        await given(database);
        const before = await footprint(database);
        const outcome = await importCommand(database, PUBLIC, '--from', path.join(FIXTURES, 'mongoexport-v2'), '--dry-run');
        assert.equal(outcome.code, 0, outcome.stderr);
        assert.match(outcome.stdout, /^dry run, nothing written: /m);
        for (const [collection, docs] of Object.entries(expected.collections)) {
          assert.deepEqual([reportRow(outcome.stdout, collection).read, reportRow(outcome.stdout, collection).imported], [docs.length, docs.length], collection);
        }
        assert.equal(reportRow(outcome.stdout, 'ports').refused, 1);
        assert.match(outcome.stdout, /^refused ports\/port-sea-2 ts=\d+ \/capacity: must be integer$/m);
        assert.equal(reportRow(outcome.stdout, 'events_cache').imported, 2);
        assert.match(outcome.stderr, /nothing was written to .* \(a dry run; it is new/);
        assert.equal(await footprint(database), before, 'the database is exactly as it was');
      } finally {
        await database.drop();
      }
    });
  }

  it('writes nothing on a dry run on a database a server has set up, and reports what it would do', async () => {
    const database = await createTestDatabase();
    try {
      await (await serverOn(database)).stop();
      const outcome = await importCommand(database, PUBLIC, '--from', path.join(FIXTURES, 'mongoexport-v2'), '--dry-run');
      assert.equal(outcome.code, 0, outcome.stderr);
      assert.match(outcome.stdout, /^dry run, nothing written: /m);
      assert.equal(reportRow(outcome.stdout, 'nodes').imported, expected.collections.nodes!.length);
      const server = await serverOn(database);
      try {
        assert.deepEqual((await get(`${server.url}/nodes`, JSON_ACCEPT)).body, []);
        assert.deepEqual((await get(`${server.url}/events`, JSON_ACCEPT)).body, []);
      } finally {
        await server.stop();
      }
    } finally {
      await database.drop();
    }
  });

  /** A node as UNIS stores it. */
  const storedNode = (id: string): Doc => ({ _id: `${id}:1`, id, ts: 1_600_000_000_000_001, '\\$schema': 'http://unis.crest.iu.edu/schema/20160630/node#', name: id });
  /** A document `levels` deep as JSON text (`{"a":{"a":…}}`), written out: no recursive serializer reaches 200,000 levels. */
  const deepText = (levels: number): string => `{"_id":"deep:1","id":"deep","ts":1600000000000001,"properties":${'{"a":'.repeat(levels - 1)}1${'}'.repeat(levels)}`;
  /** The same as one BSON document, written out level by level (each level: its size, an embedded document `a`, …, its end). */
  function deepBson(levels: number): Buffer {
    const bytes = Buffer.alloc(8 * (levels - 1) + 12);
    for (let level = 0; level < levels - 1; level++) {
      bytes.writeInt32LE(bytes.length - 7 * level - level, 7 * level);
      bytes.set([0x03, 0x61, 0x00], 7 * level + 4);
    }
    const innermost = 7 * (levels - 1);
    bytes.writeInt32LE(12, innermost);
    bytes.set([0x10, 0x61, 0x00, 1, 0, 0, 0, 0x00], innermost + 4);
    return bytes;
  }
  const bson = (documents: readonly Doc[]): Buffer => Buffer.concat(documents.map((d) => BSON.serialize(d)));
  const nodesFolder = async (file: string, content: string | Buffer): Promise<string> => {
    const folder = await mkdtemp(path.join(tmpdir(), 'topocat-unis-'));
    await writeFile(path.join(folder, file), content);
    if (file.endsWith('.bson')) await writeFile(path.join(folder, 'nodes.metadata.json'), '{"options":{}}');
    return folder;
  };
  const lines = (docs: readonly Doc[]): string[] => docs.map((d) => JSON.stringify(d));

  // Each source form with a document 200,000 levels deep between two good ones (rest-contract §14: "one that cannot be read is named with its place").
  const unreadable: [string, { given: () => Promise<string>; want: RegExp; read: number }][] = [
    ['mongoexport JSON lines, a document 200,000 levels deep', { given: () => nodesFolder('nodes.json', [lines([storedNode('a')])[0], deepText(200_000), lines([storedNode('b')])[0]].join('\n')), want: /^unreadable nodes\.json line 2: JSON nested deeper than 64 levels$/m, read: 3 }],
    ['mongoexport one array, a document 200,000 levels deep', { given: () => nodesFolder('nodes.json', `[${[lines([storedNode('a')])[0], deepText(200_000), lines([storedNode('b')])[0]].join(',\n')}]`), want: /^unreadable nodes\.json element 2: JSON nested deeper than 64 levels$/m, read: 3 }],
    ['mongoexport JSON lines, a document 65 levels deep (the limit is 64)', { given: () => nodesFolder('nodes.json', [lines([storedNode('a')])[0], deepText(65), lines([storedNode('b')])[0]].join('\n')), want: /^unreadable nodes\.json line 2: JSON nested deeper than 64 levels$/m, read: 3 }],
    ['mongodump BSON, a document 200,000 levels deep', { given: () => nodesFolder('nodes.bson', Buffer.concat([bson([storedNode('a')]), deepBson(200_000), bson([storedNode('b')])])), want: /^unreadable nodes\.bson document 2 \(byte \d+\): nested deeper than 64 levels$/m, read: 3 }],
    ['mongodump BSON, a document 65 levels deep', { given: () => nodesFolder('nodes.bson', Buffer.concat([bson([storedNode('a')]), deepBson(65), bson([storedNode('b')])])), want: /^unreadable nodes\.bson document 2 \(byte \d+\): nested deeper than 64 levels$/m, read: 3 }],
    // Kept as they were: a document whose contents are broken is named and the next read; a file cut short is named at its end.
    ['mongodump BSON, a corrupt document', { given: () => nodesFolder('nodes.bson', Buffer.concat([bson([storedNode('a')]), Buffer.from([12, 0, 0, 0, 0x10, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x00]), bson([storedNode('b')])])), want: /^unreadable nodes\.bson document 2 \(byte \d+\): /m, read: 3 }],
    ['mongodump BSON, a file cut short', { given: () => nodesFolder('nodes.bson', Buffer.concat([bson([storedNode('a')]), bson([storedNode('b')]), bson([storedNode('c')]).subarray(0, 20)])), want: /^unreadable nodes\.bson byte \d+: the file ends inside a document/m, read: 3 }],
  ];
  for (const [name, { given, want, read }] of unreadable) {
    it(`names what cannot be read and imports the rest, exit 1: ${name}`, async () => {
      const database = await createTestDatabase();
      const source = await given();
      try {
        const outcome = await importCommand(database, PUBLIC, '--from', source);
        assert.equal(outcome.code, 1, outcome.stderr);
        assert.match(outcome.stdout, want);
        assert.deepEqual(reportRow(outcome.stdout, 'nodes'), { read, imported: 2, skipped: 0, refused: 0, unreadable: 1 });
        const server = await serverOn(database);
        try {
          assert.deepEqual(((await get(`${server.url}/nodes?sort=id:1`, JSON_ACCEPT)).body as Doc[]).map((n) => n.id), ['a', 'b']);
        } finally {
          await server.stop();
        }
      } finally {
        await rm(source, { recursive: true, force: true });
        await database.drop();
      }
    });
  }

  it('names an element of a UNIS page nested 200,000 levels deep with its URL, imports the rest of the page, and exits 1', async () => {
    const database = await createTestDatabase();
    const page = `[${[lines([storedNode('a')])[0], deepText(200_000), lines([storedNode('b')])[0]].join(',')}]`;
    const unis = createServer((req, res) => {
      res.setHeader('Content-Type', 'application/perfsonar+json');
      res.end(req.url === '/' ? JSON.stringify([{ href: `http://127.0.0.1:${(unis.address() as AddressInfo).port}/nodes`, rel: 'full' }]) : req.url === '/nodes?limit=1000&skip=0' ? page : '[]');
    });
    await new Promise<void>((resolve) => unis.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(unis.address() as AddressInfo).port}`;
    try {
      const outcome = await importCommand(database, PUBLIC, '--from', url);
      assert.equal(outcome.code, 1, outcome.stderr);
      assert.ok(outcome.stdout.includes(`unreadable ${url}/nodes?limit=1000&skip=0 element 2: JSON nested deeper than 64 levels\n`), outcome.stdout);
      assert.deepEqual(reportRow(outcome.stdout, 'nodes'), { read: 3, imported: 2, skipped: 0, refused: 0, unreadable: 1 });
    } finally {
      await new Promise<void>((resolve) => unis.close(() => resolve()));
      await database.drop();
    }
  });

  // A mistyped path must not read as an empty registry.
  const nothingToRead: [string, { given: (folder: string) => Promise<void> }][] = [
    ['an empty folder', { given: async () => undefined }],
    ['a folder of other files', { given: (folder) => writeFile(path.join(folder, 'README.txt'), 'not a dump') }],
    ['a folder whose folders hold no dump', { given: (folder) => mkdir(path.join(folder, 'unis_db')) }],
  ];
  for (const [name, { given }] of nothingToRead) {
    it(`refuses --from ${name}, naming the folder and what it expected (exit 2)`, async () => {
      const database = await createTestDatabase();
      const folder = await mkdtemp(path.join(tmpdir(), 'topocat-unis-'));
      try {
        await given(folder);
        const outcome = await importCommand(database, PUBLIC, '--from', folder);
        assert.equal(outcome.code, 2, outcome.stdout);
        assert.ok(outcome.stderr.includes(`${folder} holds no collection to import: expected <collection>.json files (mongoexport) or <collection>.bson files`), outcome.stderr);
        assert.equal(outcome.stdout, '');
      } finally {
        await rm(folder, { recursive: true, force: true });
        await database.drop();
      }
    });
  }

  it('keeps the newest version current whatever order the versions come in, across batches', async () => {
    const database = await createTestDatabase();
    // Newest first, as UNIS lists them, one version per batch: each older one arrives after a newer one is stored.
    const versions = [5, 4, 3, 2, 1].map((n) => ({ _id: `n:${n}`, id: 'n', ts: 1_600_000_000_000_000 + n, '\\$schema': 'http://unis.crest.iu.edu/schema/20160630/node#', selfRef: 'http://old.example:8888/nodes/n', name: `v${n}` }));
    const source = await writeSource('mongoexport lines, Extended JSON v2 relaxed', [{ name: 'nodes', documents: versions }]);
    try {
      const outcome = await importCommand(database, PUBLIC, '--from', source, '--batch', '1');
      assert.equal(outcome.code, 0, outcome.stderr);
      const server = await serverOn(database);
      try {
        assert.equal((await get(`${server.url}/nodes/n`, JSON_ACCEPT)).body.name, 'v5');
        assert.equal((await get(`${server.url}/nodes/n?ts=1600000000000002`, JSON_ACCEPT)).body.name, 'v2');
        assert.equal((await get(`${server.url}/nodes/n?at=1600000000000003`, JSON_ACCEPT)).body.name, 'v3');
        assert.equal((await get(`${server.url}/nodes/n`, JSON_ACCEPT)).body.selfRef, `${PUBLIC}/nodes/n`);
      } finally {
        await server.stop();
      }
    } finally {
      await rm(source, { recursive: true, force: true });
      await database.drop();
    }
  });

  it('moves references only from the base given with --rebase, and keeps other strings as stored', async () => {
    const database = await createTestDatabase();
    const port: Doc = { _id: 'p:1', id: 'p', ts: 1_600_000_000_000_001, selfRef: 'http://a.example/ports/p', '\\$schema': 'http://unis.crest.iu.edu/schema/20160630/port#' };
    const node: Doc = {
      _id: 'n:1', id: 'n', ts: 1_600_000_000_000_002, selfRef: 'http://a.example/nodes/n', '\\$schema': 'http://unis.crest.iu.edu/schema/20160630/node#',
      ports: [{ href: 'http://a.example/ports/p', rel: 'full' }, { href: 'http://b.example/ports/q', rel: 'full' }],
      description: 'http://a.example/ports/p',
    };
    const collections: StoredCollection[] = [{ name: 'ports', documents: [port] }, { name: 'nodes', documents: [node] }];
    const source = await writeSource('mongodump BSON', collections);
    try {
      const outcome = await importCommand(database, PUBLIC, '--from', source, '--rebase', 'http://a.example/');
      assert.equal(outcome.code, 0, outcome.stderr);
      const server = await serverOn(database);
      try {
        const answer = await get(`${server.url}/nodes/n?expand`, JSON_ACCEPT);
        assert.deepEqual(answer.body.ports[0].id, 'p', 'the rebased reference is this service\'s own: expand resolves it');
        const plain = await get(`${server.url}/nodes/n`, JSON_ACCEPT);
        assert.deepEqual(plain.body.ports, [{ href: `${PUBLIC}/ports/p`, rel: 'full' }, { href: 'http://b.example/ports/q', rel: 'full' }]);
        assert.equal(plain.body.description, 'http://a.example/ports/p');
      } finally {
        await server.stop();
      }
    } finally {
      await rm(source, { recursive: true, force: true });
      await database.drop();
    }
  });

  describe('from a running UNIS, over HTTP', function () {
    /**
     * A stand-in for the real UNIS that answers what the real one answered (expected.json, every
     * collection newest first, as UNIS lists), with UNIS's paging; `/events` answers as UNIS's
     * EventsHandler does (the collection statistics of each series).
     */
    let unis: Server;
    let unisUrl: string;
    const requested: string[] = [];
    /** Answer /events as UNIS does when it cannot read one series' statistics: 404 for the whole list. */
    let eventsFail = false;
    before(async () => {
      unis = createServer((req, res) => {
        const url = new URL(req.url!, 'http://unis');
        requested.push(`${url.pathname}${url.search}`);
        const send = (body: unknown) => {
          res.setHeader('Content-Type', 'application/perfsonar+json');
          res.end(JSON.stringify(body));
        };
        const parts = url.pathname.split('/').filter((p) => p !== '');
        if (parts.length === 0) return send([...Object.keys(expected.collections), 'events', 'data'].map((c) => ({ href: `${unisUrl}/${c}`, rel: 'full' })));
        if (parts[0] === 'events' && eventsFail) {
          res.statusCode = 404;
          return send({ message: 'No resources match query.' });
        }
        if (parts[0] === 'events') return send(Object.entries(expected.data).map(([mid, d]) => ({ mid, generic: { capped: 'Yes', count: d.points.length, maxSize: d.cappedSize }, queried: {} })));
        if (parts[0] === 'data' && parts[1]) return send(expected.data[parts[1]]?.points ?? []);
        const docs = [...(expected.collections[parts[0]!] ?? [])].sort((a, b) => (b.ts as number) - (a.ts as number));
        const skip = Number(url.searchParams.get('skip') ?? 0);
        const limit = Number(url.searchParams.get('limit') ?? docs.length);
        return send(docs.slice(skip, skip + limit));
      });
      await new Promise<void>((resolve) => unis.listen(0, '127.0.0.1', resolve));
      unisUrl = `http://127.0.0.1:${(unis.address() as AddressInfo).port}`;
    });
    after(() => new Promise<void>((resolve) => unis.close(() => resolve())));

    it('names /events when UNIS cannot list its series, imports every resource, and exits 1', async () => {
      const database = await createTestDatabase();
      eventsFail = true;
      try {
        const outcome = await importCommand(database, PUBLIC, '--from', unisUrl, '--rebase', OLD);
        assert.equal(outcome.code, 1, outcome.stderr);
        assert.match(outcome.stdout, new RegExp(`^unreadable ${unisUrl}/events: GET ${unisUrl}/events: 404 `, 'm'));
        for (const [collection, docs] of Object.entries(expected.collections)) assert.equal(reportRow(outcome.stdout, collection).imported, docs.length, collection);
      } finally {
        eventsFail = false;
        await database.drop();
      }
    });

    it('reads every collection with every version, the series and their points', async () => {
      const database = await createTestDatabase();
      try {
        const outcome = await importCommand(database, PUBLIC, '--from', unisUrl, '--rebase', OLD);
        assert.equal(outcome.code, 0, outcome.stderr);
        assert.ok(requested.includes('/nodes?limit=1000&skip=0'), requested.join(' '));
        // UNIS's in-memory layer still listed the deleted node, marked "$status": "DELETED": it is deleted here.
        const server = await serverOn(database);
        try {
          await assertImported(server.url);
        } finally {
          await server.stop();
        }
      } finally {
        await database.drop();
      }
    });
  });

  it('imports while a server runs on the same database: it answers the imported versions and its subscribers hear them', async () => {
    const database = await createTestDatabase();
    const server = await serverOn(database);
    const source = await writeSource('mongoexport lines, Extended JSON v2 relaxed', [
      // A version newer than the one the server stores and has read (so keeps in memory, on SQLite).
      { name: 'nodes', documents: [{ _id: 'kept:1', id: 'kept', ts: Date.now() * 1000 + 60_000_000, '\\$schema': 'http://unis.crest.iu.edu/schema/20160630/node#', name: 'from UNIS' }] },
    ]);
    try {
      const events = await fetch(`${server.url}/nodes`, { headers: { Accept: 'text/event-stream' } });
      const reader = events.body!.getReader();
      const outcome = await importCommand(database, PUBLIC, '--from', path.join(FIXTURES, 'mongoexport-v2'));
      assert.equal(outcome.code, 0, outcome.stderr);
      await assertImported(server.url);
      assert.equal((await post(`${server.url}/nodes`, { id: 'kept', name: 'written here' })).status, 201);
      assert.equal((await get(`${server.url}/nodes/kept`, JSON_ACCEPT)).body.name, 'written here');
      assert.equal((await importCommand(database, PUBLIC, '--from', source)).code, 0);
      // Within a second or so (the server looks for writes from outside once a second).
      const deadline = Date.now() + 10_000;
      while ((await get(`${server.url}/nodes/kept`, JSON_ACCEPT)).body.name !== 'from UNIS') {
        assert.ok(Date.now() < deadline, 'the server answers the imported version of a resource it had read');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      let text = '';
      const decoder = new TextDecoder();
      while (!text.includes('node-sea')) text += decoder.decode((await reader.read()).value, { stream: true });
      await reader.cancel();
      assert.match(text, /"id": ?"node-sea"/);
    } finally {
      await server.stop();
      await rm(source, { recursive: true, force: true });
      await database.drop();
    }
  });
});
