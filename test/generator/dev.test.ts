import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { get } from '../helpers/http.js';
import { copyProject } from '../helpers/project.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `npm run dev` in a copy of the project: a new schema becomes a served collection without a manual step. */
describe('npm run dev', function () {
  this.timeout(240_000);
  let dir: string;
  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('regenerates, rebuilds and restarts the server when a schema is added; SIGTERM to npm stops it all', async () => {
    dir = await copyProject();
    // Through npm, as people run it: npm passes SIGTERM on to its script, which must stop the server.
    const dev = spawn('npm', ['run', 'dev'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PORT: '0', DATABASE_URL: `sqlite:${path.join(dir, 'dev.sqlite')}`, LOG_LEVEL: 'info' },
    });
    const lines: string[] = [];
    for (const stream of [dev.stdout, dev.stderr]) createInterface({ input: stream }).on('line', (line) => lines.push(line));
    const listening = (): string[] => lines.filter((l) => l.includes('"msg":"listening"')).map((l) => `http://127.0.0.1:${(JSON.parse(l) as { port: number }).port}`);
    const waitFor = async (what: string, test: () => boolean): Promise<void> => {
      for (let i = 0; i < 1800 && !test(); i++) await sleep(100);
      assert.ok(test(), `${what}; output:\n${lines.join('\n')}`);
    };
    try {
      await waitFor('the first server', () => listening().length === 1);
      assert.equal((await get(`${listening()[0]}/racks`)).status, 404);

      await writeFile(
        path.join(dir, 'schemas/rack.json'),
        JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', $id: 'https://topocat.dev/schema/20120709/rack', title: 'Rack', 'x-collection': 'racks', type: 'object', properties: { id: { type: 'string' }, ts: { type: 'integer' }, name: { type: 'string' } } }, null, 2),
      );
      // Each build restarts the server; the newest one serves the new collection.
      let created: { name?: string } = {};
      for (let i = 0; i < 600 && created.name !== 'r1'; i++) {
        await sleep(200);
        const url = listening().at(-1)!;
        created = await fetch(`${url}/racks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'r1' }) })
          .then(async (r) => (r.status === 201 ? ((await r.json()) as { name: string }) : {}))
          .catch(() => ({}));
      }
      assert.equal(created.name, 'r1', lines.join('\n'));
      assert.ok(lines.some((l) => l.includes('[dev] build ok: restarting the server')));
    } finally {
      const exited = new Promise<number | null>((resolve) => dev.once('exit', resolve));
      dev.kill('SIGTERM');
      assert.equal(await exited, 0, lines.join('\n'));
    }
    // Every server it started is gone, the last one after a graceful stop.
    const pids = lines.filter((l) => l.includes('"msg":"listening"')).map((l) => (JSON.parse(l) as { pid: number }).pid);
    assert.ok(pids.length >= 2);
    for (const pid of pids) assert.throws(() => process.kill(pid, 0), /ESRCH/, `server ${pid} outlived npm run dev`);
    assert.ok(lines.some((l) => l.includes('"msg":"stopped"') && l.includes(`"pid":${pids.at(-1)}`)), lines.join('\n'));
  });
});
