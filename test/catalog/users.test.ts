import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CatalogServiceClient } from '../../generated/client/soap.js';
import type { CatalogOperationStatusType, CatalogStatusType, UserType } from '../../generated/soap/types.js';
import { assertStatus, DIRECT, format, ids, object, property, startCatalog, tree, type CatalogServer } from '../helpers/catalog.js';

const ADMIN = 'CN=Admin,O=Example';
const ALICE = '/C=US/O=Indiana University/CN=Alice';
const BOB = 'CN=Bob,O=Example';

describe('SOAP catalog: users, whiteboards and the status policy', function () {
  let catalog: CatalogServer;
  let admin: CatalogServiceClient;
  let alice: CatalogServiceClient;

  before(async () => {
    catalog = await startCatalog({ env: { CATALOG_ADMIN_DNS: `${ADMIN}; CN=Root` } });
    admin = catalog.client(ADMIN);
    alice = catalog.client(ALICE);
  });
  after(async () => {
    await catalog?.stop();
  });

  it('checkStatus answers without a DN, with version, start time, users and objects', async () => {
    const before = await catalog.client(undefined).checkStatus({ errorDeliveryMethod: DIRECT });
    assertStatus(before.catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    const stats = new Map((before.catalogStat ?? []).map((s) => [s.name, s.value]));
    assert.deepEqual([...stats.keys()], ['version', 'startTime', 'users', 'objects']);
    assert.equal(stats.get('version'), '0.1.0');
    assert.ok(Math.abs(Number(stats.get('startTime')) - Date.now()) < 120_000);
    await admin.createUser({ catalogUser: [{ userId: 'CN=Counted' }], errorDeliveryMethod: DIRECT });
    const after = new Map(((await admin.checkStatus({ errorDeliveryMethod: DIRECT })).catalogStat ?? []).map((s) => [s.name, Number(s.value)]));
    assert.equal(after.get('users'), Number(stats.get('users')) + 1);
    assert.equal(after.get('objects'), Number(stats.get('objects')) + 1, 'the whiteboard');
  });

  it('checkStatus counts follow creates, subtree deletes, moves and user deletes', async () => {
    const counts = async () =>
      new Map(((await admin.checkStatus({ errorDeliveryMethod: DIRECT })).catalogStat ?? []).filter((s) => s.name !== 'version' && s.name !== 'startTime').map((s) => [s.name, Number(s.value)]));
    const start = await counts();
    const counter = 'CN=Counter,O=Example';
    await admin.createUser({ catalogUser: [{ userId: counter }, { userId: 'CN=Counter2,O=Example' }], errorDeliveryMethod: DIRECT });
    const counterClient = catalog.client(counter);
    assertStatus(
      (
        await counterClient.createObject({
          catalogData: [object('cnt/p', 'PROJECT'), object('cnt/e', 'EXPERIMENT', 'cnt/p'), object('cnt/c1', 'COLLECTION', 'cnt/e'), object('cnt/c2', 'COLLECTION', 'cnt/e', [property('grid', { dx: '1' })])],
          errorDeliveryMethod: DIRECT,
        })
      ).catalogOperationStatus,
      'OPERATION_SUCCESSFUL',
    );
    // Two users, each with a whiteboard, and four objects.
    assert.deepEqual(await counts(), new Map([['users', start.get('users')! + 2], ['objects', start.get('objects')! + 6]]));
    assertStatus((await counterClient.moveObject({ objectId: 'cnt/c2', parentId: 'cnt/p', errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assertStatus((await counterClient.deleteObject({ objectId: ['cnt/e'], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assert.deepEqual(await counts(), new Map([['users', start.get('users')! + 2], ['objects', start.get('objects')! + 4]]), 'the experiment and its collection');
    assertStatus((await admin.deleteUser({ deletedUserId: [counter, 'CN=Counter2,O=Example'], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assert.deepEqual(await counts(), start);
  });

  // Every operation but checkStatus needs the caller's DN; without it, the operation's fatal
  // code with cause MISSING_DN, and the elements the schema requires anyway.
  const withoutDn: [string, (c: CatalogServiceClient) => Promise<{ catalogOperationStatus: CatalogOperationStatusType }>, CatalogStatusType, (r: any) => void][] = [
    ['createUser', (c) => c.createUser({ catalogUser: [{ userId: 'CN=x' }], errorDeliveryMethod: DIRECT }), 'FATAL_CREATE_ERROR', () => {}],
    ['updateUser', (c) => c.updateUser({ userId: ALICE, catalogUser: [{ userId: ALICE }], errorDeliveryMethod: DIRECT }), 'FATAL_UPDATE_ERROR', () => {}],
    ['deleteUser', (c) => c.deleteUser({ deletedUserId: [ALICE], errorDeliveryMethod: DIRECT }), 'FATAL_DELETE_ERROR', () => {}],
    ['queryUser', (c) => c.queryUser({ userId: ALICE, errorDeliveryMethod: DIRECT }), 'FATAL_QUERY_ERROR', (r) => assert.deepEqual(r.catalogUser, [])],
    ['doesUserExist', (c) => c.doesUserExist({ errorDeliveryMethod: DIRECT }), 'FATAL_QUERY_ERROR', (r) => assert.equal(r.userExists, false)],
    ['whiteboardId', (c) => c.whiteboardId({ errorDeliveryMethod: DIRECT }), 'FATAL_QUERY_ERROR', (r) => assert.equal(r.objectId, null)],
    ['createObject', (c) => c.createObject({ catalogData: [object('x', 'PROJECT')], errorDeliveryMethod: DIRECT }), 'FATAL_CREATE_ERROR', () => {}],
    ['deleteObject', (c) => c.deleteObject({ objectId: ['x'], errorDeliveryMethod: DIRECT }), 'FATAL_DELETE_ERROR', () => {}],
    ['moveObject', (c) => c.moveObject({ objectId: 'x', parentId: 'y', errorDeliveryMethod: DIRECT }), 'FATAL_UPDATE_ERROR', () => {}],
    ['objectExists', (c) => c.objectExists({ objectId: 'x', errorDeliveryMethod: DIRECT }), 'FATAL_QUERY_ERROR', (r) => assert.equal(r.objectExists, false)],
    ['addProperty', (c) => c.addProperty({ catalogProperty: [{ objectId: 'x', catalogPropertyAdd: [property('p', { e: '1' })] }], errorDeliveryMethod: DIRECT }), 'FATAL_UPDATE_ERROR', () => {}],
    ['updateProperty', (c) => c.updateProperty({ updateProperty: { objectId: 'x', catalogPropertyUpdate: property('p', { e: '1' }) }, errorDeliveryMethod: DIRECT }), 'FATAL_UPDATE_ERROR', () => {}],
    ['deleteProperty', (c) => c.deleteProperty({ deleteProperty: { objectId: 'x', propertyName: 'p', propertySource: 'LEAD', lastUpdate: 0 }, errorDeliveryMethod: DIRECT }), 'FATAL_DELETE_ERROR', () => {}],
    ['query', (c) => c.query({ queryTarget: { aggrType: 'PROJECT' }, queryResultFormat: format() }), 'FATAL_QUERY_ERROR', (r) => assert.equal(r.queryResponseSet, null)],
    ['objectIdQuery', (c) => c.objectIdQuery({ objectId: ['x'], queryResultFormat: format() }), 'FATAL_QUERY_ERROR', (r) => assert.equal(r.queryResponseSet, null)],
    ['allWorkspaceQuery', (c) => c.allWorkspaceQuery({}), 'FATAL_QUERY_ERROR', (r) => assert.equal(r.queryResponseSet, null)],
    ['queryPropertyDefinitions', (c) => c.queryPropertyDefinitions({ resultDeliveryMethod: DIRECT, errorDeliveryMethod: DIRECT }), 'FATAL_QUERY_ERROR', (r) => assert.equal(r.metadataDefinition, null)],
  ];
  for (const [operation, call, fatal, fills] of withoutDn) {
    it(`${operation} without a Username header: ${fatal} / MISSING_DN`, async () => {
      const response = await call(catalog.client(undefined));
      assertStatus(response.catalogOperationStatus, fatal, 'MISSING_DN', operation);
      assert.equal(response.catalogOperationStatus.operationSummary?.hasFatalErrors, true);
      assert.equal(response.catalogOperationStatus.operationSummary?.operationName, operation);
      fills(response);
    });
  }

  it('an empty Username header counts as no DN', async () => {
    const answer = await catalog.raw(`<doesUserExistRequest xmlns="http://www.cs.indiana.edu/dde/namespaces/2008/02/catalog/types"><errorDeliveryMethod>DIRECT</errorDeliveryMethod></doesUserExistRequest>`, { dn: '   ' });
    assert.equal(answer.status, 200);
    assert.match(answer.text, /<status>FATAL_QUERY_ERROR<\/status>.*<operationStatus>MISSING_DN<\/operationStatus>.*<userExists>false<\/userExists>/s);
  });

  it('createUser stores the contact fields and a whiteboard; queryUser, doesUserExist and whiteboardId report them', async () => {
    const full: UserType = {
      userId: ALICE,
      userName: 'Alice A.',
      organization: 'Indiana University',
      position: 'Researcher',
      address: { addrType: 'office', addrStreet: '107 S Indiana Ave', addrCity: 'Bloomington', addrState: 'IN', addrPostcode: '47405', addrCountry: 'US' },
      phone: '+1 812 555 0100',
      ttdttyPhone: '+1 812 555 0101',
      email: 'alice@example.org',
      fax: '+1 812 555 0102',
      url: 'https://example.org/alice',
      hours: '9-5',
      contactInstructions: 'email first',
    };
    assert.equal((await alice.doesUserExist({ errorDeliveryMethod: DIRECT })).userExists, false, 'an unknown DN is an answer, not an error');
    assertStatus((await alice.createUser({ catalogUser: [full], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    const exists = await alice.doesUserExist({ errorDeliveryMethod: DIRECT });
    assertStatus(exists.catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assert.equal(exists.userExists, true);
    const queried = await admin.queryUser({ userId: ALICE, errorDeliveryMethod: DIRECT });
    assertStatus(queried.catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assert.deepEqual(queried.catalogUser, [full]);
    const whiteboard = await alice.whiteboardId({ errorDeliveryMethod: DIRECT });
    assertStatus(whiteboard.catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assert.match(whiteboard.objectId ?? '', /^urn:uuid:[0-9a-f-]{36}$/);
    const workspace = await alice.allWorkspaceQuery({});
    assert.deepEqual(ids(workspace), [whiteboard.objectId]);
    assert.equal(resultClass(workspace), 'WHITEBOARD');
  });

  it('createUser builds the initial workspace: a named whiteboard, its children and nested initialObject trees', async () => {
    const dn = 'CN=Carol,O=Example';
    const response = await admin.createUser({
      catalogUser: [
        {
          userId: dn,
          initialWorkspace: {
            whiteboard: {
              catalogData: { objectId: 'carol/wb', objectClass: 'WHITEBOARD', catalogPropertyAdd: [property('keyword', {}, { value: 'scratch' })] },
              initialObject: [{ catalogData: object('carol/loose', 'COLLECTION') }],
            },
            initialObject: [
              {
                catalogData: object('carol/p', 'PROJECT', undefined, [property('citation', { title: 'Carol project' })]),
                initialObject: [{ catalogData: object('carol/e', 'EXPERIMENT'), initialObject: [{ catalogData: object('carol/c', 'COLLECTION') }] }],
              },
              { catalogData: object('carol/unfiled', 'COLLECTION') },
            ],
          },
        },
      ],
      errorDeliveryMethod: DIRECT,
    });
    assertStatus(response.catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    const carol = catalog.client(dn);
    assert.equal((await carol.whiteboardId({ errorDeliveryMethod: DIRECT })).objectId, 'carol/wb');
    // Top-level initialObjects follow the no-parent rule: a PROJECT is a root, the rest go to the
    // whiteboard. One request gives one creation time, so the order is by objectId.
    assert.equal(tree(await carol.allWorkspaceQuery({})), 'carol/p(carol/e(carol/c)) carol/wb(carol/loose carol/unfiled)');
    const full = await carol.objectIdQuery({ objectId: ['carol/wb', 'carol/p'], queryResultFormat: format({ contentFilter: 'FULL_SCHEMA' }) });
    assert.deepEqual(full.queryResponseSet?.objectResponse?.map((o) => o.property), [
      [{ name: 'keyword', source: 'LEAD', value: 'scratch', element: [], property: [] }],
      [{ name: 'citation', source: 'LEAD', element: [{ name: 'title', source: 'LEAD', value: 'Carol project' }], property: [] }],
    ]);
  });

  it('a user whose initial workspace fails is not created at all (one user is one atomic item)', async () => {
    const dn = 'CN=Dave,O=Example';
    const response = await admin.createUser({
      catalogUser: [
        {
          userId: dn,
          initialWorkspace: {
            whiteboard: { catalogData: { objectId: 'dave/wb', objectClass: 'WHITEBOARD' } },
            initialObject: [{ catalogData: object('dave/f', 'FILE'), initialObject: [{ catalogData: object('dave/g', 'FILE') }] }],
          },
        },
      ],
      errorDeliveryMethod: DIRECT,
    });
    assertStatus(response.catalogOperationStatus, 'FATAL_CREATE_ERROR', 'PARENT_NOT_COMPATIBLE', 'createUser');
    assert.equal((await catalog.client(dn).doesUserExist({ errorDeliveryMethod: DIRECT })).userExists, false);
    for (const id of ['dave/wb', 'dave/f', 'dave/g']) assert.equal((await admin.objectExists({ objectId: id, errorDeliveryMethod: DIRECT })).objectExists, false, id);
  });

  it('createUser with some users refused: NON_FATAL_CREATE_ERROR, one nonFatalError each, the others stored', async () => {
    const response = await admin.createUser({
      catalogUser: [{ userId: 'CN=Erin' }, { userId: ALICE }, { userId: '  ' }, { userId: 'CN=Erin' }],
      errorDeliveryMethod: DIRECT,
    });
    assertStatus(response.catalogOperationStatus, 'NON_FATAL_CREATE_ERROR', 'DUPLICATE_DN', 'createUser');
    const summary = response.catalogOperationStatus.operationSummary!;
    assert.equal(summary.hasFatalErrors, false);
    assert.equal(summary.hasNonFatalErrors, true);
    assert.deepEqual(summary.fatalError, []);
    assert.deepEqual(summary.nonFatalError?.map((e) => e.cause), ['DUPLICATE_DN', 'NO_USER_ID', 'DUPLICATE_DN']);
    assert.match(summary.nonFatalError![0]!.description, /catalogUser\[2\]/);
    assert.equal((await catalog.client('CN=Erin').doesUserExist({ errorDeliveryMethod: DIRECT })).userExists, true);
  });

  it('createUser with every user refused: FATAL_CREATE_ERROR with fatalErrors', async () => {
    const response = await admin.createUser({ catalogUser: [{ userId: ALICE }, { userId: '' }], errorDeliveryMethod: DIRECT });
    assertStatus(response.catalogOperationStatus, 'FATAL_CREATE_ERROR', 'DUPLICATE_DN');
    assert.deepEqual(response.catalogOperationStatus.operationSummary?.fatalError?.map((e) => e.cause), ['DUPLICATE_DN', 'NO_USER_ID']);
    assert.deepEqual(response.catalogOperationStatus.operationSummary?.nonFatalError, []);
  });

  it('with CATALOG_ADMIN_DNS set, only admins manage other users; anyone may register or change themself', async () => {
    const bob = catalog.client(BOB);
    assertStatus((await bob.createUser({ catalogUser: [{ userId: 'CN=Mallory' }], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'FATAL_CREATE_ERROR', 'AUTHORIZATION_ERROR');
    assertStatus((await bob.createUser({ catalogUser: [{ userId: BOB }], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assertStatus((await bob.updateUser({ userId: ALICE, catalogUser: [{ userId: ALICE }], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'FATAL_UPDATE_ERROR', 'AUTHORIZATION_ERROR');
    assertStatus((await bob.deleteUser({ deletedUserId: [ALICE], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'FATAL_DELETE_ERROR', 'AUTHORIZATION_ERROR');
    assertStatus((await bob.updateUser({ userId: BOB, catalogUser: [{ userId: BOB, email: 'bob@example.org' }], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assert.equal((await alice.doesUserExist({ errorDeliveryMethod: DIRECT })).userExists, true, 'Alice is still there');
    // The second admin of the semicolon-separated list.
    assertStatus((await catalog.client('CN=Root').createUser({ catalogUser: [{ userId: 'CN=Made,O=ByRoot' }], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
  });

  it('updateUser replaces every contact field', async () => {
    assertStatus((await admin.updateUser({ userId: ALICE, catalogUser: [{ userId: ALICE, userName: 'Alice B.', email: 'a@b.example' }], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assert.deepEqual((await admin.queryUser({ userId: ALICE, errorDeliveryMethod: DIRECT })).catalogUser, [{ userId: ALICE, userName: 'Alice B.', email: 'a@b.example' }]);
  });

  it('updateUser with a new userId renames the user and re-owns the objects', async () => {
    const old = 'CN=Frank,O=Example';
    const renamed = 'CN=Francis,O=Example';
    await admin.createUser({ catalogUser: [{ userId: old }], errorDeliveryMethod: DIRECT });
    const frank = catalog.client(old);
    const whiteboard = (await frank.whiteboardId({ errorDeliveryMethod: DIRECT })).objectId;
    await sleep(5); // creation order, not objectId order, puts the whiteboard first
    await frank.createObject({ catalogData: [object('frank/p', 'PROJECT'), object('frank/c', 'COLLECTION')], errorDeliveryMethod: DIRECT });
    assertStatus((await frank.updateUser({ userId: old, catalogUser: [{ userId: renamed, userName: 'Francis' }], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assert.equal((await frank.doesUserExist({ errorDeliveryMethod: DIRECT })).userExists, false);
    const francis = catalog.client(renamed);
    assert.equal((await francis.whiteboardId({ errorDeliveryMethod: DIRECT })).objectId, whiteboard);
    assert.equal(tree(await francis.allWorkspaceQuery({})), `${whiteboard}(frank/c) frank/p`);
    // The old DN owns nothing any more: it cannot change the objects.
    assertStatus((await frank.deleteObject({ objectId: ['frank/p'], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'FATAL_DELETE_ERROR', 'OBJECT_DOES_NOT_EXIST');
    assertStatus((await francis.deleteObject({ objectId: ['frank/p'], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
  });

  const updateFailures: [string, { userId: string; newId: string }, CatalogStatusType][] = [
    ['an unknown user', { userId: 'CN=Nobody', newId: 'CN=Nobody' }, 'DN_DOES_NOT_EXIST'],
    ['a rename onto an existing DN', { userId: ALICE, newId: BOB }, 'DUPLICATE_DN'],
    ['an empty new userId', { userId: ALICE, newId: ' ' }, 'UPDATE_USER_ERROR'],
  ];
  for (const [name, { userId, newId }, cause] of updateFailures) {
    it(`updateUser of ${name}: FATAL_UPDATE_ERROR / ${cause}`, async () => {
      const response = await admin.updateUser({ userId, catalogUser: [{ userId: newId, userName: 'changed' }], errorDeliveryMethod: DIRECT });
      assertStatus(response.catalogOperationStatus, 'FATAL_UPDATE_ERROR', cause, 'updateUser');
      assert.notEqual((await admin.queryUser({ userId: ALICE, errorDeliveryMethod: DIRECT })).catalogUser?.[0]?.userName, 'changed');
    });
  }

  it('deleteUser removes the user with every object they own, whiteboard included', async () => {
    const dn = 'CN=Gina';
    await admin.createUser({ catalogUser: [{ userId: dn }], errorDeliveryMethod: DIRECT });
    const gina = catalog.client(dn);
    const whiteboard = (await gina.whiteboardId({ errorDeliveryMethod: DIRECT })).objectId!;
    await gina.createObject({ catalogData: [object('gina/p', 'PROJECT', undefined, [property('citation', { title: 't' })]), object('gina/e', 'EXPERIMENT', 'gina/p'), object('gina/c', 'COLLECTION')], errorDeliveryMethod: DIRECT });
    const response = await admin.deleteUser({ deletedUserId: [dn, 'CN=Ghost'], errorDeliveryMethod: DIRECT });
    assertStatus(response.catalogOperationStatus, 'NON_FATAL_DELETE_ERROR', 'DN_DOES_NOT_EXIST', 'deleteUser');
    assert.equal((await gina.doesUserExist({ errorDeliveryMethod: DIRECT })).userExists, false);
    for (const id of [whiteboard, 'gina/p', 'gina/e', 'gina/c']) assert.equal((await admin.objectExists({ objectId: id, errorDeliveryMethod: DIRECT })).objectExists, false, id);
    assertStatus((await admin.deleteUser({ deletedUserId: ['CN=Ghost'], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'FATAL_DELETE_ERROR', 'DN_DOES_NOT_EXIST');
  });

  it('queryUser of an unknown DN: FATAL_QUERY_ERROR / DN_DOES_NOT_EXIST and no catalogUser', async () => {
    const response = await alice.queryUser({ userId: 'CN=Nobody', errorDeliveryMethod: DIRECT });
    assertStatus(response.catalogOperationStatus, 'FATAL_QUERY_ERROR', 'DN_DOES_NOT_EXIST', 'queryUser');
    assert.deepEqual(response.catalogUser, []);
  });

  it('whiteboardId of an unknown DN: FATAL_QUERY_ERROR / DN_DOES_NOT_EXIST with a nil objectId', async () => {
    const answer = await catalog.raw(`<whiteboardIdRequest xmlns="http://www.cs.indiana.edu/dde/namespaces/2008/02/catalog/types"><errorDeliveryMethod>DIRECT</errorDeliveryMethod></whiteboardIdRequest>`, { dn: 'CN=Nobody' });
    assert.match(answer.text, /<status>FATAL_QUERY_ERROR<\/status>.*DN_DOES_NOT_EXIST.*<objectId xsi:nil="true"\/>/s);
  });

  it('errorDeliveryMethod NONE leaves the summary out; STREAMING is answered as DIRECT', async () => {
    const none = await alice.queryUser({ userId: 'CN=Nobody', errorDeliveryMethod: 'NONE' });
    assert.deepEqual(none.catalogOperationStatus, { status: 'FATAL_QUERY_ERROR' });
    const streaming = await alice.queryUser({ userId: 'CN=Nobody', errorDeliveryMethod: 'STREAMING' });
    assertStatus(streaming.catalogOperationStatus, 'FATAL_QUERY_ERROR', 'DN_DOES_NOT_EXIST');
    assert.equal(streaming.catalogOperationStatus.errorStreamUrl, undefined);
    const success = await alice.queryUser({ userId: ALICE, errorDeliveryMethod: DIRECT });
    assert.equal(success.catalogOperationStatus.operationSummary, undefined, 'no summary on success');
  });

  it('every response validates against wsdl/catalog-types.xsd', async () => {
    await catalog.recorder.assertAllValid();
  });
});

describe('SOAP catalog: users without CATALOG_ADMIN_DNS', function () {
  let catalog: CatalogServer;
  before(async () => {
    catalog = await startCatalog();
  });
  after(async () => {
    await catalog?.stop();
  });

  it('anyone may create, update and delete other users', async () => {
    const anyone = catalog.client('CN=Anyone');
    assertStatus((await anyone.createUser({ catalogUser: [{ userId: 'CN=Other' }], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assertStatus((await anyone.updateUser({ userId: 'CN=Other', catalogUser: [{ userId: 'CN=Other', hours: 'never' }], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assertStatus((await anyone.deleteUser({ deletedUserId: ['CN=Other'], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    await catalog.recorder.assertAllValid();
  });
});

function resultClass(response: Awaited<ReturnType<CatalogServiceClient['allWorkspaceQuery']>>): string | undefined {
  return response.queryResponseSet?.guidResponse?.[0]?.objectClass;
}
