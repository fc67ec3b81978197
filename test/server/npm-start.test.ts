import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { get } from '../helpers/http.js';
import { run } from '../helpers/project.js';
import { projectRoot } from '../helpers/server.js';
import { eventually } from '../helpers/wait.js';

const ENV = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' };

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function npm(cwd: string, args: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('npm', args, { cwd, env: { ...ENV, ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** `npm start` as the README runs it: the built checkout, its version, and its stop by signal. */
describe('npm start', function () {
  this.timeout(60_000);

  it('--version prints the version of package.json without building', async () => {
    const { version } = JSON.parse(await readFile(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string };
    const outcome = await npm(projectRoot, ['start', '--silent', '--', '--version'], { TOPOCAT_NO_REBUILD: 'true' });
    assert.equal(outcome.code, 0, outcome.stderr);
    assert.equal(outcome.stdout, `topocat ${version}\n`);
  });

  describe('stopped by a signal to npm itself', function () {
    let database: TestDatabase;
    before(async () => {
      database = await createTestDatabase();
    });
    after(async () => {
      await database.drop();
    });

    // What systemd and Docker send (SIGTERM), and a terminal's Ctrl-C (SIGINT): npm passes both
    // on to its script, which must be the server itself, not a shell that dies and leaves it.
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      it(`${signal} to npm stops the server gracefully: no process left, exit 0`, async () => {
        const child = spawn('npm', ['start'], {
          cwd: projectRoot,
          env: { ...ENV, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', DATABASE_URL: database.url, TOPOCAT_NO_REBUILD: 'true' },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        const lines: Record<string, unknown>[] = [];
        createInterface({ input: child.stdout! }).on('line', (line) => {
          if (line.startsWith('{')) lines.push(JSON.parse(line) as Record<string, unknown>);
        });
        const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
        const listening = await eventually('the listening line', () => lines.find((l) => l.msg === 'listening'), 30_000);
        const serverPid = listening.pid as number;
        assert.notEqual(serverPid, child.pid);
        assert.equal((await get(`http://127.0.0.1:${String(listening.port)}/health`)).status, 200);

        child.kill(signal);
        try {
          assert.equal(await exited, 0);
          await eventually('the server process to be gone', () => (alive(serverPid) ? undefined : true));
        } finally {
          // An orphaned server must not outlive the test run.
          if (alive(serverPid)) process.kill(serverPid, 'SIGKILL');
        }
        assert.ok(lines.some((l) => l.msg === 'stopped' && l.pid === serverPid), 'the server logged its graceful stop');
      });
    }
  });

  /**
   * tools/start.js in a scratch folder whose `build` script only records that it ran: the
   * decision to rebuild, without a real build.
   */
  describe('rebuilds only when a source is newer than the build', function () {
    let dir: string;
    const build = async (): Promise<void> => {
      await mkdir(path.join(dir, 'dist/server'), { recursive: true });
      await writeFile(path.join(dir, 'dist/server/main.js'), "console.log('server ran');\n");
      await writeFile(path.join(dir, 'dist/.build-complete'), '');
    };
    beforeEach(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'topocat-start-'));
      await mkdir(path.join(dir, 'tools'));
      await mkdir(path.join(dir, 'server'));
      await copyFile(path.join(projectRoot, 'tools/start.js'), path.join(dir, 'tools/start.js'));
      await writeFile(path.join(dir, 'build.js'), [
        "import { mkdirSync, writeFileSync } from 'node:fs';",
        "mkdirSync('dist/server', { recursive: true });",
        "writeFileSync('dist/server/main.js', \"console.log('server ran');\\n\");",
        "writeFileSync('dist/.build-complete', '');",
        "console.log('built');",
      ].join('\n'));
      await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'scratch', version: '1.0.0', type: 'module', scripts: { build: 'node build.js', start: 'exec node tools/start.js' } }));
      await writeFile(path.join(dir, 'server/a.ts'), 'export {};\n');
    });
    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    const past = new Date(Date.now() - 60_000);
    const cases: [string, { given: () => Promise<void>; env?: Record<string, string>; want: { built: boolean; stderr: RegExp } }][] = [
      ['a build newer than every source starts at once', {
        given: async () => {
          for (const file of ['server/a.ts', 'package.json', 'tools/start.js']) await utimes(path.join(dir, file), past, past);
          await build();
        },
        want: { built: false, stderr: /^$/ },
      }],
      ['a source changed after the build: built first, and said so', {
        given: async () => {
          await build();
          await utimes(path.join(dir, 'dist/.build-complete'), past, past);
        },
        want: { built: true, stderr: /changed after the last build: building first \(npm run build\)/ },
      }],
      ['no build at all: built first', {
        given: async () => undefined,
        want: { built: true, stderr: /^there is no complete build \(dist\/\): building first/ },
      }],
      ['stale, with TOPOCAT_NO_REBUILD=true: started anyway, with a warning', {
        given: async () => {
          await build();
          await utimes(path.join(dir, 'dist/.build-complete'), past, past);
        },
        env: { TOPOCAT_NO_REBUILD: 'true' },
        want: { built: false, stderr: /^warning: the build is stale: server\/a\.ts changed after the last build; starting it anyway/ },
      }],
    ];
    for (const [name, { given, env, want }] of cases) {
      it(name, async () => {
        await given();
        const outcome = await npm(dir, ['start', '--silent'], env);
        assert.equal(outcome.code, 0, outcome.stderr);
        assert.match(outcome.stderr, want.stderr);
        assert.match(outcome.stdout, /server ran\n$/);
        // The build's output goes to stderr, so stdout stays the server's.
        assert.equal(/^built$/m.test(outcome.stderr), want.built, outcome.stderr);
      });
    }
  });
});
