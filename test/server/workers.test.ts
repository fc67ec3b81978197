import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { distRoot, startServer, type LogLine, type RunningServer } from '../helpers/server.js';
import { eventually } from '../helpers/wait.js';

interface Reply {
  readonly status: number;
  readonly requestId: string;
  readonly body: any;
}

/**
 * One request on a connection of its own (no agent, no keep-alive): the cluster hands each new
 * connection to the next worker, so consecutive calls reach different workers.
 */
function fresh(method: string, url: string, body?: unknown): Promise<Reply> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method, agent: false, headers: text === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } },
      (res) => {
        let received = '';
        res.on('data', (chunk: Buffer) => (received += chunk.toString()));
        res.on('end', () =>
          resolve({ status: res.statusCode!, requestId: String(res.headers['x-request-id']), body: received === '' ? undefined : JSON.parse(received) }),
        );
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

/** The pid of the process that logged the request, from its `request` line. */
function servedBy(server: RunningServer, reply: Reply): Promise<number> {
  return eventually(`the log line of request ${reply.requestId}`, () => server.logs.find((l) => l.msg === 'request' && l.requestId === reply.requestId)?.pid as number | undefined);
}

const workerLines = (server: RunningServer): LogLine[] => server.logs.filter((l) => l.msg === 'worker listening');

/** Pids of the first `count` workers that said they listen. */
async function workerPids(server: RunningServer, count: number): Promise<number[]> {
  const lines = await eventually(`${count} 'worker listening' lines`, () => {
    const found = workerLines(server);
    return found.length >= count ? found.slice(0, count) : undefined;
  });
  return lines.map((l) => l.pid as number);
}

/** Alive and not a zombie: an orphaned worker is reaped by whoever adopts it, not by the test. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

/** Run the entry to its end (for runs that must not start), with its exit code and output. */
function runToExit(args: readonly string[], env: Record<string, string>, ms = 30_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [path.join(distRoot, 'server/main.js'), ...args], {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

const parse = (stdout: string): LogLine[] => stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as LogLine);

describe('worker mode (--workers N)', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await database.drop();
  });

  it('serves through two worker processes on one port and one database, and SIGTERM stops them all with 0', async () => {
    // The flag wins over WORKERS.
    const server = await startServer({ database, args: ['--workers', '2'], env: { WORKERS: '3' } });
    let pids: number[];
    try {
      const listening = server.logs.filter((l) => l.msg === 'listening');
      assert.equal(listening.length, 1, 'one listening line, the primary\'s');
      assert.equal(listening[0]!.pid, server.process.pid);
      assert.equal(listening[0]!.workers, 2);
      assert.equal(listening[0]!.url, server.url);
      assert.match(String(listening[0]!.database), server.database.url.startsWith('sqlite:') ? /^sqlite \// : /^postgresql /);
      assert.equal(listening[0]!.mode, '2 workers');
      pids = await workerPids(server, 2);
      assert.equal(new Set(pids).size, 2);
      assert.ok(!pids.includes(server.process.pid!), 'the primary serves nothing itself');
      // PORT=0: the random port is chosen once and shared by every worker.
      for (const line of workerLines(server)) assert.equal(line.port, listening[0]!.port);

      const served = new Set<number>();
      for (let i = 0; i < 8; i++) {
        const reply = await fresh('GET', `${server.url}/health`);
        assert.equal(reply.status, 200);
        served.add(await servedBy(server, reply));
      }
      assert.deepEqual([...served].sort(), [...pids].sort(), 'fresh connections reach both workers');

      const created = await fresh('POST', `${server.url}/nodes`, { id: 'shared', name: 'one database' });
      assert.equal(created.status, 201);
      const writer = await servedBy(server, created);
      let readByOther = false;
      for (let i = 0; i < 6 && !readByOther; i++) {
        const read = await fresh('GET', `${server.url}/nodes/shared`);
        assert.equal(read.status, 200);
        assert.equal(read.body.name, 'one database');
        readByOther = (await servedBy(server, read)) !== writer;
      }
      assert.ok(readByOther, 'the other worker reads what one wrote');
    } finally {
      assert.equal(await server.stop('SIGTERM'), 0);
    }
    for (const pid of pids) assert.ok(gone(pid), `worker ${pid} is gone after the primary exited`);
    for (const pid of pids) assert.ok(server.logs.some((l) => l.pid === pid && l.msg === 'stopped'), `worker ${pid} stopped gracefully`);
    assert.deepEqual(server.strayOutput, [], 'the processes sharing stdout never interleave their lines');
  });

  it('answers a write made through one worker at once from the other, though each keeps what it read', async () => {
    const server = await startServer({ database, args: ['--workers', '2'] });
    try {
      const pids = await workerPids(server, 2);
      assert.equal((await fresh('POST', `${server.url}/nodes`, { id: 'kept', name: 'first' })).status, 201);
      /** GETs on fresh connections until both workers served one; each answer is checked. */
      const readByBoth = async (name: string): Promise<void> => {
        const served = new Set<number>();
        for (let i = 0; i < 40 && served.size < 2; i++) {
          const read = await fresh('GET', `${server.url}/nodes/kept`);
          assert.equal(read.status, 200);
          const by = await servedBy(server, read);
          assert.equal(read.body.name, name, `worker ${by} answers the newest version`);
          served.add(by);
        }
        assert.deepEqual([...served].sort(), [...pids].sort(), 'both workers answered');
      };
      // Read twice by each: the second of a worker's reads comes from its cache (SQLite).
      await readByBoth('first');
      await readByBoth('first');
      for (const name of ['second', 'third']) {
        const replaced = await fresh('PUT', `${server.url}/nodes/kept`, { id: 'kept', name });
        assert.equal(replaced.status, 201);
        await readByBoth(name);
      }
    } finally {
      assert.equal(await server.stop('SIGTERM'), 0);
    }
  });

  it('replaces a worker that is killed, and keeps answering meanwhile', async () => {
    const server = await startServer({ database, args: ['--workers', '2'] });
    try {
      const [victim, survivor] = await workerPids(server, 2);
      process.kill(victim!, 'SIGKILL');
      const died = await eventually('the primary to log the death', () => server.logs.find((l) => l.msg === 'worker died unexpectedly' && l.workerPid === victim));
      assert.equal(died.level, 50, 'logged as an error');
      assert.equal(died.signal, 'SIGKILL');
      for (let i = 0; i < 4; i++) assert.equal((await fresh('GET', `${server.url}/health`)).status, 200);

      const replacement = await eventually('a replacement worker', () => workerLines(server).find((l) => l.pid !== victim && l.pid !== survivor));
      assert.equal(replacement.port, Number(new URL(server.url).port), 'the replacement listens on the same port');
      assert.ok(running(survivor!));
      const served = new Set<number>();
      for (let i = 0; i < 6; i++) {
        const reply = await fresh('GET', `${server.url}/health`);
        assert.equal(reply.status, 200);
        served.add(await servedBy(server, reply));
      }
      assert.deepEqual([...served].sort(), [survivor!, replacement.pid as number].sort());
    } finally {
      assert.equal(await server.stop('SIGTERM'), 0);
    }
  });

  it('leaves no orphans: workers stop gracefully when the primary is SIGKILLed', async () => {
    const server = await startServer({ database, args: ['--workers', '2'] });
    const pids = await workerPids(server, 2);
    try {
      await server.stop('SIGKILL');
      await eventually('both workers to exit', () => (pids.every((pid) => !running(pid)) ? true : undefined));
      for (const pid of pids) {
        assert.ok(server.logs.some((l) => l.pid === pid && l.msg === 'stopped'), `worker ${pid} stopped gracefully`);
      }
    } finally {
      for (const pid of pids) if (running(pid)) process.kill(pid, 'SIGKILL');
    }
  });

  it('gives up with exit 1 when workers keep dying at start', async () => {
    // Every worker fails to listen: the port is taken.
    const blocker = await startServer({ database });
    try {
      const run = await runToExit(['--workers', '2'], { DATABASE_URL: database.url, PORT: new URL(blocker.url).port });
      assert.equal(run.code, 1, run.stderr);
      const logs = parse(run.stdout);
      assert.ok(logs.filter((l) => l.msg === 'worker died unexpectedly').length >= 5);
      assert.ok(logs.some((l) => l.msg === 'workers keep dying: giving up'));
      assert.ok(!logs.some((l) => l.msg === 'listening'));
      const started = logs.filter((l) => l.msg === 'worker started').map((l) => l.workerPid as number);
      await eventually('every worker to be gone', () => (started.every(gone) ? true : undefined));
    } finally {
      await blocker.stop();
    }
  });

  for (const [label, args, env] of [
    ['--workers 0', ['--workers', '0'], {}],
    ['--workers x', ['--workers', 'x'], {}],
    ['--workers without a value', ['--workers'], {}],
    ['WORKERS=0', [], { WORKERS: '0' }],
    ['an unknown argument', ['--wrokers', '2'], {}],
  ] as const) {
    it(`exits 2 on ${label}`, async () => {
      const run = await runToExit(args, { DATABASE_URL: database.url, ...env });
      assert.equal(run.code, 2, run.stdout + run.stderr);
      assert.match(run.stderr, /configuration error: (--workers|WORKERS|--wrokers)/);
    });
  }

  it('exits 2 on a configuration error before forking', async () => {
    const run = await runToExit(['--workers', '2'], { DATABASE_URL: 'mysql://localhost/x' });
    assert.equal(run.code, 2, run.stdout + run.stderr);
    const tokens = await runToExit(['--workers', '2'], { DATABASE_URL: database.url, TOPOCAT_TOKENS: '{not json' });
    assert.equal(tokens.code, 2, tokens.stdout + tokens.stderr);
    assert.ok(!parse(tokens.stdout).some((l) => l.msg === 'worker started'), 'no worker was forked');
  });
});
