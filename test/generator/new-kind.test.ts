import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { get, post } from '../helpers/http.js';
import { codeBlocks } from '../helpers/consumer.js';
import { copyProject, generate, run } from '../helpers/project.js';
import { projectRoot, startServer } from '../helpers/server.js';

/** Adding a kind is schema-only: a schema file, `npm run generate`, a build, and it is served. */
describe('a new kind from a schema alone', function () {
  this.timeout(120_000);
  let dir: string;
  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('gets a validated, queryable collection with no hand-written code, the README\'s example schema too', async () => {
    dir = await copyProject();
    // "Add a kind" in the README, followed literally: its example schema file.
    const [example] = codeBlocks(await readFile(path.join(projectRoot, 'README.md'), 'utf8'), 'json');
    assert.ok(example, 'the README has an example schema');
    await writeFile(path.join(dir, 'schemas/rack.json'), example);
    await writeFile(
      path.join(dir, 'schemas/measurement.json'),
      JSON.stringify({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        $id: 'https://topocat.dev/schema/20120709/measurement',
        title: 'Measurement',
        'x-collection': 'measurements',
        type: 'object',
        allOf: [{ $ref: 'networkresource' }],
        properties: { value: { type: 'number' }, unit: { type: 'string', 'x-index': true } },
        required: ['value'],
      }),
    );
    const generated = await generate(dir);
    assert.equal(generated.code, 0, generated.stderr);
    await run(process.execPath, [path.join(dir, 'node_modules/typescript/bin/tsc'), '-p', '.'], { cwd: dir });

    const server = await startServer({ entry: path.join(dir, 'dist/server/main.js') });
    try {
      const created = await post(`${server.url}/measurements`, { value: 9.5, unit: 'ms', name: 'rtt' });
      assert.equal(created.status, 201, created.text);
      assert.match(created.body.$schema, /\/schema\/20120709\/measurement#$/);
      assert.equal((await post(`${server.url}/measurements`, { unit: 'ms' })).status, 400, 'value is required');
      const found = await get(`${server.url}/measurements?unit=ms&value=gt=9`);
      assert.deepEqual(found.body.map((m: { id: string }) => m.id), [created.body.id]);
      const schema = await get(`${server.url}/schema/20120709/measurement`);
      assert.equal(schema.body.title, 'Measurement');
      const openapi = await get(`${server.url}/openapi.json`);
      assert.ok(openapi.body.paths['/measurements/{id}']);

      const rack = await post(`${server.url}/racks`, { name: 'rack-1', row: 'A', node: { href: `${server.url}/nodes/n1`, rel: 'full' } });
      assert.equal(rack.status, 201, rack.text);
      assert.equal((await post(`${server.url}/racks`, { row: 7 })).status, 400, 'row is a string');
      assert.deepEqual((await get(`${server.url}/racks?row=A`)).body.map((r: { name: string }) => r.name), ['rack-1']);
    } finally {
      await server.stop();
    }
  });
});
