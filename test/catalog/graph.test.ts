import assert from 'node:assert/strict';
import type { CatalogServiceClient } from '../../generated/client/soap.js';
import type { CatalogStatusType, QueryComponentType } from '../../generated/soap/types.js';
import { assertStatus, DIRECT, format, ids, object, property, startCatalog, tree, type CatalogServer } from '../helpers/catalog.js';

const ALICE = 'CN=Graph Alice,O=Example';
const BOB = 'CN=Graph Bob,O=Example';

/**
 * assignObject and what it makes of the catalog: a graph of objects without cycles, where an
 * object hangs under every parent it was given, queries and results follow every link, and a
 * deletion removes only what hangs nowhere else (docs/catalog-operations.md).
 */
describe('SOAP catalog: assignObject and the graph of objects', function () {
  let catalog: CatalogServer;
  let alice: CatalogServiceClient;
  let bob: CatalogServiceClient;
  let whiteboard: string;

  const assign = (objectId: string, parentId: string, client = alice) => client.assignObject({ objectId, parentId, errorDeliveryMethod: DIRECT });
  const exists = async (id: string) => (await alice.objectExists({ objectId: id, errorDeliveryMethod: DIRECT })).objectExists;
  const subtree = async (id: string) => tree(await alice.objectIdQuery({ objectId: [id], queryResultFormat: format({ hierarchyFilter: 'SUBTREE' }) }));
  /** The objects of class `aggrType` in `relation` to `objectId`'s object. */
  const related = async (aggrType: QueryComponentType['aggrType'], relation: QueryComponentType['relation'], objectId: string, target: QueryComponentType['aggrType']) =>
    ids(await alice.query({ queryTarget: { aggrType: target }, contextQuery: { queryComponent: [{ aggrType, objectId, relation }] }, queryResultFormat: format() })).sort();

  before(async () => {
    catalog = await startCatalog();
    alice = catalog.client(ALICE);
    bob = catalog.client(BOB);
    await alice.createUser({ catalogUser: [{ userId: ALICE }, { userId: BOB }], errorDeliveryMethod: DIRECT });
    whiteboard = (await alice.whiteboardId({ errorDeliveryMethod: DIRECT })).objectId!;
    // P1 > E1 > C1 > F1, P2 > E2 > C2; bob's B.
    const created = await alice.createObject({
      catalogData: [
        object('g/P1', 'PROJECT'),
        object('g/E1', 'EXPERIMENT', 'g/P1'),
        object('g/C1', 'COLLECTION', 'g/E1', [property('grid', { dx: '3' })]),
        object('g/F1', 'FILE', 'g/C1'),
        object('g/P2', 'PROJECT'),
        object('g/E2', 'EXPERIMENT', 'g/P2'),
        object('g/C2', 'COLLECTION', 'g/E2'),
      ],
      errorDeliveryMethod: DIRECT,
    });
    assertStatus(created.catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assertStatus((await bob.createObject({ catalogData: [object('g/B', 'PROJECT')], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
  });
  after(async () => {
    await catalog?.stop();
  });

  // Checks in order (docs/catalog-operations.md, assignObject); nothing changes when one fails.
  const refusals: [string, { given: { objectId: string; parentId: string; as?: 'bob' }; want: CatalogStatusType }][] = [
    ['an unknown object', { given: { objectId: 'g/none', parentId: 'g/P1' }, want: 'OBJECT_MISSING' }],
    ["another user's object", { given: { objectId: 'g/B', parentId: 'g/P1' }, want: 'OBJECT_MISSING' }],
    ['a whiteboard', { given: { objectId: 'WB', parentId: 'g/P1' }, want: 'PARENT_NOT_COMPATIBLE' }],
    ['an unknown parent', { given: { objectId: 'g/C1', parentId: 'g/none' }, want: 'PARENT_DOES_NOT_EXIST' }],
    ['the object itself as parent', { given: { objectId: 'g/C1', parentId: 'g/C1' }, want: 'SELF_PARENT_NOT_ALLOWED' }],
    ['a parent below the object (a cycle)', { given: { objectId: 'g/E1', parentId: 'g/C1' }, want: 'NO_CIRCULAR_OWNERSHIP' }],
    ['a parent of the wrong class', { given: { objectId: 'g/E1', parentId: 'g/E2' }, want: 'PARENT_NOT_COMPATIBLE' }],
    ["another user's parent", { given: { objectId: 'g/E1', parentId: 'g/B' }, want: 'INVALID_OWNER' }],
    ["another user's whiteboard", { given: { objectId: 'g/B', parentId: 'WB', as: 'bob' }, want: 'INVALID_OWNER' }],
  ];
  for (const [name, { given, want }] of refusals) {
    it(`refuses ${name}: FATAL_UPDATE_ERROR / ${want}`, async () => {
      const objectId = given.objectId === 'WB' ? whiteboard : given.objectId;
      const parentId = given.parentId === 'WB' ? whiteboard : given.parentId;
      const before = await subtree('g/P1');
      const response = await assign(objectId, parentId, given.as === 'bob' ? bob : alice);
      assertStatus(response.catalogOperationStatus, 'FATAL_UPDATE_ERROR', want, 'assignObject');
      assert.equal(await subtree('g/P1'), before);
    });
  }

  it('a cycle through a shared object is refused too', async () => {
    const [project, experiment, a, b] = ['cyc/P', 'cyc/E', 'cyc/A', 'cyc/B'];
    await alice.createObject({ catalogData: [object(project, 'PROJECT'), object(experiment, 'EXPERIMENT', project), object(a, 'COLLECTION', experiment), object(b, 'COLLECTION', experiment)], errorDeliveryMethod: DIRECT });
    assertStatus((await assign(b, a)).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    // b is below a now, through a second parent: a under b would close a circle.
    assertStatus((await assign(a, b)).catalogOperationStatus, 'FATAL_UPDATE_ERROR', 'NO_CIRCULAR_OWNERSHIP');
    assertStatus((await alice.moveObject({ objectId: a, parentId: b, errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'FATAL_UPDATE_ERROR', 'NO_CIRCULAR_OWNERSHIP');
    assert.equal(await subtree(project), 'cyc/P(cyc/E(cyc/A(cyc/B) cyc/B))');
  });

  it('an assigned object hangs under both parents: results, hasChildren and the three queries follow both', async () => {
    const before = (await alice.lastUpdate({ objectId: 'g/C1', errorDeliveryMethod: DIRECT })).lastUpdated;
    assertStatus((await assign('g/C1', 'g/E2')).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    // Under each parent with its subtree, and with that parent as its parentId.
    assert.equal(await subtree('g/P1'), 'g/P1(g/E1(g/C1(g/F1)))');
    assert.equal(await subtree('g/P2'), 'g/P2(g/E2(g/C1(g/F1) g/C2))');
    const nested = await alice.objectIdQuery({ objectId: ['g/E2'], queryResultFormat: format({ hierarchyFilter: 'CHILDREN' }) });
    assert.deepEqual(nested.queryResponseSet!.guidResponse![0]!.guidResponse!.map((n) => [n.objectId, n.parentId]), [['g/C1', 'g/E2'], ['g/C2', 'g/E2']]);
    // As a target, its first parent.
    const flat = await alice.objectIdQuery({ objectId: ['g/C1'], queryResultFormat: format({ showHasChildren: true }) });
    assert.equal(flat.queryResponseSet!.guidResponse![0]!.parentId, 'g/E1');
    // Depth limits count links on each path.
    assert.equal(tree(await alice.objectIdQuery({ objectId: ['g/P2'], queryResultFormat: format({ hierarchyFilterSet: { childFilter: { distLimit: 2 } } }) })), 'g/P2(g/E2(g/C1 g/C2))');
    // Context queries: every parent and every ancestor.
    assert.deepEqual(await related('PROJECT', 'PARENT', 'g/P2', 'FILE'), ['g/F1']);
    assert.deepEqual(await related('EXPERIMENT', 'DIRECT_PARENT', 'g/E2', 'COLLECTION'), ['g/C1', 'g/C2']);
    assert.deepEqual(await related('COLLECTION', 'DIRECT_CHILD', 'g/C1', 'EXPERIMENT'), ['g/E1', 'g/E2']);
    assert.deepEqual(await related('FILE', 'CHILD', 'g/F1', 'PROJECT'), ['g/P1', 'g/P2']);
    // Its modification time moved: an assignment changes the object.
    assert.ok((await alice.lastUpdate({ objectId: 'g/C1', errorDeliveryMethod: DIRECT })).lastUpdated >= before);
    // Assigned again: nothing changes.
    assertStatus((await assign('g/C1', 'g/E2')).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assert.equal(await subtree('g/P2'), 'g/P2(g/E2(g/C1(g/F1) g/C2))');
  });

  it('a parent in the whiteboard: the whiteboard becomes an ancestor too', async () => {
    assertStatus((await assign('g/C2', whiteboard)).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assert.deepEqual(await related('WHITEBOARD', 'PARENT', whiteboard, 'COLLECTION'), ['g/C2']);
    assert.deepEqual(await related('WHITEBOARD', 'DIRECT_PARENT', whiteboard, 'COLLECTION'), ['g/C2']);
  });

  it('moveObject of a shared object takes it from every parent to the new one', async () => {
    await alice.createObject({ catalogData: [object('mv/P', 'PROJECT'), object('mv/E1', 'EXPERIMENT', 'mv/P'), object('mv/E2', 'EXPERIMENT', 'mv/P'), object('mv/E3', 'EXPERIMENT', 'mv/P'), object('mv/C', 'COLLECTION', 'mv/E1'), object('mv/F', 'FILE', 'mv/C')], errorDeliveryMethod: DIRECT });
    assertStatus((await assign('mv/C', 'mv/E2')).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assertStatus((await alice.moveObject({ objectId: 'mv/C', parentId: 'mv/E3', errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assert.equal(await subtree('mv/P'), 'mv/P(mv/E1 mv/E2 mv/E3(mv/C(mv/F)))');
    assert.deepEqual(await related('EXPERIMENT', 'PARENT', 'mv/E1', 'FILE'), []);
    assert.deepEqual(await related('EXPERIMENT', 'PARENT', 'mv/E3', 'FILE'), ['mv/F']);
    const flat = await alice.objectIdQuery({ objectId: ['mv/C'], queryResultFormat: format() });
    assert.equal(flat.queryResponseSet!.guidResponse![0]!.parentId, 'mv/E3');
  });

  it('moveObject to another user is refused while an object of the subtree also hangs outside it', async () => {
    await bob.createObject({ catalogData: [object('own/B', 'PROJECT'), object('own/BE', 'EXPERIMENT', 'own/B')], errorDeliveryMethod: DIRECT });
    await alice.createObject({ catalogData: [object('own/P', 'PROJECT'), object('own/E1', 'EXPERIMENT', 'own/P'), object('own/E2', 'EXPERIMENT', 'own/P'), object('own/C', 'COLLECTION', 'own/E1')], errorDeliveryMethod: DIRECT });
    assertStatus((await assign('own/C', 'own/E2')).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    const moving = { objectId: 'own/E1', parentId: 'own/B', newUserId: BOB, errorDeliveryMethod: DIRECT } as const;
    assertStatus((await alice.moveObject(moving)).catalogOperationStatus, 'FATAL_UPDATE_ERROR', 'INVALID_OWNER');
    assert.equal(await subtree('own/P'), 'own/P(own/E1(own/C) own/E2(own/C))');
    // The shared object itself may go: it leaves both parents.
    assertStatus((await alice.moveObject({ objectId: 'own/C', parentId: 'own/BE', newUserId: BOB, errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assert.equal(await subtree('own/P'), 'own/P(own/E1 own/E2)');
  });

  it('deleteObject keeps what also hangs elsewhere, losing only its links from the deleted objects', async () => {
    await alice.createObject({
      catalogData: [object('del/P', 'PROJECT'), object('del/E1', 'EXPERIMENT', 'del/P'), object('del/E2', 'EXPERIMENT', 'del/P'), object('del/C', 'COLLECTION', 'del/E1'), object('del/F', 'FILE', 'del/C'), object('del/G', 'FILE', 'del/E1')],
      errorDeliveryMethod: DIRECT,
    });
    assertStatus((await assign('del/C', 'del/E2')).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assertStatus((await alice.deleteObject({ objectId: ['del/E1'], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assert.deepEqual([await exists('del/E1'), await exists('del/G'), await exists('del/C'), await exists('del/F')], [false, false, true, true]);
    assert.equal(await subtree('del/P'), 'del/P(del/E2(del/C(del/F)))');
    // Its first parent was deleted: its remaining one takes its place.
    const flat = await alice.objectIdQuery({ objectId: ['del/C'], queryResultFormat: format() });
    assert.equal(flat.queryResponseSet!.guidResponse![0]!.parentId, 'del/E2');
    // No path is left through the deleted experiment.
    assert.deepEqual(await related('PROJECT', 'PARENT', 'del/P', 'FILE'), ['del/F']);
    assert.deepEqual(await related('EXPERIMENT', 'PARENT', 'del/E2', 'FILE'), ['del/F']);
    // Deleting the shared object itself deletes it from everywhere.
    assertStatus((await alice.deleteObject({ objectId: ['del/C'], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assert.equal(await subtree('del/P'), 'del/P(del/E2)');
  });

  it('deleteObject of an object reached twice inside the deleted subtree deletes it', async () => {
    await alice.createObject({ catalogData: [object('twice/P', 'PROJECT'), object('twice/E', 'EXPERIMENT', 'twice/P'), object('twice/A', 'COLLECTION', 'twice/E'), object('twice/B', 'COLLECTION', 'twice/A')], errorDeliveryMethod: DIRECT });
    assertStatus((await assign('twice/B', 'twice/E')).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assertStatus((await alice.deleteObject({ objectId: ['twice/E'], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assert.deepEqual([await exists('twice/A'), await exists('twice/B')], [false, false]);
  });

  it('allWorkspaceQuery shows a shared object under each of its parents', async () => {
    await alice.createObject({ catalogData: [object('ws/P', 'PROJECT'), object('ws/E', 'EXPERIMENT', 'ws/P'), object('ws/C', 'COLLECTION', 'ws/E')], errorDeliveryMethod: DIRECT });
    assertStatus((await assign('ws/C', whiteboard)).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    const workspace = tree(await alice.allWorkspaceQuery({ queryResultFormat: format({ hierarchyFilter: 'SUBTREE' }) }));
    assert.match(workspace, /ws\/P\(ws\/E\(ws\/C\)\)/);
    assert.match(workspace, new RegExp(`${whiteboard}\\([^]*ws/C`));
  });

  it('assignObject without a DN: FATAL_UPDATE_ERROR / MISSING_DN', async () => {
    const response = await catalog.client(undefined).assignObject({ objectId: 'g/C2', parentId: 'g/E1', errorDeliveryMethod: DIRECT });
    assertStatus(response.catalogOperationStatus, 'FATAL_UPDATE_ERROR', 'MISSING_DN');
  });

  describe('lastUpdate', function () {
    it("answers the object's modificationDate, which moves with each change of its metadata", async () => {
      await alice.createObject({ catalogData: [object('lu/P', 'PROJECT', undefined, [property('citation', { title: 'one' })])], errorDeliveryMethod: DIRECT });
      const first = await alice.lastUpdate({ objectId: 'lu/P', errorDeliveryMethod: DIRECT });
      assertStatus(first.catalogOperationStatus, 'OPERATION_SUCCESSFUL');
      const shown = await alice.objectIdQuery({ objectId: ['lu/P'], queryResultFormat: format({ showModifyDate: true }) });
      assert.equal(first.lastUpdated, shown.queryResponseSet!.guidResponse![0]!.modificationDate);
      await new Promise((resolve) => setTimeout(resolve, 5));
      await alice.addProperty({ catalogProperty: [{ objectId: 'lu/P', catalogPropertyAdd: [property('citation', { title: 'two' })] }], errorDeliveryMethod: DIRECT });
      const second = await alice.lastUpdate({ objectId: 'lu/P', errorDeliveryMethod: DIRECT });
      assert.ok(second.lastUpdated > first.lastUpdated, `${second.lastUpdated} > ${first.lastUpdated}`);
      // The value is what updateProperty takes as lastUpdate: current passes, the old one is refused.
      const update = (lastUpdate: number) =>
        alice.updateProperty({ updateProperty: { objectId: 'lu/P', catalogPropertyUpdate: property('citation', { title: 'TWO' }), position: 2, lastUpdate }, errorDeliveryMethod: DIRECT });
      assertStatus((await update(first.lastUpdated)).catalogOperationStatus, 'FATAL_UPDATE_ERROR', 'PROPERTY_UPDATE_TIMESTAMP');
      assertStatus((await update(second.lastUpdated)).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    });

    const failures: [string, { dn: 'alice' | 'bob' | 'none'; objectId: string; want: CatalogStatusType }][] = [
      ['an unknown object', { dn: 'alice', objectId: 'lu/none', want: 'OBJECT_DOES_NOT_EXIST' }],
      ["another user's object", { dn: 'bob', objectId: 'g/P1', want: 'OBJECT_DOES_NOT_EXIST' }],
      ['no DN', { dn: 'none', objectId: 'g/P1', want: 'MISSING_DN' }],
    ];
    for (const [name, { dn, objectId, want }] of failures) {
      it(`${name}: FATAL_QUERY_ERROR / ${want}, lastUpdated 0`, async () => {
        const client = dn === 'alice' ? alice : dn === 'bob' ? bob : catalog.client(undefined);
        const response = await client.lastUpdate({ objectId, errorDeliveryMethod: DIRECT });
        assertStatus(response.catalogOperationStatus, 'FATAL_QUERY_ERROR', want, 'lastUpdate');
        assert.equal(response.lastUpdated, 0);
      });
    }
  });

  it('every response validates against wsdl/catalog-types.xsd', async () => {
    await catalog.recorder.assertAllValid();
  });
});
