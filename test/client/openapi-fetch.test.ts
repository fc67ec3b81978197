import assert from 'node:assert/strict';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { run } from '../helpers/project.js';
import { projectRoot, startServer, type RunningServer } from '../helpers/server.js';

/**
 * Standard tools trust the description: openapi-typescript makes types from openapi.json, and a
 * program with openapi-fetch on them type-checks under strict settings and works against the
 * server (query forms, merge-patch bodies, conditional writes, HEAD, error bodies).
 */
describe('openapi-fetch on openapi-typescript types', function () {
  this.timeout(120_000);
  let server: RunningServer;
  let dir: string;
  before(async () => {
    server = await startServer();
    // Inside the project, so the program resolves openapi-fetch from its node_modules.
    await mkdir(path.join(projectRoot, '.scratch'), { recursive: true });
    dir = await mkdtemp(path.join(projectRoot, '.scratch', 'openapi-fetch-'));
  });
  after(async () => {
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('types from openapi.json compile with the program, and the program passes against the server', async () => {
    const types = astToString(await openapiTS(new URL(`file://${path.join(projectRoot, 'generated/openapi.json')}`)));
    assert.match(types, /NodePatch: \{/);
    await writeFile(path.join(dir, 'api.ts'), types);
    await copyFile(path.join(projectRoot, 'test/client/consumer/openapi-fetch.ts'), path.join(dir, 'program.ts'));
    await writeFile(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    const compilerOptions = {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      skipLibCheck: false,
      types: ['node'],
      outDir: 'out',
    };
    await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['program.ts', 'api.ts'] }));
    try {
      await run(process.execPath, [path.join(projectRoot, 'node_modules/typescript/bin/tsc'), '-p', '.'], { cwd: dir });
    } catch (error) {
      assert.fail(`tsc failed:\n${(error as { stdout: string }).stdout}`);
    }
    const { stdout } = await run(process.execPath, ['out/program.js'], { cwd: dir, env: { PATH: process.env.PATH ?? '', TOPOCAT_URL: server.url } });
    assert.equal((JSON.parse(stdout) as { checked: string[] }).checked.length, 17, stdout);
  });
});
