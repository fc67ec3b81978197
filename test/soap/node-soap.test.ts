import assert from 'node:assert/strict';
import soap from 'soap';
import { DIRECT, startCatalog, USERNAME_NS, type CatalogServer } from '../helpers/catalog.js';

const DN = 'CN=Soapy,O=Example';

/** What node-soap makes of a response: elements as members, attributes under `attributes`. */
type Parsed = Record<string, any>;

/** node-soap gives one repeated element as an object, several as an array. */
const list = (value: unknown): Parsed[] => (value === undefined ? [] : Array.isArray(value) ? value : [value as Parsed]);

describe('SOAP catalog through node-soap, built from GET ?wsdl', function () {
  let catalog: CatalogServer;
  let client: soap.Client;
  /** Call an operation and return node-soap's parsed result. */
  let call: (operation: string, args: object) => Promise<Parsed>;

  before(async () => {
    catalog = await startCatalog();
    client = await soap.createClientAsync(`${catalog.url}?wsdl`);
    client.addSoapHeader(`<Username xmlns="${USERNAME_NS}">${DN}</Username>`);
    // Every raw response node-soap receives joins the XSD check at the end.
    client.on('response', (body: string) => catalog.recorder.record(body, 'node-soap'));
    call = async (operation, args) => {
      const [result] = await (client as unknown as Record<string, (a: object) => Promise<[Parsed]>>)[`${operation}Async`]!(args);
      return result;
    };
  });
  after(async () => {
    await catalog?.stop();
  });

  const ok = (result: Parsed) => assert.equal(result.catalogOperationStatus.status, 'OPERATION_SUCCESSFUL', JSON.stringify(result));
  const resultFormat = (extra: object = {}) => ({ offset: 0, count: 0, hierarchyFilter: 'TARGET', contentFilter: 'ID_ONLY', ...extra, resultDeliveryMethod: DIRECT, errorDeliveryMethod: DIRECT });

  it("the WSDL describes the 24 operations of XMC Cat's published WSDL", () => {
    assert.deepEqual(Object.keys(client.describe().CatalogService.CatalogPort).sort(), [
      'addProperty', 'allWorkspaceQuery', 'assignObject', 'checkStatus', 'createObject', 'createUser', 'deleteObject', 'deleteProperty', 'deleteQueryDefinition', 'deleteUser',
      'doesUserExist', 'getAllQueryDescriptions', 'getQueryDefinition', 'lastUpdate', 'moveObject', 'objectExists', 'objectIdQuery', 'query', 'queryPropertyDefinitions', 'queryUser',
      'saveQueryDefinition', 'updateProperty', 'updateUser', 'whiteboardId',
    ]);
  });

  it('runs every operation', async () => {
    const status = await call('checkStatus', { errorDeliveryMethod: DIRECT });
    ok(status);
    assert.deepEqual(list(status.catalogStat).map((s: Parsed) => s.attributes.name), ['version', 'startTime', 'users', 'objects']);

    ok(await call('createUser', { catalogUser: [{ userId: DN, userName: 'Soapy', initialWorkspace: { initialObject: [{ catalogData: { objectId: 'ns/p', objectClass: 'PROJECT' } }] } }], errorDeliveryMethod: DIRECT }));
    assert.equal((await call('doesUserExist', { errorDeliveryMethod: DIRECT })).userExists, true);
    const whiteboard = (await call('whiteboardId', { errorDeliveryMethod: DIRECT })).objectId as string;
    assert.match(whiteboard, /^urn:uuid:/);
    ok(await call('updateUser', { userId: DN, catalogUser: [{ userId: DN, userName: 'Soapy II', email: 'soapy@example.org' }], errorDeliveryMethod: DIRECT }));
    const user = await call('queryUser', { userId: DN, errorDeliveryMethod: DIRECT });
    assert.deepEqual([list(user.catalogUser)[0]!.userName, list(user.catalogUser)[0]!.email], ['Soapy II', 'soapy@example.org']);

    ok(
      await call('createObject', {
        catalogData: [
          { objectId: 'ns/e', objectClass: 'EXPERIMENT', parentId: 'ns/p' },
          { objectId: 'ns/c', objectClass: 'COLLECTION', parentId: 'ns/e', catalogPropertyAdd: [{ name: 'grid', source: 'LEAD', element: [{ name: 'dx', value: '12' }, { name: 'nx', value: '300' }] }] },
        ],
        errorDeliveryMethod: DIRECT,
      }),
    );
    assert.equal((await call('objectExists', { objectId: 'ns/c', errorDeliveryMethod: DIRECT })).objectExists, true);
    ok(await call('addProperty', { catalogProperty: [{ objectId: 'ns/c', catalogPropertyAdd: [{ name: 'citation', source: 'LEAD', element: [{ name: 'title', value: 'one' }] }, { name: 'citation', source: 'LEAD', element: [{ name: 'title', value: 'two' }] }] }], errorDeliveryMethod: DIRECT }));
    ok(await call('updateProperty', { updateProperty: { objectId: 'ns/c', catalogPropertyUpdate: { name: 'citation', source: 'LEAD', element: [{ name: 'title', value: 'TWO' }] }, position: 2 }, errorDeliveryMethod: DIRECT }));
    ok(await call('deleteProperty', { deleteProperty: { objectId: 'ns/c', propertyName: 'citation', propertySource: 'LEAD', position: [1], lastUpdate: 0 }, errorDeliveryMethod: DIRECT }));

    const found = await call('query', {
      queryTarget: { attributes: { description: 'big grids' }, aggrType: 'COLLECTION', queryProperty: [{ name: 'grid', source: 'LEAD', queryElement: [{ name: 'dx', source: 'LEAD', queryValueElement: { value: '10', comparison: 'GT' } }] }] },
      // node-soap writes members in the order given: the schema's (objectId before relation).
      contextQuery: { queryComponent: [{ aggrType: 'PROJECT', objectId: 'ns/p', relation: 'PARENT' }] },
      queryResultFormat: resultFormat({ showHasChildren: true }),
    });
    ok(found);
    assert.deepEqual(list(found.queryResponseSet.guidResponse).map((n: Parsed) => [n.attributes.objectId, n.attributes.parentId, n.attributes.hasChildren]), [['ns/c', 'ns/e', 'false']]);
    assert.match(String(found.attributes.timestamp), /^\d{13}$/);

    const negated = await call('query', {
      queryTarget: { aggrType: 'COLLECTION', queryProperty: [{ attributes: { negate: true }, name: 'grid', source: 'LEAD' }] },
      queryResultFormat: resultFormat(),
    });
    ok(negated);

    const full = await call('objectIdQuery', { objectId: ['ns/c'], queryResultFormat: resultFormat({ contentFilter: 'FULL_SCHEMA' }) });
    ok(full);
    const properties = list(list(full.queryResponseSet.objectResponse)[0]!.property);
    assert.deepEqual(properties.map((p) => p.name), ['grid', 'citation']);
    assert.equal(list(properties[1]!.element)[0]!.value, 'TWO');

    const workspace = await call('allWorkspaceQuery', { queryResultFormat: resultFormat({ hierarchyFilter: 'SUBTREE' }) });
    ok(workspace);
    // Created by one request: one creation time, so (creationDate, objectId) order is by objectId.
    assert.deepEqual(list(workspace.queryResponseSet.guidResponse).map((n: Parsed) => n.attributes.objectId), ['ns/p', whiteboard]);
    const withoutFormat = await call('allWorkspaceQuery', {});
    ok(withoutFormat);

    ok(await call('assignObject', { objectId: 'ns/c', parentId: whiteboard, errorDeliveryMethod: DIRECT }));
    const updated = await call('lastUpdate', { objectId: 'ns/c', errorDeliveryMethod: DIRECT });
    ok(updated);
    assert.match(String(updated.lastUpdated), /^\d{13}$/);
    const saved = await call('saveQueryDefinition', { attributes: { public: true }, title: 'grids', description: 'all grids', queryDefinition: { queryTarget: { aggrType: 'COLLECTION' } }, errorDeliveryMethod: DIRECT });
    ok(saved);
    const descriptions = await call('getAllQueryDescriptions', { resultDeliveryMethod: DIRECT, errorDeliveryMethod: DIRECT });
    assert.deepEqual(list(descriptions.queryDescriptionSet.templateQuery).map((q) => [q.queryId, q.name]), [[saved.queryId, 'grids']]);
    assert.equal((await call('getQueryDefinition', { queryId: saved.queryId, resultDeliveryMethod: DIRECT, errorDeliveryMethod: DIRECT })).queryDefinition.queryTarget.aggrType, 'COLLECTION');
    ok(await call('deleteQueryDefinition', { queryId: saved.queryId, errorDeliveryMethod: DIRECT }));
    ok(await call('moveObject', { objectId: 'ns/c', parentId: whiteboard, errorDeliveryMethod: DIRECT }));
    const definitions = await call('queryPropertyDefinitions', { resultDeliveryMethod: DIRECT, errorDeliveryMethod: DIRECT });
    ok(definitions);
    ok(await call('deleteObject', { objectId: ['ns/p'], errorDeliveryMethod: DIRECT }));
    assert.equal((await call('objectExists', { objectId: 'ns/e', errorDeliveryMethod: DIRECT })).objectExists, false);
    ok(await call('deleteUser', { deletedUserId: [DN], errorDeliveryMethod: DIRECT }));
    assert.equal((await call('doesUserExist', { errorDeliveryMethod: DIRECT })).userExists, false);
  });

  it('reads failures: the status, the summary, and the nil fills', async () => {
    const missing = await call('queryUser', { userId: 'CN=Nobody', errorDeliveryMethod: DIRECT });
    assert.equal(missing.catalogOperationStatus.status, 'FATAL_QUERY_ERROR');
    const summary = missing.catalogOperationStatus.operationSummary;
    assert.equal(summary.operationStatus, 'DN_DOES_NOT_EXIST');
    assert.equal(summary.attributes.hasFatalErrors, 'true');
    assert.equal(list(summary.fatalError)[0]!.className, 'CatalogService');
    const deleted = await call('deleteObject', { objectId: ['no/such'], errorDeliveryMethod: 'NONE' });
    assert.deepEqual(deleted.catalogOperationStatus, { status: 'FATAL_DELETE_ERROR' });
    const query = await call('objectIdQuery', { objectId: ['no/such'], queryResultFormat: resultFormat() });
    assert.equal(query.catalogOperationStatus.status, 'FATAL_QUERY_ERROR');
    assert.equal(list(query.catalogOperationStatus.operationSummary.fatalError)[0]!.cause, 'OBJECT_DOES_NOT_EXIST');
    assert.equal(query.queryResponseSet, undefined, 'node-soap reads the nil queryResponseSet as absent');
  });

  it('every response validates against wsdl/catalog-types.xsd', async () => {
    assert.ok(catalog.recorder.count >= 25);
    await catalog.recorder.assertAllValid();
  });
});
