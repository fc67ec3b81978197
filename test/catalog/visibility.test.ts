import assert from 'node:assert/strict';
import type { CatalogServiceClient } from '../../generated/client/soap.js';
import type { CatalogOperationStatusType, CatalogStatusType } from '../../generated/soap/types.js';
import { assertStatus, DIRECT, format, ids, object, property, startCatalog, tree, type CatalogServer } from '../helpers/catalog.js';

const ALICE = 'CN=Alice,O=Example';
const BOB = 'CN=Bob,O=Example';
const PUBLIC = 'public';

describe('SOAP catalog: ownership and visibility', function () {
  let catalog: CatalogServer;
  let alice: CatalogServiceClient;
  let bob: CatalogServiceClient;
  let publisher: CatalogServiceClient;

  /** What the owner sees of an object: its subtree with every property. */
  const snapshot = async (owner: CatalogServiceClient, id: string) =>
    JSON.stringify((await owner.objectIdQuery({ objectId: [id], queryResultFormat: format({ hierarchyFilter: 'SUBTREE', contentFilter: 'FULL_SCHEMA', showModifyDate: true }) })).queryResponseSet);

  before(async () => {
    catalog = await startCatalog({ env: { CATALOG_PUBLIC_DNS: PUBLIC } });
    alice = catalog.client(ALICE);
    bob = catalog.client(BOB);
    publisher = catalog.client(PUBLIC);
    await alice.createUser({ catalogUser: [{ userId: ALICE }, { userId: BOB }, { userId: PUBLIC }], errorDeliveryMethod: DIRECT });
    await alice.createObject({ catalogData: [object('a/p', 'PROJECT', undefined, [property('citation', { title: 'private NAM' })]), object('a/e', 'EXPERIMENT', 'a/p', [property('citation', { title: 'a run' })])], errorDeliveryMethod: DIRECT });
    await publisher.createObject({ catalogData: [object('pub/p', 'PROJECT', undefined, [property('citation', { title: 'shared NAM' })]), object('pub/e', 'EXPERIMENT', 'pub/p')], errorDeliveryMethod: DIRECT });
    await bob.createObject({ catalogData: [object('b/p', 'PROJECT'), object('b/e', 'EXPERIMENT', 'b/p')], errorDeliveryMethod: DIRECT });
  });
  after(async () => {
    await catalog?.stop();
  });

  it("another user's objects are invisible to every query", async () => {
    const nam = { aggrType: 'PROJECT' as const, queryProperty: [{ name: 'citation', source: 'LEAD', queryElement: [{ name: 'title', source: 'LEAD', queryTextElement: { value: 'nam', compare: 'CONTAINS' as const } }] }] };
    assert.deepEqual(ids(await bob.query({ queryTarget: nam, queryResultFormat: format() })), ['pub/p']);
    assert.deepEqual(ids(await alice.query({ queryTarget: nam, queryResultFormat: format() })).sort(), ['a/p', 'pub/p']);
    assertStatus((await bob.objectIdQuery({ objectId: ['a/p'], queryResultFormat: format() })).catalogOperationStatus, 'FATAL_QUERY_ERROR', 'OBJECT_DOES_NOT_EXIST');
    const bobWorkspace = tree(await bob.allWorkspaceQuery({}));
    assert.ok(!bobWorkspace.includes('a/') && !bobWorkspace.includes('pub/'), bobWorkspace);
    const context = await bob.query({ queryTarget: { aggrType: 'EXPERIMENT' }, contextQuery: { queryComponent: [{ aggrType: 'PROJECT', relation: 'PARENT' }] }, queryResultFormat: format() });
    assert.deepEqual(ids(context).sort(), ['b/e', 'pub/e']);
  });

  // Mutations of objects the caller does not own: refused, and the object unchanged.
  const foreign: [string, (c: CatalogServiceClient, id: string) => Promise<{ catalogOperationStatus: CatalogOperationStatusType }>, CatalogStatusType, CatalogStatusType][] = [
    ['deleteObject', (c, id) => c.deleteObject({ objectId: [id], errorDeliveryMethod: DIRECT }), 'FATAL_DELETE_ERROR', 'OBJECT_DOES_NOT_EXIST'],
    ['moveObject', (c, id) => c.moveObject({ objectId: id, parentId: 'b/p', errorDeliveryMethod: DIRECT }), 'FATAL_UPDATE_ERROR', 'OBJECT_MISSING'],
    ['moveObject with newUserId', (c, id) => c.moveObject({ objectId: id, parentId: 'b/p', newUserId: BOB, errorDeliveryMethod: DIRECT }), 'FATAL_UPDATE_ERROR', 'OBJECT_MISSING'],
    ['addProperty', (c, id) => c.addProperty({ catalogProperty: [{ objectId: id, catalogPropertyAdd: [property('citation', { title: 'mine now' })] }], errorDeliveryMethod: DIRECT }), 'FATAL_UPDATE_ERROR', 'OBJECT_DOES_NOT_EXIST'],
    ['updateProperty', (c, id) => c.updateProperty({ updateProperty: { objectId: id, catalogPropertyUpdate: property('citation', { title: 'mine now' }) }, errorDeliveryMethod: DIRECT }), 'FATAL_UPDATE_ERROR', 'OBJECT_DOES_NOT_EXIST'],
    ['deleteProperty', (c, id) => c.deleteProperty({ deleteProperty: { objectId: id, propertyName: 'citation', propertySource: 'LEAD', lastUpdate: 0 }, errorDeliveryMethod: DIRECT }), 'FATAL_DELETE_ERROR', 'OBJECT_DOES_NOT_EXIST'],
    ['createObject under it', (c, id) => c.createObject({ catalogData: [object(`${id}/child-${Math.random()}`, 'COLLECTION', id)], errorDeliveryMethod: DIRECT }), 'FATAL_CREATE_ERROR', 'INVALID_OWNER'],
    ['createObject with its objectId and assignIfExists', (c, id) => c.createObject({ catalogData: [object(id, 'PROJECT')], assignIfExists: true, errorDeliveryMethod: DIRECT }), 'FATAL_CREATE_ERROR', 'OBJECT_ALREADY_EXISTS'],
  ];
  for (const [operation, call, fatal, cause] of foreign) {
    it(`${operation} on another user's object: ${fatal} / ${cause}, nothing changed`, async () => {
      const before = await snapshot(alice, 'a/p');
      assertStatus((await call(bob, 'a/p')).catalogOperationStatus, fatal, cause, operation.split(' ')[0]);
      assert.equal(await snapshot(alice, 'a/p'), before);
    });
    it(`${operation} on a public object: ${fatal} / ${cause} (public means readable, not writable)`, async () => {
      const before = await snapshot(publisher, 'pub/p');
      assertStatus((await call(alice, 'pub/p')).catalogOperationStatus, fatal, cause, operation.split(' ')[0]);
      assert.equal(await snapshot(publisher, 'pub/p'), before);
    });
  }

  it('public objects are readable in full by everyone', async () => {
    const full = await bob.objectIdQuery({ objectId: ['pub/p'], queryResultFormat: format({ contentFilter: 'FULL_SCHEMA', hierarchyFilter: 'SUBTREE' }) });
    assertStatus(full.catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assert.equal(tree(full), 'pub/p(pub/e)');
    assert.equal(full.queryResponseSet!.objectResponse![0]!.property![0]!.element![0]!.value, 'shared NAM');
  });

  it('the public DN itself may change its objects', async () => {
    assertStatus((await publisher.addProperty({ catalogProperty: [{ objectId: 'pub/p', catalogPropertyAdd: [{ name: 'keyword', source: 'LEAD', value: 'open' }] }], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assertStatus((await publisher.deleteObject({ objectId: ['pub/e'], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
  });

  it('a move may not hang a subtree under a public object', async () => {
    assertStatus((await alice.moveObject({ objectId: 'a/e', parentId: 'pub/p', errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'FATAL_UPDATE_ERROR', 'INVALID_OWNER');
  });

  it('every response validates against wsdl/catalog-types.xsd', async () => {
    await catalog.recorder.assertAllValid();
  });
});
