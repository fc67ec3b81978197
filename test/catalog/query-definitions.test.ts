import assert from 'node:assert/strict';
import type { CatalogServiceClient } from '../../generated/client/soap.js';
import type { CatalogStatusType, QueryDefinitionType } from '../../generated/soap/types.js';
import { assertStatus, DIRECT, format, ids, object, property, startCatalog, type CatalogServer } from '../helpers/catalog.js';

const ALICE = 'CN=Query Alice,O=Example';
const BOB = 'CN=Query Bob,O=Example';
const ADMIN = 'CN=Query Admin,O=Example';

/** COLLECTIONs below alice's project with grid dx < 5. */
const SMALL_GRIDS: QueryDefinitionType = {
  queryTarget: { aggrType: 'COLLECTION', description: 'fine grids', queryProperty: [{ name: 'grid', source: 'LEAD', queryElement: [{ name: 'dx', source: 'LEAD', queryValueElement: { value: '5', comparison: 'LT' } }] }] },
  contextQuery: { queryComponent: [{ aggrType: 'PROJECT', objectId: 'qd/P', relation: 'PARENT' }] },
};

/** saveQueryDefinition, getQueryDefinition, getAllQueryDescriptions and deleteQueryDefinition (docs/catalog-operations.md). */
describe('SOAP catalog: saved query definitions', function () {
  let catalog: CatalogServer;
  let alice: CatalogServiceClient;
  let bob: CatalogServiceClient;
  let admin: CatalogServiceClient;

  const save = (client: CatalogServiceClient, title: string, extra: { queryId?: string; public?: boolean; definition?: QueryDefinitionType } = {}) =>
    client.saveQueryDefinition({
      ...(extra.public === undefined ? {} : { public: extra.public }),
      title,
      description: `${title}, described`,
      ...(extra.queryId === undefined ? {} : { queryId: extra.queryId }),
      queryDefinition: extra.definition ?? SMALL_GRIDS,
      errorDeliveryMethod: DIRECT,
    });
  const get = (client: CatalogServiceClient, queryId: string) => client.getQueryDefinition({ queryId, resultDeliveryMethod: DIRECT, errorDeliveryMethod: DIRECT });
  const list = async (client: CatalogServiceClient) => {
    const response = await client.getAllQueryDescriptions({ resultDeliveryMethod: DIRECT, errorDeliveryMethod: DIRECT });
    assertStatus(response.catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    const set = response.queryDescriptionSet!;
    return { templates: (set.templateQuery ?? []).map((q) => q.name), own: (set.privateQuery ?? []).map((q) => q.name), all: [...(set.templateQuery ?? []), ...(set.privateQuery ?? [])] };
  };

  before(async () => {
    // Only ADMIN administers, so only ADMIN may save public definitions.
    catalog = await startCatalog({ env: { CATALOG_ADMIN_DNS: ADMIN } });
    alice = catalog.client(ALICE);
    bob = catalog.client(BOB);
    admin = catalog.client(ADMIN);
    for (const [client, dn] of [[alice, ALICE], [bob, BOB], [admin, ADMIN]] as const) {
      assertStatus((await client.createUser({ catalogUser: [{ userId: dn }], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    }
    const grids = Array.from({ length: 10 }, (_, i) => object(`qd/C${i}`, 'COLLECTION', 'qd/E', [property('grid', { dx: String(i) })]));
    await alice.createObject({ catalogData: [object('qd/P', 'PROJECT'), object('qd/E', 'EXPERIMENT', 'qd/P'), ...grids], errorDeliveryMethod: DIRECT });
  });
  after(async () => {
    await catalog?.stop();
  });

  it('a saved definition comes back as it was sent, and runs with query as the caller', async () => {
    const saved = await save(alice, 'small grids');
    assertStatus(saved.catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assert.match(saved.queryId!, /^urn:uuid:[0-9a-f-]{36}$/);
    const got = await get(alice, saved.queryId!);
    assertStatus(got.catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assert.deepEqual(got.queryDefinition, await roundTrip(SMALL_GRIDS));
    const run = await alice.query({ ...got.queryDefinition!, queryResultFormat: format() });
    assert.deepEqual(ids(run), ['qd/C0', 'qd/C1', 'qd/C2', 'qd/C3', 'qd/C4']);
    // Run by another user it sees that user's objects: none of alice's.
    assert.deepEqual(ids(await bob.query({ ...got.queryDefinition!, queryResultFormat: format() })), []);
  });

  it('getAllQueryDescriptions: the caller\'s own as privateQuery, public ones as templateQuery, in the order saved', async () => {
    await save(alice, 'second');
    await save(bob, 'bob only');
    assertStatus((await save(admin, 'template', { public: true })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assert.deepEqual(await list(alice), { templates: ['template'], own: ['small grids', 'second'], all: (await list(alice)).all });
    const bobs = await list(bob);
    assert.deepEqual([bobs.templates, bobs.own], [['template'], ['bob only']]);
    const described = (await list(alice)).all.find((q) => q.name === 'second')!;
    assert.equal(described.description, 'second, described');
    assertStatus((await get(alice, described.queryId)).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
  });

  it('a user with no definitions gets an empty set, not an error', async () => {
    const stranger = 'CN=Query Stranger';
    await catalog.client(stranger).createUser({ catalogUser: [{ userId: stranger }], errorDeliveryMethod: DIRECT });
    assert.deepEqual(await list(catalog.client(stranger)), { templates: ['template'], own: [], all: (await list(catalog.client(stranger))).all });
  });

  it('saving with the queryId of one\'s own definition replaces it; a chosen new queryId is kept', async () => {
    const saved = await save(alice, 'replace me', { queryId: 'qd/mine' });
    assert.equal(saved.queryId, 'qd/mine');
    const replacement: QueryDefinitionType = { queryTarget: { aggrType: 'EXPERIMENT' } };
    assertStatus((await save(alice, 'replaced', { queryId: 'qd/mine', definition: replacement })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assert.deepEqual((await get(alice, 'qd/mine')).queryDefinition, await roundTrip(replacement));
    const names = (await list(alice)).own;
    assert.ok(names.includes('replaced') && !names.includes('replace me'), names.join());
  });

  const refusals: [string, { as: 'alice' | 'bob' | 'none'; title?: string; queryId?: string; public?: boolean; definition?: QueryDefinitionType; want: CatalogStatusType }][] = [
    ["another user's queryId", { as: 'bob', queryId: 'qd/mine', want: 'AUTHORIZATION_ERROR' }],
    ['public="true" by a user who is no administrator', { as: 'alice', public: true, want: 'AUTHORIZATION_ERROR' }],
    ['an empty title', { as: 'alice', title: ' ', want: 'SAVE_QUERY_DEFINITION_ERROR' }],
    ['a condition the query operation refuses (a polygon)', {
      as: 'alice',
      definition: { queryTarget: { aggrType: 'COLLECTION', queryProperty: [{ name: 'spatialBounds', source: 'LEAD', queryElement: [{ name: 'boundingBox', source: 'LEAD', queryPolygonElement: { xyPoint: [0, 1, 2, 3].map((i) => ({ xPos: i, yPos: i })), spatialComparison: 'WITHIN' } }] }] } },
      want: 'QRY_INVALID_FILTER',
    }],
    ['no DN', { as: 'none', want: 'MISSING_DN' }],
  ];
  for (const [name, given] of refusals) {
    it(`saveQueryDefinition refuses ${name}: FATAL_CREATE_ERROR / ${given.want}, queryId nil, nothing saved`, async () => {
      const client = given.as === 'alice' ? alice : given.as === 'bob' ? bob : catalog.client(undefined);
      const before = given.as === 'none' ? undefined : await list(client);
      const response = await save(client, given.title ?? 'refused', { ...(given.queryId ? { queryId: given.queryId } : {}), ...(given.public ? { public: true } : {}), ...(given.definition ? { definition: given.definition } : {}) });
      assertStatus(response.catalogOperationStatus, 'FATAL_CREATE_ERROR', given.want, 'saveQueryDefinition');
      assert.equal(response.queryId, null);
      if (before) assert.deepEqual(await list(client), before);
    });
  }

  it('a DN that is not a user saves nothing: DN_DOES_NOT_EXIST', async () => {
    const response = await save(catalog.client('CN=Nobody'), 'x');
    assertStatus(response.catalogOperationStatus, 'FATAL_CREATE_ERROR', 'DN_DOES_NOT_EXIST');
  });

  it("getQueryDefinition: another user's private definition does not exist for the caller; a public one does", async () => {
    const mine = (await list(bob)).all.find((q) => q.name === 'bob only')!.queryId;
    const response = await get(alice, mine);
    assertStatus(response.catalogOperationStatus, 'FATAL_QUERY_ERROR', 'QUERY_DEFINITION_DOES_NOT_EXIST', 'getQueryDefinition');
    assert.equal(response.queryDefinition, undefined);
    assertStatus((await get(alice, 'qd/no-such')).catalogOperationStatus, 'FATAL_QUERY_ERROR', 'QUERY_DEFINITION_DOES_NOT_EXIST');
    const template = (await list(alice)).all.find((q) => q.name === 'template')!.queryId;
    assertStatus((await get(alice, template)).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
  });

  it('deleteQueryDefinition deletes only the caller\'s own', async () => {
    const template = (await list(alice)).all.find((q) => q.name === 'template')!.queryId;
    assertStatus((await alice.deleteQueryDefinition({ queryId: template, errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'FATAL_DELETE_ERROR', 'AUTHORIZATION_ERROR', 'deleteQueryDefinition');
    const bobs = (await list(bob)).all.find((q) => q.name === 'bob only')!.queryId;
    assertStatus((await alice.deleteQueryDefinition({ queryId: bobs, errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'FATAL_DELETE_ERROR', 'QUERY_DEFINITION_DOES_NOT_EXIST');
    assertStatus((await alice.deleteQueryDefinition({ queryId: 'qd/mine', errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assertStatus((await get(alice, 'qd/mine')).catalogOperationStatus, 'FATAL_QUERY_ERROR', 'QUERY_DEFINITION_DOES_NOT_EXIST');
    assertStatus((await alice.deleteQueryDefinition({ queryId: 'qd/mine', errorDeliveryMethod: 'NONE' })).catalogOperationStatus, 'FATAL_DELETE_ERROR');
    assertStatus((await admin.deleteQueryDefinition({ queryId: template, errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assert.deepEqual((await list(alice)).templates, []);
  });

  it("a user's definitions follow a rename and go with the user", async () => {
    const renamed = 'CN=Query Bob II,O=Example';
    assertStatus((await bob.updateUser({ userId: BOB, catalogUser: [{ userId: renamed }], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    const bob2 = catalog.client(renamed);
    assert.deepEqual((await list(bob2)).own, ['bob only']);
    assertStatus((await bob2.deleteUser({ deletedUserId: [renamed], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    await bob2.createUser({ catalogUser: [{ userId: renamed }], errorDeliveryMethod: DIRECT });
    assert.deepEqual((await list(bob2)).own, []);
  });

  it('without a DN the reads answer MISSING_DN', async () => {
    const anonymous = catalog.client(undefined);
    assertStatus((await get(anonymous, 'qd/x')).catalogOperationStatus, 'FATAL_QUERY_ERROR', 'MISSING_DN');
    assertStatus((await anonymous.getAllQueryDescriptions({ resultDeliveryMethod: DIRECT, errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'FATAL_QUERY_ERROR', 'MISSING_DN');
    assertStatus((await anonymous.deleteQueryDefinition({ queryId: 'qd/x', errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'FATAL_DELETE_ERROR', 'MISSING_DN');
  });

  it('every response validates against wsdl/catalog-types.xsd', async () => {
    await catalog.recorder.assertAllValid();
  });

  /** What the codecs make of a definition written and read again (attributes with defaults filled in). */
  async function roundTrip(definition: QueryDefinitionType): Promise<QueryDefinitionType> {
    const codecs = await import('../../generated/soap/codecs.js');
    const { parseXml, XmlOut } = await import('../../generated/soap/runtime.js');
    const o = new XmlOut();
    o.start('w');
    o.attribute('xmlns', codecs.NAMESPACE);
    codecs.writeQueryDefinitionType(o, 'queryDefinition', definition);
    o.end('w');
    return codecs.readQueryDefinitionType(parseXml(o.toString()).children[0]!, '/queryDefinition');
  }
});
