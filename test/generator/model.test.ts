import assert from 'node:assert/strict';
import path from 'node:path';
import { buildModel } from '../../generator/pipeline.js';
import type { Model } from '../../generator/model/model.js';
import { projectRoot } from '../helpers/server.js';

/** The intermediate model built from the project's own schemas. */
describe('generator model', () => {
  let model: Model;
  before(async () => {
    model = await buildModel({ root: projectRoot, schemaDir: 'schemas' });
  });

  it('has the nine kinds of the contract and UNIS\'s three further ones, with their collections', () => {
    assert.deepEqual(
      model.kinds.map((k) => [k.name, k.collection]),
      [
        ['Domain', 'domains'], ['Exnode', 'exnodes'], ['Extent', 'extents'], ['Link', 'links'], ['Measurement', 'measurements'], ['Metadata', 'metadata'],
        ['Network', 'networks'], ['Node', 'nodes'], ['Path', 'paths'], ['Port', 'ports'], ['Service', 'services'], ['Topology', 'topologies'],
      ],
    );
    assert.equal(model.schemaBase, 'https://topocat.dev/schema/20120709');
    assert.equal(model.schemaVersion, '20120709');
  });

  it('gives every kind the six operations', () => {
    for (const kind of model.kinds) {
      const ops = model.operations.filter((o) => o.rest?.kind === kind.slug).map((o) => `${o.rest!.method} ${o.rest!.path}`);
      assert.deepEqual(ops, [`POST /${kind.collection}`, `GET /${kind.collection}`, `GET /${kind.collection}/{id}`, `PUT /${kind.collection}/{id}`, `PATCH /${kind.collection}/{id}`, `DELETE /${kind.collection}/{id}`]);
    }
  });

  it('knows which reference arrays embed which kind (x-embed)', () => {
    const embeds = Object.fromEntries(model.kinds.map((k) => [k.slug, k.embeds.map((e) => `${e.property}:${e.kind}`)]));
    assert.deepEqual(embeds.topology, ['domains:domain', 'links:link', 'networks:network', 'nodes:node', 'paths:path', 'ports:port']);
    assert.deepEqual(embeds.node, ['ports:port']);
    assert.deepEqual(embeds.port, []);
  });

  const fields: [string, { kind: string; path: string; want: { type: string; arrays: number[]; indexed: boolean } }][] = [
    ['a field of the shared base', { kind: 'node', path: 'name', want: { type: 'string', arrays: [], indexed: true } }],
    ['a nested indexed field', { kind: 'port', path: 'location.institution', want: { type: 'string', arrays: [], indexed: true } }],
    ['an integer', { kind: 'port', path: 'capacity', want: { type: 'integer', arrays: [], indexed: false } }],
    ['a field inside an array of references', { kind: 'path', path: 'hops.href', want: { type: 'string', arrays: [0], indexed: false } }],
    ['an array of strings', { kind: 'service', path: 'properties.summary.metadata', want: { type: 'string', arrays: [2], indexed: false } }],
    ['a directed endpoint (then branch)', { kind: 'link', path: 'endpoints.source.href', want: { type: 'string', arrays: [], indexed: false } }],
    ['an undirected endpoint (else branch)', { kind: 'link', path: 'endpoints.href', want: { type: 'string', arrays: [0], indexed: false } }],
    ['a closed kind\'s own field', { kind: 'metadata', path: 'parameters.collectionInterval', want: { type: 'integer', arrays: [], indexed: false } }],
  ];
  for (const [name, { kind, path: fieldPath, want }] of fields) {
    it(`knows ${name}: ${kind}.${fieldPath}`, () => {
      const field = model.kinds.find((k) => k.slug === kind)!.fields.find((f) => f.path === fieldPath);
      assert.deepEqual(field && { type: field.type, arrays: [...field.arrays], indexed: field.indexed }, want);
    });
  }

  it('marks only Metadata closed', () => {
    assert.deepEqual(model.kinds.filter((k) => k.closed).map((k) => k.name), ['Metadata']);
  });

  it('records what each kind depends on', () => {
    assert.deepEqual(model.kinds.find((k) => k.slug === 'link')!.dependencies, ['networkresource', 'reference']);
    assert.ok(path.isAbsolute(projectRoot));
  });
});
