import assert from 'node:assert/strict';
import { copyFile, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { codeBlocks, createConsumer, RESOLUTIONS, SDK_DIRS, type Consumer, type Resolution } from '../helpers/consumer.js';
import { projectRoot, startServer, type RunningServer } from '../helpers/server.js';

/**
 * The SDKs as a user gets them: each generated client packed with `npm pack`, installed from the
 * tarball into a project of its own, type-checked under the strictest settings with both module
 * resolutions, and run against a real server.
 */
describe('SDK packages', function () {
  this.timeout(180_000);
  let server: RunningServer;
  let consumer: Consumer;
  const programs: string[] = [];

  before(async () => {
    [server, consumer] = await Promise.all([startServer(), createConsumer()]);
    await copyFile(path.join(projectRoot, 'test/client/consumer/every-operation.ts'), path.join(consumer.dir, 'every-operation.ts'));
    programs.push('every-operation.ts');
    for (const sdk of ['.', ...SDK_DIRS]) {
      const readme = await readFile(path.join(projectRoot, sdk, 'README.md'), 'utf8');
      for (const [i, code] of codeBlocks(readme, 'ts').entries()) {
        const name = `${sdk === '.' ? 'project' : path.basename(sdk)}-readme-${i}.ts`;
        await writeFile(path.join(consumer.dir, name), code.replaceAll('http://127.0.0.1:8080', server.url));
        programs.push(name);
      }
    }
  });
  after(async () => {
    await server?.stop();
    if (consumer) await rm(consumer.dir, { recursive: true, force: true });
  });

  it('each package declares ESM exports with types, its dependencies and no server dependency', async () => {
    for (const sdk of SDK_DIRS) {
      const manifest = JSON.parse(await readFile(path.join(consumer.dir, 'node_modules/@topocat', `${path.basename(sdk)}-client`, 'package.json'), 'utf8'));
      assert.equal(manifest.type, 'module');
      assert.ok(manifest.exports['.'].types.endsWith('.d.ts'));
      assert.ok(manifest.exports['.'].default.endsWith('.js'));
      const dependencies = Object.keys(manifest.dependencies ?? {});
      assert.deepEqual(dependencies, sdk.endsWith('soap') ? ['saxes'] : [], sdk);
    }
  });

  for (const resolution of Object.keys(RESOLUTIONS) as Resolution[]) {
    it(`type-checks every operation and the README examples (strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess, verbatimModuleSyntax, erasableSyntaxOnly, moduleResolution ${resolution})`, async () => {
      await consumer.typecheck(resolution, programs);
    });
  }

  it('runs every operation of both clients against the server', async () => {
    const output = JSON.parse(await consumer.run('every-operation', { TOPOCAT_URL: server.url })) as { checked: string[] };
    assert.ok(output.checked.includes('deleteUser'), output.checked.join('\n'));
    assert.equal(output.checked.length, 40, output.checked.join('\n'));
  });

  it('runs the README examples (the project\'s and both packages\') against the server', async () => {
    const outputs = await Promise.all(programs.filter((p) => p.includes('readme')).map((p) => consumer.run(p.replace(/\.ts$/, ''), {})));
    assert.match(outputs.join('\n'), /changed meanwhile: 412/);
    assert.match(outputs.join('\n'), /refused: 412/);
    assert.match(outputs.join('\n'), /found: \[ '[^']*\/storm\/nam' \]/);
  });
});
