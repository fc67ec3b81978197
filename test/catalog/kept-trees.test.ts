import assert from 'node:assert/strict';
import type { CatalogServiceClient } from '../../generated/client/soap.js';
import type { PropertyType, QueryResponse } from '../../generated/soap/types.js';
import { assertStatus, DIRECT, format, object, property, startCatalog, type CatalogServer } from '../helpers/catalog.js';
import { createTestDatabase, engine, type TestDatabase } from '../helpers/database.js';
import { sample } from '../helpers/metrics.js';

const ALICE = 'CN=Alice,O=Example';
const citation = (title: string) => property('citation', { title });
const FULL = format({ contentFilter: 'FULL_SCHEMA' });

/** The answer without its timestamp (when it was made, never the same twice) and with the whiteboard's generated objectId as `whiteboard`. */
const withoutTime = (response: QueryResponse): unknown => JSON.parse(JSON.stringify({ ...response, timestamp: 0 }).replace(/urn:uuid:[0-9a-f-]+/g, 'whiteboard'));

/** Each object's citation titles and other property names, as a FULL_SCHEMA answer shows them. */
function shown(response: QueryResponse): Record<string, string[]> {
  const label = (p: PropertyType) => (p.name === 'citation' ? p.element!.find((e) => e.name === 'title')!.value : p.name!);
  return Object.fromEntries((response.queryResponseSet?.objectResponse ?? []).map((o) => [o.objectId, (o.property ?? []).map(label)]));
}

/** Where results found the trees of the objects they showed, so far (topocat_catalog_property_trees_total). */
async function treesFrom(catalog: CatalogServer): Promise<{ memory: number; database: number }> {
  const text = await (await fetch(`${catalog.server.url}/metrics`)).text();
  return { memory: sample(text, 'topocat_catalog_property_trees_total', { from: 'memory' }) ?? 0, database: sample(text, 'topocat_catalog_property_trees_total', { from: 'database' }) ?? 0 };
}

const ok = (response: { catalogOperationStatus: Parameters<typeof assertStatus>[0] }) => assertStatus(response.catalogOperationStatus, 'OPERATION_SUCCESSFUL');

/** Changes of what objects hold, each followed by the reads that must show it. */
const changes: [string, (me: CatalogServiceClient) => Promise<void>][] = [
  ['nothing yet', async () => {}],
  ['addProperty', async (me) => ok(await me.addProperty({ catalogProperty: [{ objectId: 'k/a', catalogPropertyAdd: [citation('added')] }], errorDeliveryMethod: DIRECT }))],
  ['addProperty to an object that held nothing', async (me) => ok(await me.addProperty({ catalogProperty: [{ objectId: 'k/empty', catalogPropertyAdd: [property('grid', { dx: '1' })] }], errorDeliveryMethod: DIRECT }))],
  ['updateProperty at a position', async (me) => ok(await me.updateProperty({ updateProperty: { objectId: 'k/a', catalogPropertyUpdate: citation('updated'), position: 1 }, errorDeliveryMethod: DIRECT }))],
  ['deleteProperty', async (me) => ok(await me.deleteProperty({ deleteProperty: { objectId: 'k/b', propertyName: 'citation', propertySource: 'LEAD', position: [1], lastUpdate: 0 }, errorDeliveryMethod: DIRECT }))],
  ['two changes of one object at once', async (me) => {
    await Promise.all([
      me.addProperty({ catalogProperty: [{ objectId: 'k/b', catalogPropertyAdd: [citation('one')] }], errorDeliveryMethod: DIRECT }).then(ok),
      me.addProperty({ catalogProperty: [{ objectId: 'k/b', catalogPropertyAdd: [citation('two')] }], errorDeliveryMethod: DIRECT }).then(ok),
    ]);
  }],
];

/** The reads after each change: objectIdQuery (one statement for the targets alone), a context query and allWorkspaceQuery (in a transaction). */
const reads = (me: CatalogServiceClient) =>
  Promise.all([
    me.objectIdQuery({ objectId: ['k/a', 'k/b', 'k/empty'], queryResultFormat: FULL }),
    me.query({ queryTarget: { aggrType: 'COLLECTION' }, queryResultFormat: FULL }),
    me.allWorkspaceQuery({ queryResultFormat: format({ contentFilter: 'FULL_SCHEMA', hierarchyFilter: 'SUBTREE' }) }),
  ]);

async function load(me: CatalogServiceClient): Promise<void> {
  await me.createUser({ catalogUser: [{ userId: ALICE }], errorDeliveryMethod: DIRECT });
  ok(await me.createObject({ catalogData: [object('k/p', 'PROJECT')], errorDeliveryMethod: DIRECT }));
  ok(
    await me.createObject({
      catalogData: [object('k/a', 'COLLECTION', 'k/p', [citation('first')]), object('k/b', 'COLLECTION', 'k/p', [citation('gone'), citation('stays')]), object('k/empty', 'COLLECTION', 'k/p')],
      errorDeliveryMethod: DIRECT,
    }),
  );
}

/**
 * The property trees a process keeps (CATALOG_CACHE_MB, server/catalog/property-trees.ts), by
 * each object's content version: answers are those of a process that keeps nothing, after every
 * kind of change, made through this process or through another on the same database.
 */
describe('SOAP catalog: kept property trees', function () {
  this.timeout(120_000);

  describe('the same answers as a process that keeps nothing', function () {
    let keeping: CatalogServer;
    let reading: CatalogServer;
    before(async () => {
      [keeping, reading] = await Promise.all([startCatalog(), startCatalog({ env: { CATALOG_CACHE_MB: '0' } })]);
      await Promise.all([load(keeping.client(ALICE)), load(reading.client(ALICE))]);
    });
    after(async () => {
      await Promise.all([keeping?.stop(), reading?.stop()]);
    });

    const want: Record<string, Record<string, string[]>> = {
      'nothing yet': { 'k/a': ['first'], 'k/b': ['gone', 'stays'], 'k/empty': [] },
      addProperty: { 'k/a': ['first', 'added'], 'k/b': ['gone', 'stays'], 'k/empty': [] },
      'addProperty to an object that held nothing': { 'k/a': ['first', 'added'], 'k/b': ['gone', 'stays'], 'k/empty': ['grid'] },
      'updateProperty at a position': { 'k/a': ['updated', 'added'], 'k/b': ['gone', 'stays'], 'k/empty': ['grid'] },
      deleteProperty: { 'k/a': ['updated', 'added'], 'k/b': ['stays'], 'k/empty': ['grid'] },
    };

    for (const [name, change] of changes) {
      it(`after ${name}: objectIdQuery, a context query and allWorkspaceQuery, twice each`, async () => {
        await change(keeping.client(ALICE));
        await change(reading.client(ALICE));
        for (let round = 0; round < 2; round++) {
          const [kept, read] = await Promise.all([reads(keeping.client(ALICE)), reads(reading.client(ALICE))]);
          // Two changes at once commit in either order, each server its own.
          if (want[name]) assert.deepEqual(kept.map(withoutTime), read.map(withoutTime));
          else assert.deepEqual(kept.map((r) => Object.values(shown(r)).map((t) => [...t].sort())), read.map((r) => Object.values(shown(r)).map((t) => [...t].sort())));
          const [byId, byContext] = kept;
          if (want[name]) assert.deepEqual(shown(byId), want[name]);
          else assert.deepEqual(new Set(shown(byId)['k/b']), new Set(['stays', 'one', 'two']));
          assert.deepEqual(shown(byContext), shown(byId));
        }
      });
    }

    it('kept what it read: the second reads found the trees in memory; the process that keeps nothing read them every time', async () => {
      const [kept, read] = await Promise.all([treesFrom(keeping), treesFrom(reading)]);
      // Six rounds of changes, each read twice; the second read of each round finds all in memory.
      assert.ok(kept.memory >= changes.length * 3, JSON.stringify(kept));
      assert.ok(kept.database < read.database, JSON.stringify({ kept, read }));
      assert.equal(read.memory, 0, JSON.stringify(read));
      const text = await (await fetch(`${keeping.server.url}/metrics`)).text();
      // k/a, k/b, k/empty, k/p and the whiteboard (allWorkspaceQuery's roots).
      assert.equal(sample(text, 'topocat_catalog_kept_tree_objects'), 5);
      assert.ok((sample(text, 'topocat_catalog_kept_tree_bytes') ?? 0) > 0);
    });
  });

  describe('several processes on one PostgreSQL database', function () {
    let database: TestDatabase;
    let a: CatalogServer;
    let b: CatalogServer;
    before(async function () {
      if (engine !== 'postgres') this.skip();
      database = await createTestDatabase();
      a = await startCatalog({ database });
      b = await startCatalog({ database });
      await load(a.client(ALICE));
    });
    after(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
      await database?.drop();
    });

    it('a change through one process is answered at once by another that kept the trees before it', async () => {
      const me = a.client(ALICE);
      const before = shown((await reads(me))[0]);
      assert.deepEqual(before, { 'k/a': ['first'], 'k/b': ['gone', 'stays'], 'k/empty': [] });
      const [byIdAgain] = await reads(me);
      assert.deepEqual(shown(byIdAgain), before);
      let previous: Record<string, string[]> = before;
      for (const [name, change] of changes.slice(1)) {
        const memory = (await treesFrom(a)).memory;
        await change(b.client(ALICE));
        const [byId, byContext, workspace] = await reads(me);
        const [theirs, theirContext, theirWorkspace] = await reads(b.client(ALICE));
        assert.deepEqual([byId, byContext, workspace].map(withoutTime), [theirs, theirContext, theirWorkspace].map(withoutTime), name);
        assert.notDeepEqual(shown(byId), previous, `${name}: the answer moved`);
        previous = shown(byId);
        // The objects the change did not touch came from memory.
        assert.ok((await treesFrom(a)).memory > memory, name);
      }
      assert.deepEqual(shown((await reads(me))[0]), { 'k/a': ['updated', 'added'], 'k/b': shown((await reads(b.client(ALICE)))[0])['k/b'], 'k/empty': ['grid'] });
    });
  });
});
