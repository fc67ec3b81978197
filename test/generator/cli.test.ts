import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { copyProject, generate } from '../helpers/project.js';
import { projectRoot } from '../helpers/server.js';

/** `npm run generate`: deterministic output, a --check that finds stale files, located errors. */
describe('generator CLI', function () {
  let dir: string;
  before(async () => {
    dir = await copyProject();
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('the committed generated/ is up to date (--check passes)', async () => {
    const result = await generate(projectRoot, '--check');
    assert.equal(result.code, 0, result.stderr);
  });

  it('regenerating gives byte-identical files', async () => {
    const before = await readFile(path.join(dir, 'generated/validators/standalone.ts'), 'utf8');
    await rm(path.join(dir, 'generated'), { recursive: true });
    assert.equal((await generate(dir)).code, 0);
    assert.equal(await readFile(path.join(dir, 'generated/validators/standalone.ts'), 'utf8'), before);
    assert.equal((await generate(dir, '--check')).code, 0);
  });

  it('--check exits 1 and names changed, missing and orphaned files', async () => {
    await writeFile(path.join(dir, 'generated/types/node.ts'), '// edited by hand\n');
    await rm(path.join(dir, 'generated/openapi.json'));
    await writeFile(path.join(dir, 'generated/rest/routes/gone.ts'), '// no source\n');
    const result = await generate(dir, '--check');
    assert.equal(result.code, 1);
    assert.match(result.stderr, /changed\s+generated\/types\/node\.ts/);
    assert.match(result.stderr, /missing\s+generated\/openapi\.json/);
    assert.match(result.stderr, /orphaned\s+generated\/rest\/routes\/gone\.ts/);
    assert.equal((await generate(dir)).code, 0);
    assert.equal((await generate(dir, '--check')).code, 0, 'a run repairs everything, orphans included');
  });

  it('--check finds a hand edit of an SDK package\'s compiled code, even under its stamp', async () => {
    const file = path.join(dir, 'generated/client/rest/dist/client/rest-runtime.js');
    const compiled = await readFile(file, 'utf8');
    await writeFile(file, compiled.replace('const MEDIA_TYPE', 'const MEDIA_TYPE_EDITED'));
    const result = await generate(dir, '--check');
    assert.equal(result.code, 1);
    assert.match(result.stderr, /changed\s+generated\/client\/rest\/dist\/client\/rest-runtime\.js/);
    assert.equal((await generate(dir)).code, 0);
    assert.equal(await readFile(file, 'utf8'), compiled);
  });

  it('a schema change makes --check fail until generate runs', async () => {
    const file = path.join(dir, 'schemas/node.json');
    const schema = JSON.parse(await readFile(file, 'utf8'));
    schema.properties.rack = { type: 'string' };
    await writeFile(file, JSON.stringify(schema, null, 2));
    const stale = await generate(dir, '--check');
    assert.equal(stale.code, 1);
    assert.match(stale.stderr, /generated\/types\/node\.ts/);
    assert.equal((await generate(dir)).code, 0);
    assert.match(await readFile(path.join(dir, 'generated/types/node.ts'), 'utf8'), /rack\?: string/);
  });

  const broken: [string, { file: string; content: string; want: RegExp }][] = [
    ['malformed JSON (line and column)', { file: 'broken.json', content: '{\n  "title": "Broken",\n  oops\n}', want: /schemas\/broken\.json: not valid JSON: .* at line 3, column 3/ }],
    ['a wrong dialect', { file: 'broken.json', content: JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', $id: 'https://topocat.dev/schema/20120709/broken', title: 'Broken' }), want: /schemas\/broken\.json#\/\$schema: must be/ }],
    ['an $id that does not match the file', { file: 'broken.json', content: JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', $id: 'https://topocat.dev/schema/20120709/other', title: 'Broken' }), want: /schemas\/broken\.json#\/\$id: must end with "\/broken"/ }],
    ['a dangling $ref, located', { file: 'broken.json', content: JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', $id: 'https://topocat.dev/schema/20120709/broken', title: 'Broken', 'x-collection': false, type: 'object', properties: { a: { $ref: 'nowhere#/x' } } }), want: /schemas\/broken\.json#\/properties\/a\/\$ref: \$ref "nowhere#\/x" names .* not a schema in this project/ }],
    ['an invalid keyword value, located', { file: 'broken.json', content: JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', $id: 'https://topocat.dev/schema/20120709/broken', title: 'Broken', 'x-collection': false, type: 'object', properties: { a: { type: 'strnig' } } }), want: /schemas\/broken\.json#\/properties\/a\/type: not a valid 2020-12 schema/ }],
    ['a schema without x-collection', { file: 'broken.json', content: JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', $id: 'https://topocat.dev/schema/20120709/broken', title: 'Broken', type: 'object' }), want: /schemas\/broken\.json: has no "x-collection": name the collection .* or declare a document of shared definitions only \("x-collection": false\)/ }],
    ['a misspelled keyword (strict mode), located', { file: 'broken.json', content: JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', $id: 'https://topocat.dev/schema/20120709/broken', title: 'Broken', 'x-collection': 'brokens', type: 'object', properties: { a: { type: 'string', 'x-indx': true } } }), want: /schemas\/broken\.json#\/properties\/a\/x-indx: unknown keyword "x-indx"/ }],
    ['a kind that is not "type": "object"', { file: 'broken.json', content: JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', $id: 'https://topocat.dev/schema/20120709/broken', title: 'Broken', 'x-collection': 'brokens', properties: { a: { type: 'string' } } }), want: /schemas\/broken\.json#\/type: a kind \(a schema with an x-collection\) must say "type": "object"/ }],
    ['a duplicate collection', { file: 'broken.json', content: JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', $id: 'https://topocat.dev/schema/20120709/broken', title: 'Broken', 'x-collection': 'nodes', type: 'object' }), want: /schemas\/(broken|node)\.json#\/x-collection: "nodes" is already the collection of schemas\/(node|broken)\.json/ }],
    // Paths the server answers itself (the HTTP contract table, generator/model/http.ts).
    ...['ui', 'events', 'data', 'health'].map((name): [string, { file: string; content: string; want: RegExp }] => [
      `a collection named "${name}", which the server answers itself`,
      { file: 'broken.json', content: JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', $id: 'https://topocat.dev/schema/20120709/broken', title: 'Broken', 'x-collection': name, type: 'object' }), want: new RegExp(`schemas/broken\\.json#/x-collection: "${name}" is a path the server answers itself`) },
    ]),
    ['an index inside an array', { file: 'broken.json', content: JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', $id: 'https://topocat.dev/schema/20120709/broken', title: 'Broken', 'x-collection': 'brokens', type: 'object', properties: { list: { type: 'array', items: { type: 'string', 'x-index': true } } } }), want: /schemas\/broken\.json: x-index on "list"/ }],
  ];
  for (const [name, { file, content, want }] of broken) {
    it(`reports ${name} with file and JSON pointer`, async () => {
      const target = path.join(dir, 'schemas', file);
      await writeFile(target, content);
      try {
        const result = await generate(dir);
        assert.equal(result.code, 1);
        assert.match(result.stderr, want);
        assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace for input errors');
      } finally {
        await rm(target);
      }
    });
  }
});
