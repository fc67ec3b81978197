import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { run } from '../helpers/project.js';
import { projectRoot, startServer, type RunningServer } from '../helpers/server.js';

type Json = Record<string, any>;

/** A program that reads what it fetched, the most basic use of a generated client; it is only type-checked. */
const PROGRAM = `import createClient from 'openapi-fetch';
import type { paths } from './api.js';

const client = createClient<paths, 'application/json'>({ baseUrl: 'http://127.0.0.1:8080' });
const read = await client.GET('/nodes/{id}', { params: { path: { id: 'n1' } } });
// An array only with conditions (the description says so): without them, the node.
const node = read.data;
if (node !== undefined && !Array.isArray(node)) console.log(node.properties, node.name);
const listed = await client.GET('/nodes', {});
console.log(listed.data?.[0]?.id, listed.data?.length);
`;

async function served(server: RunningServer): Promise<Json> {
  return (await (await fetch(`${server.url}/openapi.json`)).json()) as Json;
}

/**
 * Only a lookup's reads answer its Redirect (docs/federation.md), so only the description a
 * lookup serves says so: a client generated from an instance's reads the node it fetched without
 * narrowing a Redirect away (openapi-typescript's types, openapi-fetch, strict settings).
 */
describe('the description an instance serves and the one a lookup serves', function () {
  this.timeout(120_000);
  let instance: RunningServer;
  let lookup: RunningServer;
  let dir: string;
  before(async () => {
    [instance, lookup] = await Promise.all([startServer(), startServer({ env: { LOOKUP: 'true' } })]);
    // Inside the project, so the program resolves openapi-fetch from its node_modules.
    await mkdir(path.join(projectRoot, '.scratch'), { recursive: true });
    dir = await mkdtemp(path.join(projectRoot, '.scratch', 'served-description-'));
  });
  after(async () => {
    await Promise.all([instance?.stop(), lookup?.stop()]);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("an instance's: a program reading .properties of a GET answer type-checks", async () => {
    const document = await served(instance);
    await writeFile(path.join(dir, 'api.ts'), astToString(await openapiTS(document as OpenAPI3)));
    await writeFile(path.join(dir, 'program.ts'), PROGRAM);
    await writeFile(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    const compilerOptions = { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, noEmit: true, types: ['node'] };
    await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['program.ts', 'api.ts'] }));
    try {
      await run(process.execPath, [path.join(projectRoot, 'node_modules/typescript/bin/tsc'), '-p', '.'], { cwd: dir });
    } catch (error) {
      assert.fail(`tsc failed:\n${(error as { stdout: string }).stdout}`);
    }
    assert.equal(JSON.stringify(document).includes('Redirect'), false, 'no Redirect anywhere in an instance\'s description');
  });

  it("a lookup's: every resource collection's list and read may answer the Redirect", async () => {
    const document = await served(lookup);
    assert.deepEqual(document.components.schemas.Redirect.required, ['redirect', 'instances']);
    const redirect = { $ref: '#/components/schemas/Redirect' };
    for (const template of ['/nodes', '/nodes/{id}', '/links', '/links/{id}', '/services', '/services/{id}']) {
      const content = document.paths[template].get.responses['200'].content;
      for (const media of ['application/json', 'application/topology+json', 'application/perfsonar+json']) {
        assert.ok((content[media].schema.anyOf as unknown[]).some((s) => JSON.stringify(s) === JSON.stringify(redirect)), `${template} ${media}`);
      }
    }
    // `/register` is served as on any instance, also by a lookup: no Redirect there.
    assert.equal(JSON.stringify(document.paths['/register']).includes('Redirect'), false);
    assert.equal(JSON.stringify(document.paths['/register/{id}']).includes('Redirect'), false);
  });
});
