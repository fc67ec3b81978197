import assert from 'node:assert/strict';
import type { CatalogServiceClient } from '../../generated/client/soap.js';
import type { CatalogDataType, CatalogStatusType } from '../../generated/soap/types.js';
import { assertStatus, DIRECT, format, ids, object, property, startCatalog, tree, type CatalogServer } from '../helpers/catalog.js';

const ALICE = 'CN=Alice,O=Example';
const BOB = 'CN=Bob,O=Example';

describe('SOAP catalog: objects', function () {
  let catalog: CatalogServer;
  let alice: CatalogServiceClient;
  let bob: CatalogServiceClient;
  let whiteboard: string;

  const exists = async (id: string) => (await alice.objectExists({ objectId: id, errorDeliveryMethod: DIRECT })).objectExists;

  before(async () => {
    catalog = await startCatalog();
    alice = catalog.client(ALICE);
    bob = catalog.client(BOB);
    await alice.createUser({ catalogUser: [{ userId: ALICE }, { userId: BOB }], errorDeliveryMethod: DIRECT });
    whiteboard = (await alice.whiteboardId({ errorDeliveryMethod: DIRECT })).objectId!;
    // A fixed tree for the parent-rule table: P > E > (C > F, D).
    const created = await alice.createObject({
      catalogData: [object('P', 'PROJECT'), object('E', 'EXPERIMENT', 'P'), object('C', 'COLLECTION', 'E'), object('D', 'DATAPRODUCT', 'E'), object('F', 'FILE', 'C')],
      errorDeliveryMethod: DIRECT,
    });
    assertStatus(created.catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assertStatus((await bob.createObject({ catalogData: [object('bob/P', 'PROJECT')], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
  });
  after(async () => {
    await catalog?.stop();
  });

  // Parent rule (docs/catalog-interface.md): the whiteboard takes anything, COLLECTION takes
  // COLLECTION, otherwise the parent's level must be above the child's; FILE has no children.
  const parentRule: [string, { given: Pick<CatalogDataType, 'objectClass' | 'parentId'>; want: CatalogStatusType | 'OK' }][] = [
    ['a PROJECT in the whiteboard', { given: { objectClass: 'PROJECT', parentId: 'WB' }, want: 'OK' }],
    ['an EXPERIMENT under a PROJECT', { given: { objectClass: 'EXPERIMENT', parentId: 'P' }, want: 'OK' }],
    ['a COLLECTION under an EXPERIMENT', { given: { objectClass: 'COLLECTION', parentId: 'E' }, want: 'OK' }],
    ['a COLLECTION under a COLLECTION', { given: { objectClass: 'COLLECTION', parentId: 'C' }, want: 'OK' }],
    ['a DATAPRODUCT under an EXPERIMENT', { given: { objectClass: 'DATAPRODUCT', parentId: 'E' }, want: 'OK' }],
    ['a FILE under a DATAPRODUCT', { given: { objectClass: 'FILE', parentId: 'D' }, want: 'OK' }],
    ['a FILE in the whiteboard', { given: { objectClass: 'FILE', parentId: 'WB' }, want: 'OK' }],
    ['a PROJECT under an EXPERIMENT', { given: { objectClass: 'PROJECT', parentId: 'E' }, want: 'PARENT_BELOW_CHILD_LEVEL' }],
    ['an EXPERIMENT under a COLLECTION', { given: { objectClass: 'EXPERIMENT', parentId: 'C' }, want: 'PARENT_BELOW_CHILD_LEVEL' }],
    ['an EXPERIMENT under an EXPERIMENT', { given: { objectClass: 'EXPERIMENT', parentId: 'E' }, want: 'PARENT_NOT_COMPATIBLE' }],
    ['a DATAPRODUCT under a COLLECTION', { given: { objectClass: 'DATAPRODUCT', parentId: 'C' }, want: 'PARENT_NOT_COMPATIBLE' }],
    ['a FILE under a FILE', { given: { objectClass: 'FILE', parentId: 'F' }, want: 'PARENT_NOT_COMPATIBLE' }],
    ['a COLLECTION under a FILE', { given: { objectClass: 'COLLECTION', parentId: 'F' }, want: 'PARENT_NOT_COMPATIBLE' }],
  ];
  for (const [name, { given, want }] of parentRule) {
    it(`createObject: ${name} → ${want}`, async () => {
      const id = `rule/${name}`;
      const parentId = given.parentId === 'WB' ? whiteboard : given.parentId;
      const response = await alice.createObject({ catalogData: [{ objectId: id, objectClass: given.objectClass, parentId }], errorDeliveryMethod: DIRECT });
      if (want === 'OK') {
        assertStatus(response.catalogOperationStatus, 'OPERATION_SUCCESSFUL');
        const found = await alice.objectIdQuery({ objectId: [id], queryResultFormat: format() });
        assert.equal(found.queryResponseSet?.guidResponse?.[0]?.parentId, parentId);
      } else {
        assertStatus(response.catalogOperationStatus, 'FATAL_CREATE_ERROR', want, 'createObject');
        assert.equal(await exists(id), false);
      }
    });
  }

  it('without parentId a PROJECT becomes a workspace root and anything else goes into the whiteboard', async () => {
    const response = await alice.createObject({ catalogData: [object('root/p', 'PROJECT'), object('root/e', 'EXPERIMENT'), object('root/c', 'COLLECTION')], errorDeliveryMethod: DIRECT });
    assertStatus(response.catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    const found = await alice.objectIdQuery({ objectId: ['root/p', 'root/e', 'root/c'], queryResultFormat: format() });
    assert.deepEqual(found.queryResponseSet?.guidResponse?.map((n) => [n.objectId, n.parentId]), [['root/p', undefined], ['root/e', whiteboard], ['root/c', whiteboard]]);
    assert.ok(ids(await alice.allWorkspaceQuery({ queryResultFormat: format() })).includes('root/p'));
  });

  it('items are created in order, so a later one may use an earlier one as its parent', async () => {
    const response = await alice.createObject({ catalogData: [object('order/p', 'PROJECT'), object('order/e', 'EXPERIMENT', 'order/p'), object('order/c', 'COLLECTION', 'order/e')], errorDeliveryMethod: DIRECT });
    assertStatus(response.catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assert.equal(tree(await alice.objectIdQuery({ objectId: ['order/p'], queryResultFormat: format({ hierarchyFilter: 'SUBTREE' }) })), 'order/p(order/e(order/c))');
  });

  const createFailures: [string, { given: CatalogDataType[]; want: CatalogStatusType }][] = [
    ['an empty objectId', { given: [object(' ', 'PROJECT')], want: 'NO_GUID' }],
    ['a second WHITEBOARD', { given: [object('wb2', 'WHITEBOARD')], want: 'INVALID_OBJECT_TYPE' }],
    ['an objectId of the caller that exists', { given: [object('P', 'PROJECT')], want: 'OBJECT_ALREADY_EXISTS' }],
    ['an objectId another user has', { given: [object('bob/P', 'PROJECT')], want: 'OBJECT_ALREADY_EXISTS' }],
    ['a parent that does not exist', { given: [object('x/1', 'COLLECTION', 'no/such/parent')], want: 'PARENT_DOES_NOT_EXIST' }],
    ["another user's parent", { given: [object('x/2', 'EXPERIMENT', 'bob/P')], want: 'INVALID_OWNER' }],
    ['a property without data', { given: [object('x/3', 'PROJECT', undefined, [{ name: 'citation', source: 'LEAD' }])], want: 'NO_DATA' }],
    ['a sub-property without data', { given: [object('x/4', 'PROJECT', undefined, [property('citation', { title: 't' }, { property: [{ name: 'pubinfo', source: 'LEAD' }] })])], want: 'NO_DATA' }],
  ];
  for (const [name, { given, want }] of createFailures) {
    it(`createObject with ${name}: FATAL_CREATE_ERROR / ${want}, nothing stored`, async () => {
      const response = await alice.createObject({ catalogData: given, errorDeliveryMethod: DIRECT });
      assertStatus(response.catalogOperationStatus, 'FATAL_CREATE_ERROR', want, 'createObject');
      if (given[0]!.objectId.startsWith('x/')) assert.equal(await exists(given[0]!.objectId), false);
    });
  }

  it('createObject with some items refused: NON_FATAL_CREATE_ERROR; a refused item stores nothing, not even its first properties', async () => {
    const response = await alice.createObject({
      catalogData: [
        object('part/ok', 'PROJECT', undefined, [property('citation', { title: 'fine' })]),
        object('part/bad', 'PROJECT', undefined, [property('citation', { title: 'fine' }), { name: 'empty', source: 'LEAD' }]),
        object('part/ok', 'PROJECT'),
      ],
      errorDeliveryMethod: DIRECT,
    });
    assertStatus(response.catalogOperationStatus, 'NON_FATAL_CREATE_ERROR', 'NO_DATA', 'createObject');
    assert.deepEqual(response.catalogOperationStatus.operationSummary?.nonFatalError?.map((e) => e.cause), ['NO_DATA', 'OBJECT_ALREADY_EXISTS']);
    assert.equal(await exists('part/ok'), true);
    assert.equal(await exists('part/bad'), false);
  });

  it('createObject by a DN that is not a user: FATAL_CREATE_ERROR / DN_DOES_NOT_EXIST', async () => {
    const response = await catalog.client('CN=Stranger').createObject({ catalogData: [object('s/1', 'PROJECT')], errorDeliveryMethod: DIRECT });
    assertStatus(response.catalogOperationStatus, 'FATAL_CREATE_ERROR', 'DN_DOES_NOT_EXIST');
  });

  it('assignIfExists gives an existing object of the caller one more parent; without it, or for another user’s object, OBJECT_ALREADY_EXISTS', async () => {
    await alice.createObject({ catalogData: [object('assign/p1', 'PROJECT'), object('assign/p2', 'PROJECT'), object('assign/e', 'EXPERIMENT', 'assign/p1')], errorDeliveryMethod: DIRECT });
    assertStatus((await alice.createObject({ catalogData: [object('assign/e', 'EXPERIMENT', 'assign/p2')], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'FATAL_CREATE_ERROR', 'OBJECT_ALREADY_EXISTS');
    assertStatus((await alice.createObject({ catalogData: [object('assign/e', 'EXPERIMENT', 'assign/p2')], assignIfExists: true, errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assert.equal(tree(await alice.objectIdQuery({ objectId: ['assign/p1', 'assign/p2'], queryResultFormat: format({ hierarchyFilter: 'CHILDREN' }) })), 'assign/p1(assign/e) assign/p2(assign/e)');
    // Again: already one of its parents, nothing changes.
    assertStatus((await alice.createObject({ catalogData: [object('assign/e', 'EXPERIMENT', 'assign/p2')], assignIfExists: true, errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assertStatus((await alice.createObject({ catalogData: [object('bob/P', 'PROJECT')], assignIfExists: true, errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'FATAL_CREATE_ERROR', 'OBJECT_ALREADY_EXISTS');
    assertStatus((await alice.createObject({ catalogData: [object('assign/p1', 'PROJECT', 'assign/e')], assignIfExists: true, errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'FATAL_CREATE_ERROR', 'NO_CIRCULAR_OWNERSHIP');
    assertStatus((await alice.createObject({ catalogData: [object('assign/p2', 'PROJECT', 'assign/e')], assignIfExists: true, errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'FATAL_CREATE_ERROR', 'NO_CIRCULAR_OWNERSHIP');
    await alice.createObject({ catalogData: [object('assign/e2', 'EXPERIMENT', 'assign/p1')], errorDeliveryMethod: DIRECT });
    assertStatus((await alice.createObject({ catalogData: [object('assign/p1', 'PROJECT', 'assign/e2')], assignIfExists: true, errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'FATAL_CREATE_ERROR', 'NO_CIRCULAR_OWNERSHIP');
  });

  it('deleteObject removes the whole subtree with its properties', async () => {
    await alice.createObject({
      catalogData: [object('del/p', 'PROJECT', undefined, [property('citation', { title: 'gone' })]), object('del/e', 'EXPERIMENT', 'del/p', [property('citation', { title: 'gone too' })]), object('del/c', 'COLLECTION', 'del/e')],
      errorDeliveryMethod: DIRECT,
    });
    assertStatus((await alice.deleteObject({ objectId: ['del/p'], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    for (const id of ['del/p', 'del/e', 'del/c']) assert.equal(await exists(id), false, id);
    // The id is free again, and nothing of the old object comes back with it.
    await alice.createObject({ catalogData: [object('del/e', 'EXPERIMENT')], errorDeliveryMethod: DIRECT });
    const again = await alice.objectIdQuery({ objectId: ['del/e'], queryResultFormat: format({ contentFilter: 'FULL_SCHEMA', hierarchyFilter: 'SUBTREE' }) });
    assert.deepEqual(again.queryResponseSet?.objectResponse?.map((o) => [o.objectId, o.property, o.objectResponse]), [['del/e', [], []]]);
    const search = await alice.query({ queryTarget: { aggrType: 'EXPERIMENT', queryProperty: [{ name: 'citation', source: 'LEAD' }] }, queryResultFormat: format() });
    assert.ok(!ids(search).includes('del/e'));
  });

  it('deleteObject: the whiteboard, unknown and foreign objects are refused, the rest deleted (NON_FATAL_DELETE_ERROR)', async () => {
    await alice.createObject({ catalogData: [object('del/q', 'PROJECT')], errorDeliveryMethod: DIRECT });
    const response = await alice.deleteObject({ objectId: [whiteboard, 'no/such', 'bob/P', 'del/q'], errorDeliveryMethod: DIRECT });
    assertStatus(response.catalogOperationStatus, 'NON_FATAL_DELETE_ERROR', 'CANNOT_DELETE_WHITEBOARD', 'deleteObject');
    assert.deepEqual(response.catalogOperationStatus.operationSummary?.nonFatalError?.map((e) => e.cause), ['CANNOT_DELETE_WHITEBOARD', 'OBJECT_DOES_NOT_EXIST', 'OBJECT_DOES_NOT_EXIST']);
    assert.equal(await exists(whiteboard), true);
    assert.equal(await exists('bob/P'), true);
    assert.equal(await exists('del/q'), false);
    assertStatus((await alice.deleteObject({ objectId: ['no/such'], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'FATAL_DELETE_ERROR', 'OBJECT_DOES_NOT_EXIST');
  });

  it('objectExists is global: any caller learns that an id is taken, whoever owns it', async () => {
    const stranger = catalog.client('CN=Stranger');
    const found = await stranger.objectExists({ objectId: 'bob/P', errorDeliveryMethod: DIRECT });
    assertStatus(found.catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assert.equal(found.objectExists, true);
    assert.equal((await stranger.objectExists({ objectId: 'no/such', errorDeliveryMethod: DIRECT })).objectExists, false);
  });

  describe('moveObject', function () {
    before(async () => {
      // m/P1 > m/E1 > m/C1 > m/C2 > m/F;  m/P2 > m/E2;  bob/P > bob/E
      await alice.createObject({
        catalogData: [
          object('m/P1', 'PROJECT'),
          object('m/E1', 'EXPERIMENT', 'm/P1'),
          object('m/C1', 'COLLECTION', 'm/E1'),
          object('m/C2', 'COLLECTION', 'm/C1'),
          object('m/F', 'FILE', 'm/C2'),
          object('m/P2', 'PROJECT'),
          object('m/E2', 'EXPERIMENT', 'm/P2'),
        ],
        errorDeliveryMethod: DIRECT,
      });
      await bob.createObject({ catalogData: [object('bob/E', 'EXPERIMENT', 'bob/P')], errorDeliveryMethod: DIRECT });
    });

    // docs/catalog-operations.md #10: each case breaks its check and some later ones, so the cause
    // shows that the checks run in the contract's order.
    const checks: [string, { objectId: string; parentId: string; newUserId?: string }, CatalogStatusType][] = [
      ['1: an unknown object (and an unknown parent)', { objectId: 'm/none', parentId: 'no/such' }, 'OBJECT_MISSING'],
      ["1: another user's object", { objectId: 'bob/E', parentId: 'm/P1' }, 'OBJECT_MISSING'],
      ['2: the whiteboard (to an unknown parent)', { objectId: 'WB', parentId: 'no/such' }, 'CANNOT_MOVE_WHITEBOARD'],
      ['3: an unknown parent (and an unknown new user)', { objectId: 'm/C1', parentId: 'no/such', newUserId: 'CN=Nobody' }, 'PARENT_DOES_NOT_EXIST'],
      ['4: the object itself as parent', { objectId: 'm/C1', parentId: 'm/C1' }, 'SELF_PARENT_NOT_ALLOWED'],
      ['5: a descendant as parent (also below its level)', { objectId: 'm/E1', parentId: 'm/C2' }, 'NO_CIRCULAR_OWNERSHIP'],
      ['5: a deeper descendant as parent', { objectId: 'm/C1', parentId: 'm/C2' }, 'NO_CIRCULAR_OWNERSHIP'],
      ['6: an incompatible parent (and an unknown new user)', { objectId: 'm/E2', parentId: 'm/E1', newUserId: 'CN=Nobody' }, 'PARENT_NOT_COMPATIBLE'],
      ['6: a parent below the level', { objectId: 'm/E2', parentId: 'm/C1' }, 'PARENT_BELOW_CHILD_LEVEL'],
      ['7: an unknown new user', { objectId: 'm/C2', parentId: 'm/E2', newUserId: 'CN=Nobody' }, 'DN_DOES_NOT_EXIST'],
      ["ownership: another user's parent", { objectId: 'm/C2', parentId: 'bob/E' }, 'INVALID_OWNER'],
      ["ownership: with newUserId, a parent that is not the new user's", { objectId: 'm/C2', parentId: 'm/E2', newUserId: BOB }, 'INVALID_OWNER'],
    ];
    for (const [name, request, cause] of checks) {
      it(`check ${name}: FATAL_UPDATE_ERROR / ${cause}, nothing moved`, async () => {
        const before = tree(await alice.allWorkspaceQuery({}));
        const objectId = request.objectId === 'WB' ? whiteboard : request.objectId;
        const response = await alice.moveObject({ ...request, objectId, errorDeliveryMethod: DIRECT });
        assertStatus(response.catalogOperationStatus, 'FATAL_UPDATE_ERROR', cause, 'moveObject');
        assert.equal(tree(await alice.allWorkspaceQuery({})), before);
      });
    }

    it('moves the object with its subtree; context queries follow the new ancestors', async () => {
      const belowP = async (project: string) =>
        ids(await alice.query({ queryTarget: { aggrType: 'FILE' }, contextQuery: { queryComponent: [{ aggrType: 'PROJECT', objectId: project, relation: 'PARENT' }] }, queryResultFormat: format() }));
      assert.deepEqual(await belowP('m/P1'), ['m/F']);
      assertStatus((await alice.moveObject({ objectId: 'm/C1', parentId: 'm/E2', errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
      assert.equal(tree(await alice.objectIdQuery({ objectId: ['m/P1', 'm/P2'], queryResultFormat: format({ hierarchyFilter: 'SUBTREE' }) })), 'm/P1(m/E1) m/P2(m/E2(m/C1(m/C2(m/F))))');
      assert.deepEqual(await belowP('m/P1'), []);
      assert.deepEqual(await belowP('m/P2'), ['m/F']);
      const moved = await alice.objectIdQuery({ objectId: ['m/C1'], queryResultFormat: format({ showModifyDate: true, showCreateDate: true }) });
      const node = moved.queryResponseSet!.guidResponse![0]!;
      assert.ok(node.modificationDate! >= node.creationDate!);
      assert.equal(node.parentId, 'm/E2');
    });

    it('with newUserId hands the subtree to a user who owns the new parent', async () => {
      assertStatus((await alice.moveObject({ objectId: 'm/C2', parentId: 'bob/E', newUserId: BOB, errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
      assert.equal(tree(await bob.objectIdQuery({ objectId: ['bob/P'], queryResultFormat: format({ hierarchyFilter: 'SUBTREE' }) })), 'bob/P(bob/E(m/C2(m/F)))');
      // Alice no longer sees or owns any of it.
      assertStatus((await alice.objectIdQuery({ objectId: ['m/C2', 'm/F'], queryResultFormat: format() })).catalogOperationStatus, 'FATAL_QUERY_ERROR', 'OBJECT_DOES_NOT_EXIST');
      assertStatus((await alice.deleteObject({ objectId: ['m/F'], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'FATAL_DELETE_ERROR', 'OBJECT_DOES_NOT_EXIST');
      assertStatus((await bob.deleteObject({ objectId: ['m/F'], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    });
  });

  it('every response validates against wsdl/catalog-types.xsd', async () => {
    await catalog.recorder.assertAllValid();
  });
});

describe('SOAP catalog: concurrent moves from two processes', function () {
  this.timeout(120_000);
  let first: CatalogServer;
  let second: CatalogServer;

  before(async () => {
    first = await startCatalog();
    second = await startCatalog({ database: first.server.database });
  });
  after(async () => {
    await second?.stop();
    await first?.stop();
  });

  it('never create a cycle: every collection stays reachable from the root, exactly once', async () => {
    const dn = 'CN=Mover';
    const a = first.client(dn);
    const b = second.client(dn);
    await a.createUser({ catalogUser: [{ userId: dn }], errorDeliveryMethod: DIRECT });
    const collections = Array.from({ length: 8 }, (_, i) => `c${i}`);
    await a.createObject({ catalogData: [object('root', 'PROJECT'), object('exp', 'EXPERIMENT', 'root'), ...collections.map((c) => object(c, 'COLLECTION', 'exp'))], errorDeliveryMethod: DIRECT });

    // Opposite moves of the same pairs through both processes at once: each pair can only
    // land one way round; the other must see the first and refuse.
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const statuses = new Map<string, number>();
    for (let round = 0; round < 12; round++) {
      const moves: Promise<void>[] = [];
      for (let k = 0; k < 6; k++) {
        const x = collections[Math.floor(random() * collections.length)]!;
        let y = collections[Math.floor(random() * collections.length)]!;
        if (x === y) y = 'exp';
        for (const [client, objectId, parentId] of [[a, x, y], [b, y, x]] as const) {
          if (parentId === 'exp' && objectId === 'exp') continue;
          moves.push(
            client.moveObject({ objectId, parentId, errorDeliveryMethod: DIRECT }).then((r) => {
              const key = r.catalogOperationStatus.operationSummary?.operationStatus ?? r.catalogOperationStatus.status;
              statuses.set(key, (statuses.get(key) ?? 0) + 1);
            }),
          );
        }
      }
      await Promise.all(moves);
    }
    assert.ok((statuses.get('OPERATION_SUCCESSFUL') ?? 0) > 0, JSON.stringify([...statuses]));
    assert.ok((statuses.get('NO_CIRCULAR_OWNERSHIP') ?? 0) > 0, JSON.stringify([...statuses]));
    assert.deepEqual([...statuses.keys()].filter((k) => !['OPERATION_SUCCESSFUL', 'NO_CIRCULAR_OWNERSHIP', 'SELF_PARENT_NOT_ALLOWED'].includes(k)), []);

    const subtree = tree(await a.objectIdQuery({ objectId: ['root'], queryResultFormat: format({ hierarchyFilter: 'SUBTREE' }) }));
    const seen = subtree.match(/c\d/g) ?? [];
    assert.deepEqual([...seen].sort(), collections, subtree);
    // The closure agrees with the parent links: every collection has root as an ancestor.
    const below = await b.query({ queryTarget: { aggrType: 'COLLECTION' }, contextQuery: { queryComponent: [{ aggrType: 'PROJECT', objectId: 'root', relation: 'PARENT' }] }, queryResultFormat: format() });
    assert.deepEqual(ids(below).sort(), collections);
  });
});
