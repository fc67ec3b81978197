import assert from 'node:assert/strict';
import { readFile, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createTestDatabase, engine, type TestDatabase } from '../helpers/database.js';
import { get, post } from '../helpers/http.js';
import { buildGeneratedServer, copyProject, generate, run } from '../helpers/project.js';
import { distRoot, startServer, type LogLine, type RunningServer } from '../helpers/server.js';
import { eventually } from '../helpers/wait.js';

interface Outcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `npm start -- --check-data [args]` of the server at `entry`, on `database`. */
async function checkData(entry: string, database: TestDatabase, ...args: string[]): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(process.execPath, [entry, '--check-data', ...args], { env: { PATH: process.env.PATH ?? '', DATABASE_URL: database.url } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const CHANGED = 'the generated schemas changed since the stored data was last checked: checking it';
const FIRST = 'no check of the stored data is on record: checking it against the generated schemas';

/** Start, wait for the start's word on the stored data (the line `msg` matches), stop. */
async function startAndHear(entry: string | undefined, database: TestDatabase, want: RegExp, args: readonly string[] = []): Promise<{ line: LogLine; logs: LogLine[] }> {
  const server = await startServer({ database, args, ...(entry ? { entry } : {}) });
  try {
    assert.equal((await get(`${server.url}/health`)).status, 200);
    const line = await eventually(`a log line matching ${want}`, () => server.logs.find((l) => want.test(l.msg)), 60_000);
    return { line, logs: server.logs };
  } finally {
    await server.stop();
  }
}

/**
 * After a generate that changes a field's type and removes a kind, the start says how many stored
 * resources no longer fit, and `--check-data` lists them; nothing is deleted.
 */
describe('stored data after a schema change', function () {
  this.timeout(240_000);
  let dir: string;
  let changed: string;
  let database: TestDatabase;
  let old: RunningServer | undefined;

  before(async () => {
    dir = await copyProject();
    // Port.capacity: integer → string; the Exnode kind removed.
    const port = JSON.parse(await readFile(path.join(dir, 'schemas/port.json'), 'utf8'));
    port.properties.capacity = { type: 'string', description: 'Capacity with its unit, e.g. "10G".' };
    await writeFile(path.join(dir, 'schemas/port.json'), JSON.stringify(port));
    await unlink(path.join(dir, 'schemas/exnode.json'));
    const generated = await generate(dir);
    assert.equal(generated.code, 0, generated.stderr);
    changed = await buildGeneratedServer(dir);
    database = await createTestDatabase();
  });
  after(async () => {
    await old?.stop();
    await database?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('the start under the changed schemas (a cluster\'s primary) warns once with the counts; the next start (a single process) does not scan again', async () => {
    old = await startServer({ database });
    await eventually('the first check', () => old!.logs.find((l) => l.msg === FIRST));
    for (const [collection, body] of [
      ['ports', { id: 'p-fast', name: 'eth0', capacity: 10_000_000_000 }],
      ['ports', { id: 'p-plain', name: 'eth1' }],
      ['nodes', { id: 'n1', name: 'n1' }],
      ['exnodes', { id: 'x1', name: 'a.txt', size: 1, mode: 'file', created: 1, modified: 1, parent: null }],
      ['exnodes', { id: 'x2', name: 'b.txt', size: 2, mode: 'file', created: 1, modified: 1, parent: null }],
    ] as const) {
      const created: { status: number; text: string } = await post(`${old.url}/${collection}`, body);
      assert.equal(created.status, 201, created.text);
    }
    await old.stop();
    old = undefined;

    const first = await startAndHear(changed, database, /no longer fit/, ['--workers', '2']);
    assert.equal(first.line.level, 40);
    assert.match(first.line.msg, /^3 stored resources no longer fit the generated schemas: 1 fails validation, 2 belong to a removed kind \(exnodes\); nothing was deleted. npm run check-data lists them$/);
    assert.deepEqual({ invalid: first.line.invalid, removedKind: first.line.removedKind, removedKinds: first.line.removedKinds, checked: first.line.checked }, { invalid: 1, removedKind: 2, removedKinds: ['exnodes'], checked: 5 });
    assert.ok(first.logs.some((l) => l.msg === CHANGED), 'the changed schemas were scanned');
    assert.equal(first.logs.filter((l) => l.level === 40 && /stored resource/.test(l.msg)).length, 1, 'one warn line');

    const again = await startAndHear(changed, database, /no longer fit/);
    assert.equal(again.line.invalid, 1);
    assert.ok(!again.logs.some((l) => l.msg === CHANGED || l.msg === FIRST), 'the same schemas are not scanned again');
  });

  it('--check-data lists each misfit with its first error, exits 1, and --json says the same for scripts', async () => {
    const text = await checkData(changed, database);
    assert.equal(text.code, 1, text.stderr);
    assert.equal(
      text.stdout,
      [
        'exnodes/x1 (document): no generated kind holds the collection "exnodes" any more (its schema was removed)',
        'exnodes/x2 (document): no generated kind holds the collection "exnodes" any more (its schema was removed)',
        'ports/p-fast /capacity: must be string',
        '3 of 5 stored resources do not fit the generated schemas (1 invalid, 2 of removed kinds: exnodes)',
        '',
      ].join('\n'),
    );
    const json = await checkData(changed, database, '--json');
    assert.equal(json.code, 1, json.stderr);
    const report = JSON.parse(json.stdout) as { resources: unknown[]; checked: number; invalid: number; removed: number; removedKinds: string[] };
    assert.deepEqual(report.resources, [
      { collection: 'exnodes', kind: null, id: 'x1', pointer: '', message: 'no generated kind holds the collection "exnodes" any more (its schema was removed)' },
      { collection: 'exnodes', kind: null, id: 'x2', pointer: '', message: 'no generated kind holds the collection "exnodes" any more (its schema was removed)' },
      { collection: 'ports', kind: 'Port', id: 'p-fast', pointer: '/capacity', message: 'must be string' },
    ]);
    assert.deepEqual([report.checked, report.invalid, report.removed, report.removedKinds], [5, 1, 2, ['exnodes']]);
  });

  it('nothing was deleted: the old schemas serve every resource again, and the start finds them all fitting', async () => {
    const back = await startServer({ database });
    try {
      for (const href of ['ports/p-fast', 'ports/p-plain', 'nodes/n1', 'exnodes/x1', 'exnodes/x2']) assert.equal((await get(`${back.url}/${href}`)).status, 200, href);
      const line = await eventually('the check under the old schemas', () => back.logs.find((l) => /stored data checked/.test(l.msg)), 60_000);
      assert.match(line.msg, /all 5 resources fit/);
      assert.ok(!back.logs.some((l) => /no longer fit/.test(l.msg)));
    } finally {
      await back.stop();
    }
    const clean = await checkData(path.join(distRoot, 'server/main.js'), database);
    assert.deepEqual([clean.code, clean.stdout], [0, '0 of 5 stored resources do not fit the generated schemas\n']);
  });

  it('servers starting together on one PostgreSQL database take turns: one scans, each warns', async function () {
    if (engine !== 'postgres') this.skip();
    // The last start ran the old schemas: the changed ones are new to the database again.
    const servers = await Promise.all([startServer({ database, entry: changed }), startServer({ database, entry: changed })]);
    try {
      const warnings = await Promise.all(servers.map((server) => eventually('the warning', () => server.logs.find((l) => /no longer fit/.test(l.msg)), 60_000)));
      assert.deepEqual(warnings.map((w) => [w.invalid, w.removedKind]), [[1, 2], [1, 2]]);
      assert.equal(servers.flatMap((server) => server.logs).filter((l) => l.msg === CHANGED).length, 1, 'one scan');
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  });
});
