// A program of a project that installed the two SDK packages: it calls every operation of both
// clients against the server at TOPOCAT_URL and prints what it checked. test/client/packages.test.ts
// type-checks it under the strictest settings (moduleResolution nodenext and bundler) and runs it.
import {
  ConflictError,
  NotFoundError,
  PreconditionFailedError,
  TopologyClient,
  type TopocatError,
  type Node,
  type Port,
  type Versioned,
} from '@topocat/rest-client';
import { CatalogServiceClient, SoapFault, type CatalogOperationStatusType } from '@topocat/soap-client';

const base = process.env.TOPOCAT_URL ?? 'http://127.0.0.1:8080';
const checked: string[] = [];

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`failed: ${what}`);
  checked.push(what);
}

async function rejects(promise: Promise<unknown>, type: new (...args: never[]) => TopocatError, what: string): Promise<void> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  check(outcome instanceof type, what);
}

// REST: every method of a collection, and discovery.
const rest = new TopologyClient({ baseUrl: base });
const created: Versioned<Node> = await rest.nodes.create({ name: 'consumer-1', location: { institution: 'IU' } });
const id = created.value.id ?? '';
check(id !== '' && created.etag === `"${created.value.ts}"`, 'create answers the representation and its ETag');
const many: Versioned<Port>[] = await rest.ports.createMany([{ name: 'c-p1', capacity: 1 }, { name: 'c-p2', capacity: 2 }]);
check(many.length === 2 && many.every((p) => p.etag !== ''), 'createMany answers one ETag per resource');
const listed = await rest.ports.list((q) => q.eq('name', ['c-p1', 'c-p2']).gte('capacity', 1).fields('name', 'capacity').sort(['capacity', -1]).limit(5).skip(0));
check(listed.map((p) => p.name).join() === 'c-p2,c-p1', 'list with a typed query');
const either = await rest.ports.list((q) => q.anyOf((a) => a.eq('name', 'c-p1').gt('capacity', 1)));
check(either.length === 2, 'list with anyOf');
const read = await rest.nodes.get(id);
check(read.etag === created.etag && read.lastModified !== undefined, 'get answers the ETag and Last-Modified');
const unchanged = await rest.nodes.getIfChanged(id, read.etag);
check(unchanged.notModified, 'getIfChanged with the current ETag: not modified');
const replaced = await rest.nodes.replace(id, { name: 'consumer-1b' }, { ifMatch: read.etag });
check(replaced.value.name === 'consumer-1b' && replaced.etag !== read.etag, 'replace with If-Match answers a new ETag');
await rejects(rest.nodes.replace(id, { name: 'lost update' }, { ifMatch: read.etag }), PreconditionFailedError, 'a stale If-Match is refused (412)');
const patched = await rest.nodes.patch(id, { description: 'patched', location: null }, { ifMatch: replaced.etag });
check(patched.value.description === 'patched' && patched.value.location === undefined, 'patch with If-Match');
const changed = await rest.nodes.getIfChanged(id, read.etag);
check(!changed.notModified && changed.etag === patched.etag, 'getIfChanged with an old ETag: the representation');
const versions = await rest.nodes.history(id);
check(versions.length === 3, 'history lists every version');
const firstVersion = await rest.nodes.get(id, { ts: created.value.ts });
check(firstVersion.value.name === 'consumer-1', 'get one version by ts');
await rejects(rest.nodes.create({ id, ts: patched.value.ts ?? 0, name: 'replayed' }), ConflictError, 'a replayed id and ts is a conflict (409)');
await rest.nodes.delete(id, { ifMatch: patched.etag });
await rejects(rest.nodes.get(id), NotFoundError, 'deleted: 404');
const discovery = await rest.collections();
check(discovery.some((c) => c.href.endsWith('/nodes')), 'collections');

// SOAP: all 24 operations of the catalog.
const jane = `/C=US/O=Consumer/CN=Jane ${Date.now()}`;
const catalog = new CatalogServiceClient({ url: `${base}/catalog`, username: jane });
const ok = (status: CatalogOperationStatusType, what: string): void => check(status.status === 'OPERATION_SUCCESSFUL', what);
const format = { offset: 0, count: 50, hierarchyFilter: 'TARGET', contentFilter: 'FULL_SCHEMA', resultDeliveryMethod: 'DIRECT', errorDeliveryMethod: 'DIRECT' } as const;
const project = `${jane}/project`;
ok((await catalog.checkStatus({ errorDeliveryMethod: 'DIRECT' })).catalogOperationStatus, 'checkStatus');
ok((await catalog.createUser({ catalogUser: [{ userId: jane, userName: 'Jane' }], errorDeliveryMethod: 'DIRECT' })).catalogOperationStatus, 'createUser');
ok((await catalog.updateUser({ userId: jane, catalogUser: [{ userId: jane, userName: 'Jane Doe' }], errorDeliveryMethod: 'DIRECT' })).catalogOperationStatus, 'updateUser');
const user = await catalog.queryUser({ userId: jane, errorDeliveryMethod: 'DIRECT' });
check(user.catalogUser?.[0]?.userName === 'Jane Doe', 'queryUser');
check((await catalog.doesUserExist({ errorDeliveryMethod: 'DIRECT' })).userExists, 'doesUserExist');
const whiteboard = await catalog.whiteboardId({ errorDeliveryMethod: 'DIRECT' });
check(typeof whiteboard.objectId === 'string', 'whiteboardId');
ok(
  (
    await catalog.createObject({
      catalogData: [
        { objectId: project, objectClass: 'PROJECT' },
        { objectId: `${project}/a`, objectClass: 'COLLECTION', parentId: project, catalogPropertyAdd: [{ name: 'grid', source: 'LEAD', element: [{ name: 'dx', value: '12' }] }] },
        { objectId: `${project}/b`, objectClass: 'EXPERIMENT', parentId: project },
      ],
      errorDeliveryMethod: 'DIRECT',
    })
  ).catalogOperationStatus,
  'createObject',
);
ok((await catalog.moveObject({ objectId: `${project}/a`, parentId: `${project}/b`, errorDeliveryMethod: 'DIRECT' })).catalogOperationStatus, 'moveObject');
check((await catalog.objectExists({ objectId: `${project}/a`, errorDeliveryMethod: 'DIRECT' })).objectExists, 'objectExists');
const citation = { name: 'citation', source: 'LEAD', element: [{ name: 'title', value: 'A study' }] };
ok((await catalog.addProperty({ catalogProperty: [{ objectId: project, catalogPropertyAdd: [citation] }], errorDeliveryMethod: 'DIRECT' })).catalogOperationStatus, 'addProperty');
ok((await catalog.updateProperty({ updateProperty: { objectId: project, catalogPropertyUpdate: { ...citation, element: [{ name: 'title', value: 'The study' }] } }, errorDeliveryMethod: 'DIRECT' })).catalogOperationStatus, 'updateProperty');
const found = await catalog.query({
  queryTarget: { aggrType: 'COLLECTION', queryProperty: [{ name: 'grid', source: 'LEAD', queryElement: [{ name: 'dx', source: 'LEAD', queryValueElement: { value: '25', comparison: 'LT' } }] }] },
  contextQuery: { queryComponent: [{ aggrType: 'PROJECT', objectId: project, relation: 'PARENT' }] },
  queryResultFormat: format,
});
check(found.queryResponseSet?.objectResponse?.[0]?.objectId === `${project}/a`, 'query (a context query)');
const byId = await catalog.objectIdQuery({ objectId: [project], queryResultFormat: format });
check(byId.queryResponseSet?.objectResponse?.length === 1, 'objectIdQuery');
ok((await catalog.allWorkspaceQuery({ queryResultFormat: format })).catalogOperationStatus, 'allWorkspaceQuery');
ok((await catalog.queryPropertyDefinitions({ resultDeliveryMethod: 'DIRECT', errorDeliveryMethod: 'DIRECT' })).catalogOperationStatus, 'queryPropertyDefinitions');
ok((await catalog.assignObject({ objectId: `${project}/a`, parentId: project, errorDeliveryMethod: 'DIRECT' })).catalogOperationStatus, 'assignObject');
const updated = await catalog.lastUpdate({ objectId: project, errorDeliveryMethod: 'DIRECT' });
check(updated.lastUpdated > 0, 'lastUpdate');
const saved = await catalog.saveQueryDefinition({ title: 'grids', description: 'fine grids', queryDefinition: { queryTarget: { aggrType: 'COLLECTION' } }, errorDeliveryMethod: 'DIRECT' });
check(typeof saved.queryId === 'string', 'saveQueryDefinition');
const descriptions = await catalog.getAllQueryDescriptions({ resultDeliveryMethod: 'DIRECT', errorDeliveryMethod: 'DIRECT' });
check(descriptions.queryDescriptionSet?.privateQuery?.[0]?.name === 'grids', 'getAllQueryDescriptions');
check((await catalog.getQueryDefinition({ queryId: saved.queryId!, resultDeliveryMethod: 'DIRECT', errorDeliveryMethod: 'DIRECT' })).queryDefinition?.queryTarget.aggrType === 'COLLECTION', 'getQueryDefinition');
ok((await catalog.deleteQueryDefinition({ queryId: saved.queryId!, errorDeliveryMethod: 'DIRECT' })).catalogOperationStatus, 'deleteQueryDefinition');
ok((await catalog.deleteProperty({ deleteProperty: { objectId: project, propertyName: 'citation', propertySource: 'LEAD', lastUpdate: 0 }, errorDeliveryMethod: 'DIRECT' })).catalogOperationStatus, 'deleteProperty');
ok((await catalog.deleteObject({ objectId: [`${project}/b`], errorDeliveryMethod: 'DIRECT' })).catalogOperationStatus, 'deleteObject');
ok((await catalog.deleteUser({ deletedUserId: [jane], errorDeliveryMethod: 'DIRECT' })).catalogOperationStatus, 'deleteUser');
check(SoapFault.name === 'SoapFault', 'SoapFault is exported');

console.log(JSON.stringify({ checked }));
