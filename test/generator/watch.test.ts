import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { copyProject } from '../helpers/project.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('generator --watch', function () {
  this.timeout(60_000);
  let dir: string;
  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('regenerates when a schema changes, and reports a broken one without stopping', async () => {
    dir = await copyProject();
    const watcher = spawn(process.execPath, ['--import', 'tsx', 'generator/cli.ts', '--watch'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    watcher.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    watcher.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const waitFor = async (pattern: RegExp): Promise<void> => {
      for (let i = 0; i < 200 && !pattern.test(output); i++) await sleep(100);
      assert.match(output, pattern);
    };
    try {
      await waitFor(/already up to date/);
      const file = path.join(dir, 'schemas/port.json');
      const schema = JSON.parse(await readFile(file, 'utf8'));
      await writeFile(file, '{ not json');
      await waitFor(/error: schemas\/port\.json: not valid JSON/);
      schema.properties.speed = { type: 'integer' };
      await writeFile(file, JSON.stringify(schema, null, 2));
      await waitFor(/changed\s+generated\/types\/port\.ts/);
      assert.match(await readFile(path.join(dir, 'generated/types/port.ts'), 'utf8'), /speed\?: number/);
    } finally {
      watcher.kill();
    }
  });
});
