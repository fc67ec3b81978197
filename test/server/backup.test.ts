import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, engine, postgresUrl, withPostgres, type TestDatabase } from '../helpers/database.js';
import { get, patch, post } from '../helpers/http.js';
import { distRoot, startServer } from '../helpers/server.js';

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(command: string, args: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { PATH: process.env.PATH ?? '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const backupCli = path.join(distRoot, 'server/backup-cli.js');

/** A fresh database holding what `file` holds: a copy of the SQLite file, or pg_restore into a new PostgreSQL database. */
async function restore(file: string, from: TestDatabase, dir: string): Promise<TestDatabase> {
  if (engine === 'sqlite') {
    const target = path.join(dir, 'restored.sqlite');
    await copyFile(file, target);
    return { url: `sqlite:${target}`, drop: async () => undefined };
  }
  const name = `topocat_restore_${randomBytes(6).toString('hex')}`;
  await withPostgres(postgresUrl(), (knex) => knex.raw(`CREATE DATABASE ${name}`));
  const base = new URL(postgresUrl());
  base.pathname = `/${name}`;
  const restored = await run('pg_restore', ['--no-owner', `--dbname=${base.toString()}`, file]);
  assert.equal(restored.code, 0, restored.stderr);
  return {
    url: `${base.toString()}?schema=${from.schema!}`,
    drop: () => withPostgres(postgresUrl(), (knex) => knex.raw(`DROP DATABASE ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

/**
 * `npm run backup -- <file>` while writers keep writing; the copy restored into a fresh
 * database; a server started on it has every write acknowledged before the backup began, each
 * with its versions.
 */
describe('backup and restore', function () {
  this.timeout(180_000);
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'topocat-backup-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('backs up during concurrent writes; the restored database has every write acknowledged before the backup began', async () => {
    const database = await createTestDatabase();
    const server = await startServer({ database });
    const file = path.join(dir, engine === 'sqlite' ? 'backup.sqlite' : 'backup.dump');
    /** Acknowledged versions: id → ts of each, and when the acknowledgement came. */
    const acknowledged: { id: string; ts: number; at: number }[] = [];
    let writing = true;
    const writer = async (w: number) => {
      for (let i = 0; writing; i++) {
        const id = `w${w}-${i}`;
        const created = await post(`${server.url}/nodes`, { id, name: `n${i}`, description: 'x'.repeat(500) });
        assert.equal(created.status, 201, created.text);
        acknowledged.push({ id, ts: created.body.ts, at: performance.now() });
        const changed = await patch(`${server.url}/nodes/${id}`, { name: `n${i}b` });
        assert.equal(changed.status, 200, changed.text);
        acknowledged.push({ id, ts: changed.body.ts, at: performance.now() });
      }
    };
    let restored: TestDatabase | undefined;
    try {
      const writers = [0, 1, 2, 3].map(writer);
      // Writes before the backup, and during it.
      while (acknowledged.length < 400) await new Promise((resolve) => setTimeout(resolve, 20));
      const began = performance.now();
      const backup = await run(process.execPath, [backupCli, file], { DATABASE_URL: database.url });
      const during = acknowledged.filter((a) => a.at > began).length;
      writing = false;
      await Promise.all(writers);
      assert.equal(backup.code, 0, backup.stderr);
      assert.match(backup.stdout, /^backup written to .*: \d+ bytes in \d+ ms\nto restore: /);
      assert.ok(during > 0, 'writes were acknowledged while the backup ran');
      const before = acknowledged.filter((a) => a.at <= began);

      restored = await restore(file, database, dir);
      const again = await startServer({ database: restored });
      try {
        for (const { id, ts } of before) {
          const version = await get(`${again.url}/nodes/${id}?ts=${ts}`);
          assert.equal(version.status, 200, `${id} at ${ts}: ${version.text}`);
        }
        // Each resource with its versions, newest first.
        const ids = [...new Set(before.map((a) => a.id))];
        for (const id of ids.slice(0, 50)) {
          const versions = (await get(`${again.url}/nodes/${id}?ts=gt=0`)).body as { ts: number }[];
          const want = before.filter((a) => a.id === id).map((a) => a.ts).sort((a, b) => b - a);
          assert.deepEqual(versions.map((v) => v.ts).slice(-want.length), want, id);
        }
        // The restored service takes writes.
        assert.equal((await post(`${again.url}/nodes`, { name: 'after restore' })).status, 201);
      } finally {
        assert.equal(await again.stop(), 0);
      }
    } finally {
      writing = false;
      await server.stop();
      await restored?.drop();
    }
  });

  for (const [name, { args, want, code, ...rest }] of [
    ['--help', { args: ['--help'], want: /^usage: npm run backup -- <file>/, code: 0 }],
    ['no file', { args: [], want: /^error: name one file to write the backup to/, code: 2 }],
    ['an existing file', { args: ['{dir}'], want: /exists; choose another name or add --force/, code: 2 }],
    ['a missing folder', { args: ['{dir}/missing/backup'], want: /^error: the folder .* does not exist/, code: 2 }],
    ['no database file', { args: ['{dir}/backup-of-none'], want: /^error: there is no database at sqlite:.*none\.sqlite$/m, code: 1, database: 'sqlite:{dir}/none.sqlite' }],
  ] as const) {
    it(`backup with ${name}: exit ${code}, says why`, async () => {
      const database = ('database' in rest ? rest.database : 'sqlite:/nonexistent/topocat.sqlite').replace('{dir}', dir);
      const answer = await run(process.execPath, [backupCli, ...args.map((a) => a.replace('{dir}', dir))], { DATABASE_URL: database });
      assert.equal(answer.code, code, answer.stderr);
      assert.match(code === 0 ? answer.stdout : answer.stderr, want);
    });
  }
});
