import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { get } from '../helpers/http.js';
import { run } from '../helpers/project.js';
import { distRoot, projectRoot, startServer, type RunningServer } from '../helpers/server.js';

interface Outcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function command(args: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(process.execPath, args, { cwd: projectRoot, env: { PATH: process.env.PATH ?? '', ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const START = path.join(distRoot, 'server/main.js');
const GENERATE = ['--import', 'tsx', 'generator/cli.ts'];
const TOKEN = ['--import', 'tsx', 'server/token-cli.ts'];

/** The command line: --help everywhere, one-line errors, and log lines a person can act on. */
describe('command line and start failures', function () {
  this.timeout(60_000);

  const helps: [string, { args: readonly string[]; want: RegExp }][] = [
    ['npm start -- --help', { args: [START, '--help'], want: /^usage: npm start \[-- --workers N \| --check-data \[--json\] \| import … \| export … \| --version \| --help\][\s\S]*DATABASE_URL[\s\S]*CORS_ORIGINS[\s\S]*import --from/ }],
    ['npm run import -- --help', { args: [START, 'import', '--help'], want: /^usage: npm run import -- --from <source>[\s\S]*--rebase[\s\S]*--dry-run[\s\S]*Exit code/ }],
    ['npm run check-data -- --help', { args: [START, '--check-data', '--help'], want: /^usage: npm run check-data[\s\S]*--json[\s\S]*Exit code/ }],
    ['npm run export -- --help', { args: [START, 'export', '--help'], want: /^usage: npm run export -- --to <dir>[\s\S]*mongoimport[\s\S]*Exit code/ }],
    ['npm run generate -- --help', { args: [...GENERATE, '--help'], want: /^usage: npm run generate[\s\S]*--check[\s\S]*--watch/ }],
    ['npm run token -- --help', { args: [...TOKEN, '--help'], want: /^usage: npm run token[\s\S]*--scopes/ }],
  ];
  for (const [name, { args, want }] of helps) {
    it(`${name} prints its usage and exits 0`, async () => {
      const outcome = await command(args);
      assert.equal(outcome.code, 0, outcome.stderr);
      assert.match(outcome.stdout, want);
    });
  }

  const mistakes: [string, { args: readonly string[]; want: RegExp }][] = [
    ['start with an unknown option', { args: [START, '--wrokers', '2'], want: /^configuration error: --wrokers: unknown argument/ }],
    ['generate with an unknown option', { args: [...GENERATE, '--chek'], want: /^error: Unknown option '--chek'/ }],
    ['token with an unknown option', { args: [...TOKEN, '--nmae', 'x'], want: /^error: Unknown option '--nmae'/ }],
    ['check-data with an unknown option', { args: [START, '--check-data', '--jsno'], want: /^error: Unknown option '--jsno'/ }],
    ['export with an unknown option', { args: [START, 'export', '--too', 'x'], want: /^error: Unknown option '--too'/ }],
  ];
  // Standbys (DATABASE_READ_URLS) serve reads of a PostgreSQL primary only; the message never shows a password.
  const settings: [string, { env: Readonly<Record<string, string>>; want: RegExp }][] = [
    ['standbys of a SQLite file', { env: { DATABASE_URL: 'sqlite:./nowhere.sqlite', DATABASE_READ_URLS: 'postgres://127.0.0.1:5433/db' }, want: /^configuration error: DATABASE_READ_URLS: standbys serve reads of a PostgreSQL DATABASE_URL only/ }],
    ['a standby that is not PostgreSQL', { env: { DATABASE_URL: 'postgres://127.0.0.1:5432/db', DATABASE_READ_URLS: 'postgres://127.0.0.1:5433/db, mysql://u:secret@h/db' }, want: /^configuration error: DATABASE_READ_URLS: each a postgres:\/\/ URL of a streaming standby, not "mysql:\/\/\*\*\*@h\/db"/ }],
    ['READ_WAIT_MS that is not a number', { env: { DATABASE_URL: 'postgres://127.0.0.1:5432/db', DATABASE_READ_URLS: 'postgres://127.0.0.1:5433/db', READ_WAIT_MS: 'soon' }, want: /^configuration error: READ_WAIT_MS/ }],
  ];
  for (const [name, { env, want }] of settings) {
    it(`start with ${name}: exit 2, a first line that says what is wrong, no stack`, async () => {
      const outcome = await command([START], env);
      assert.equal(outcome.code, 2, outcome.stderr);
      assert.match(outcome.stderr, want);
      assert.doesNotMatch(outcome.stderr, /secret|\n\s+at /);
    });
  }

  for (const [name, { args, want }] of mistakes) {
    it(`${name}: exit 2, a first line that says what is wrong, no stack`, async () => {
      const outcome = await command(args);
      assert.equal(outcome.code, 2);
      assert.match(outcome.stderr, want);
      assert.doesNotMatch(outcome.stderr, /\n\s+at /);
    });
  }

  describe('with a server running', function () {
    let server: RunningServer;
    before(async () => {
      server = await startServer();
    });
    after(async () => {
      await server.stop();
    });

    it('a second server on the same port says so in one line and exits 1', async () => {
      const port = new URL(server.url).port;
      const child = spawn(process.execPath, [START], { env: { PATH: process.env.PATH ?? '', PORT: port, DATABASE_URL: server.database.url, LOG_LEVEL: 'silent' } });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      assert.equal(code, 1);
      assert.equal(stderr, `error: port ${port} on 127.0.0.1 is already in use; stop the other server or set PORT to a free port (PORT=0 picks one)\n`);
    });

    it('logs a client error with its query and the reason, credentials masked', async () => {
      const answer = await get(`${server.url}/nodes?limit=lots&access_token=tc_secret-0000000000000000000000&x=tc_leaked-00000000000000000000`, { 'x-request-id': 'bad-query-1' });
      assert.equal(answer.status, 400);
      const line = await waitForLine(server, 'bad-query-1');
      assert.equal(line.status, 400);
      assert.equal(line.query, 'limit=lots&access_token=***&x=***');
      assert.match(String(line.reason), /limit/);
      assert.ok(!JSON.stringify(server.logs).includes('tc_secret') && !JSON.stringify(server.logs).includes('tc_leaked'));
    });

    it('a success logs no query', async () => {
      await get(`${server.url}/nodes?limit=1`, { 'x-request-id': 'good-query-1' });
      const line = await waitForLine(server, 'good-query-1');
      assert.equal(line.status, 200);
      assert.equal(line.query, undefined);
      assert.equal(line.reason, undefined);
    });
  });
});

async function waitForLine(server: RunningServer, requestId: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 100; i++) {
    const line = server.logs.find((l) => l.msg === 'request' && l.requestId === requestId);
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no log line for ${requestId}`);
}
