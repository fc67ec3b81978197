import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { SETTINGS } from '../../server/settings.js';
import { createTestDatabase, engine, withPostgres, type TestDatabase } from '../helpers/database.js';
import { get } from '../helpers/http.js';
import { distRoot, projectRoot, startServer, type RunningServer } from '../helpers/server.js';
import { eventually } from '../helpers/wait.js';

const START = path.join(distRoot, 'server/main.js');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A start that fails: its exit code and what it printed on stderr (the log is silenced). */
async function failedStart(env: Readonly<Record<string, string>>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [START], { env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'silent', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stderr };
}

/** What an operator sees: the version, the database and mode in the start line, quiet logs, and look-alike settings. */
describe('operator: identity and logs', function () {
  this.timeout(60_000);
  let server: RunningServer;
  let version: string;
  before(async () => {
    version = (JSON.parse(await readFile(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string }).version;
    server = await startServer({ env: { LOG_LEVEL: 'debug', DATABSE_URL: 'sqlite:elsewhere.sqlite', LOGLEVEL: 'info', HOME: '/root' } });
  });
  after(async () => {
    await server.stop();
  });

  for (const route of ['/health', '/about']) {
    it(`${route} carries the version of package.json`, async () => {
      const answer = await get(`${server.url}${route}`);
      assert.equal(answer.status, 200);
      assert.equal(answer.body.version, version);
    });
  }

  it('the start line names the version, the database (no password) and the mode', () => {
    const line = server.logs.find((l) => l.msg === 'listening')!;
    assert.equal(line.version, version);
    assert.equal(line.mode, 'single process');
    if (engine === 'sqlite') {
      assert.equal(line.database, `sqlite ${server.database.url.slice('sqlite:'.length)}`);
    } else {
      const url = new URL(server.database.url);
      assert.match(String(line.database), new RegExp(`^postgresql ${url.username ? `${url.username}@` : ''}${url.hostname}:${url.port || '5432'}${url.pathname} schema ${server.database.schema!}$`));
      if (url.password) assert.ok(!String(line.database).includes(url.password));
    }
  });

  it('every setting of the README\'s configuration table is known, so none is taken for a look-alike', async () => {
    const readme = await readFile(path.join(projectRoot, 'README.md'), 'utf8');
    const table = [...readme.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1]!);
    assert.ok(table.length > 30);
    assert.deepEqual(table.filter((name) => !SETTINGS.includes(name)), []);
  });

  const lookAlikes: [string, { variable: string; meant: string | undefined }][] = [
    ['a swapped pair of letters', { variable: 'DATABSE_URL', meant: 'DATABASE_URL' }],
    ['a missing underscore', { variable: 'LOGLEVEL', meant: 'LOG_LEVEL' }],
    ['HOME is no look-alike of HOST', { variable: 'HOME', meant: undefined }],
  ];
  for (const [name, { variable, meant }] of lookAlikes) {
    it(`look-alike settings: ${name}`, () => {
      const warning = server.logs.find((l) => l.level === 40 && l.variable === variable);
      if (meant === undefined) return assert.equal(warning, undefined);
      assert.ok(warning, `a warning about ${variable}`);
      assert.equal(warning.meant, meant);
      assert.equal(warning.msg, `${variable} is not a setting of topocat (ignored); did you mean ${meant}?`);
    });
  }

  it('an event-stream client that goes away is logged at debug, not as an error', async () => {
    const requestId = 'stream-client-gone';
    const url = new URL(`${server.url}/nodes`);
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, headers: { accept: 'text/event-stream', 'x-request-id': requestId } }, (res) => {
        assert.equal(res.statusCode, 200);
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => undefined);
      req.once('timeout', reject);
      req.end();
    });
    await eventually('the debug line', () => server.logs.find((l) => l.requestId === requestId && l.msg === 'client went away'));
    await sleep(100);
    assert.deepEqual(server.logs.filter((l) => l.level >= 50), []);
  });
});

/**
 * A health check that polls a starting server (what a load balancer, systemd or a script does):
 * every request is answered, 503 with Retry-After until the application is ready, then 200.
 * Before, a request that came after the port opened but before the application was attached
 * waited forever.
 */
describe('operator: a start polled by a health check', function () {
  this.timeout(60_000);
  it('every request is answered while it starts', async () => {
    const database = await createTestDatabase();
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const child = spawn(process.execPath, [START], { env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'silent', DATABASE_URL: database.url }, stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const statuses: number[] = [];
    try {
      for (let i = 0; i < 2_000 && statuses.at(-1) !== 200; i++) {
        const status = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(5_000) }).then(
          (r) => r.status,
          (error: Error) => (error.name === 'TimeoutError' ? -1 : 0),
        );
        assert.notEqual(status, -1, 'a request was left without an answer for 5 s');
        if (status !== 0) statuses.push(status);
        if (status !== 200) await sleep(2);
      }
      assert.equal(statuses.at(-1), 200);
      assert.ok(statuses.every((s) => s === 200 || s === 503), statuses.join(','));
    } finally {
      child.kill('SIGTERM');
      await exited;
      await database.drop();
    }
  });
});

/** Starts that fail name their cause in one line: exit 1, no stack, no password. */
describe('operator: errors that name the cause', function () {
  this.timeout(60_000);

  const unreachable: [string, { url: string; want: RegExp }][] = [
    ['a database host that does not resolve', {
      url: 'postgres://ops:s3cret@no-such-host.invalid:5432/topo',
      want: /^error: the database host no-such-host\.invalid of DATABASE_URL \(postgresql ops@no-such-host\.invalid:5432\/topo\) does not resolve \((ENOTFOUND|EAI_AGAIN)\); check the host name\n$/,
    }],
    ['a database host that refuses', {
      url: 'postgres://ops:s3cret@127.0.0.1:9/topo',
      want: /^error: cannot reach the database postgresql ops@127\.0\.0\.1:9\/topo \(ECONNREFUSED\); is it running\?\n$/,
    }],
  ];
  for (const [name, { url, want }] of unreachable) {
    it(name, async () => {
      const outcome = await failedStart({ DATABASE_URL: url });
      assert.equal(outcome.code, 1);
      assert.match(outcome.stderr, want);
      assert.ok(!outcome.stderr.includes('s3cret'));
    });
  }

  describe('SQLite files', function () {
    let dir: string;
    let file: string;
    beforeEach(async function () {
      dir = await mkdtemp(path.join(tmpdir(), 'topocat-operator-'));
      file = path.join(dir, 'topocat.sqlite');
      // A migrated database, stopped.
      const server = await startServer({ env: { DATABASE_URL: `sqlite:${file}` }, database: { url: `sqlite:${file}`, drop: async () => undefined } });
      assert.equal(await server.stop(), 0);
    });
    afterEach(async () => {
      try {
        execFileSync('chattr', ['-i', file], { stdio: 'ignore' });
      } catch {
        // not made immutable
      }
      await rm(dir, { recursive: true, force: true });
    });

    it('read-only: says so, and not knex internals', async function () {
      // The superuser writes through file modes; an immutable file refuses even it.
      if (process.getuid?.() === 0) {
        try {
          execFileSync('chattr', ['+i', file], { stdio: 'ignore' });
        } catch {
          this.skip();
        }
      } else {
        await chmod(file, 0o444);
      }
      const outcome = await failedStart({ DATABASE_URL: `sqlite:${file}`, LOG_LEVEL: 'info' });
      assert.equal(outcome.code, 1);
      assert.equal(outcome.stderr, `error: the SQLite database sqlite ${file} is read-only: make the file and its folder writable by this user (SQLite writes its -wal and -shm files beside it)\n`);
    });

    it('locked by another process: says so', async () => {
      const holder = new Database(file);
      holder.exec('BEGIN EXCLUSIVE');
      try {
        // The start waits for the lock up to START_LOCK_TIMEOUT_MS (test/server/restart.test.ts), then says why in one line.
        const outcome = await failedStart({ DATABASE_URL: `sqlite:${file}`, START_LOCK_TIMEOUT_MS: '300' });
        assert.equal(outcome.code, 1);
        assert.match(outcome.stderr, new RegExp(`^error: the database sqlite ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} stayed locked by another process for \\d+ ms; stop the other server on it first, or raise START_LOCK_TIMEOUT_MS\n$`));
      } finally {
        holder.exec('ROLLBACK');
        holder.close();
      }
    });
  });

  describe('a database migrated by a newer version', function () {
    let database: TestDatabase;
    before(async () => {
      database = await createTestDatabase();
      const server = await startServer({ database });
      assert.equal(await server.stop(), 0);
      const row = { name: '0099_from_the_future', batch: 99, migration_time: new Date() };
      if (engine === 'sqlite') {
        const db = new Database(database.url.slice('sqlite:'.length));
        db.prepare('INSERT INTO topocat_migrations (name, batch, migration_time) VALUES (?, ?, ?)').run(row.name, row.batch, row.migration_time.getTime());
        db.close();
      } else {
        await withPostgres(database.url.replace(/[?&]schema=[^&]*/, ''), (knex) => knex('topocat_migrations').insert(row), database.schema);
      }
    });
    after(async () => {
      await database.drop();
    });

    for (const workers of ['1', '2']) {
      it(`a schema mismatch is refused in one line (WORKERS=${workers})`, async () => {
        const outcome = await failedStart({ DATABASE_URL: database.url, WORKERS: workers });
        assert.equal(outcome.code, 1);
        assert.match(outcome.stderr, /^error: the database (sqlite|postgresql) \S+.* was migrated by a newer topocat: it has the migration 0099_from_the_future, which this version does not know \(its last is 0\d{3}_\w+\); run the newer version, or restore a backup made before the upgrade\n$/);
      });
    }
  });
});
