import assert from 'node:assert/strict';
import { PropertyTreeCache } from '../../server/catalog/property-trees.js';
import type { ObjectContent, ObjectRecord } from '../../server/storage/catalog/rows.js';

const record = (id: number, contentVersion = 0): ObjectRecord => ({ id, guid: `o${id}`, objectClass: 'FILE', parentId: null, parentGuid: null, ownerDn: 'dn', createdMs: 0, modifiedMs: 0, contentVersion });

/** One property `p<id>` with one element whose value is `value`, for each object. */
function contentOf(objects: readonly { id: number; value?: string }[]): ObjectContent {
  return {
    properties: objects.map((o) => ({ id: o.id, objectId: o.id, parentPropertyId: null, name: `p${o.id}`, source: 'S', position: 1 })),
    elements: objects.map((o) => ({ propertyId: o.id, ordinal: 1, name: 'e', source: 'S', value: o.value ?? 'v', shorthand: false })),
  };
}

/** Read the objects through the cache (what it lacks from `content`); the ids it had to read. */
async function through(cache: PropertyTreeCache, objects: readonly ObjectRecord[], values: Record<number, string> = {}): Promise<number[]> {
  const asked: number[] = [];
  await cache
    .source(async (ids) => {
      asked.push(...ids);
      return contentOf(ids.map((id) => ({ id, value: values[id] })));
    })
    .treesOf(objects);
  return asked;
}

/** The bytes one object of contentOf is counted as: the budget for `n` of them. */
async function budgetFor(n: number): Promise<number> {
  const probe = new PropertyTreeCache(1 << 20);
  await through(probe, [record(1)]);
  return probe.gauges().bytes * n;
}

/** The kept trees' budget and order (server/catalog/property-trees.ts), table-driven. */
describe('PropertyTreeCache', function () {
  const cases: [string, { fits: number; steps: (cache: PropertyTreeCache) => Promise<unknown>; want: { kept: ObjectRecord[]; gone: ObjectRecord[] } }][] = [
    ['keeps what fits, least recently used out', { fits: 2, steps: (c) => through(c, [record(1), record(2), record(3)]), want: { kept: [record(2), record(3)], gone: [record(1)] } }],
    [
      'a hit makes an object the most recently used',
      { fits: 2, steps: async (c) => (await through(c, [record(1), record(2)]), c.kept([record(1)]), through(c, [record(3)])), want: { kept: [record(1), record(3)], gone: [record(2)] } },
    ],
    [
      'a new version is read again and replaces the old',
      { fits: 2, steps: async (c) => (await through(c, [record(1)]), through(c, [record(1, 1)], { 1: 'new' })), want: { kept: [record(1, 1)], gone: [record(1, 0)] } },
    ],
    [
      'a late read of an older version keeps nothing over a newer one',
      { fits: 2, steps: async (c) => (await through(c, [record(1, 2)]), through(c, [record(1, 1)])), want: { kept: [record(1, 2)], gone: [record(1, 1)] } },
    ],
    ['with no budget nothing is kept', { fits: 0, steps: (c) => through(c, [record(1), record(2)]), want: { kept: [], gone: [record(1), record(2)] } }],
  ];
  for (const [name, { fits, steps, want }] of cases) {
    it(name, async () => {
      const budget = await budgetFor(fits);
      const cache = new PropertyTreeCache(budget);
      await steps(cache);
      for (const object of want.gone) assert.equal(cache.kept([object]), undefined, `${object.id} at ${object.contentVersion} is not kept`);
      for (const object of want.kept) assert.ok(cache.kept([object]), `${object.id} at ${object.contentVersion} is kept`);
      assert.equal(cache.gauges().objects, want.kept.length);
      assert.ok(cache.gauges().bytes <= budget);
    });
  }

  it('answers a kept object at its version only, and reads it again at another', async () => {
    const cache = new PropertyTreeCache(1 << 20);
    assert.deepEqual(await through(cache, [record(1), record(2)]), [1, 2]);
    assert.deepEqual(await through(cache, [record(1), record(2)]), []);
    assert.deepEqual(await through(cache, [record(1, 1), record(2)], { 1: 'changed' }), [1]);
    const trees = cache.kept([record(1, 1), record(2)]);
    assert.equal(trees?.get(1)?.[0]?.element?.[0]?.value, 'changed');
    assert.equal(cache.kept([record(1, 0)]), undefined, 'the older version is gone');
    assert.deepEqual(cache.gauges(), { objects: 2, bytes: cache.gauges().bytes, fromMemory: 5, fromDatabase: 3 });
  });

  it('an object without properties is kept as an empty tree', async () => {
    const cache = new PropertyTreeCache(1 << 20);
    await cache.source(async () => ({ properties: [], elements: [] })).treesOf([record(7)]);
    assert.deepEqual(cache.kept([record(7)])?.get(7), []);
  });
});
