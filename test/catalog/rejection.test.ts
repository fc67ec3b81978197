import assert from 'node:assert/strict';
import * as codecs from '../../generated/soap/codecs.js';
import { envelope, parseXml } from '../../generated/soap/runtime.js';
import { createDispatcher, type CatalogService, type CatalogServiceOperation } from '../../generated/soap/service.js';
import type { CatalogCall } from '../../server/catalog/context.js';
import { catalogRejection } from '../../server/catalog/rejection.js';
import { STATUS_CODES } from '../../server/catalog/status.js';
import type { Logger } from '../../server/log.js';
import { StorageUnavailable } from '../../server/storage/errors.js';
import { DIRECT, format, ResponseRecorder } from '../helpers/catalog.js';

/** A valid request element of every operation, as XML text. */
const requests: Readonly<Record<CatalogServiceOperation, string>> = {
  checkStatus: codecs.writeCheckStatusRequestElement({ errorDeliveryMethod: DIRECT }),
  createUser: codecs.writeCreateUserRequestElement({ catalogUser: [{ userId: 'CN=x' }], errorDeliveryMethod: DIRECT }),
  updateUser: codecs.writeUpdateUserRequestElement({ userId: 'CN=x', catalogUser: [{ userId: 'CN=x' }], errorDeliveryMethod: DIRECT }),
  deleteUser: codecs.writeDeleteUserRequestElement({ deletedUserId: ['CN=x'], errorDeliveryMethod: DIRECT }),
  queryUser: codecs.writeQueryUserRequestElement({ userId: 'CN=x', errorDeliveryMethod: DIRECT }),
  doesUserExist: codecs.writeDoesUserExistRequestElement({ errorDeliveryMethod: DIRECT }),
  whiteboardId: codecs.writeWhiteboardIdRequestElement({ errorDeliveryMethod: DIRECT }),
  createObject: codecs.writeCreateObjectRequestElement({ catalogData: [{ objectId: 'x', objectClass: 'PROJECT' }], errorDeliveryMethod: DIRECT }),
  deleteObject: codecs.writeDeleteObjectRequestElement({ objectId: ['x'], errorDeliveryMethod: DIRECT }),
  moveObject: codecs.writeMoveObjectRequestElement({ objectId: 'x', parentId: 'y', errorDeliveryMethod: DIRECT }),
  objectExists: codecs.writeObjectExistsRequestElement({ objectId: 'x', errorDeliveryMethod: DIRECT }),
  addProperty: codecs.writeAddPropertyRequestElement({ catalogProperty: [{ objectId: 'x', catalogPropertyAdd: [{ name: 'p', source: 's', value: 'v' }] }], errorDeliveryMethod: DIRECT }),
  updateProperty: codecs.writeUpdatePropertyRequestElement({ updateProperty: { objectId: 'x', catalogPropertyUpdate: { name: 'p', source: 's', value: 'v' } }, errorDeliveryMethod: DIRECT }),
  deleteProperty: codecs.writeDeletePropertyRequestElement({ deleteProperty: { objectId: 'x', propertyName: 'p', propertySource: 's', lastUpdate: 0 }, errorDeliveryMethod: DIRECT }),
  query: codecs.writeContextQueryRequestElement({ queryTarget: { aggrType: 'PROJECT' }, queryResultFormat: format() }),
  objectIdQuery: codecs.writeObjectIdQueryRequestElement({ objectId: ['x'], queryResultFormat: format() }),
  allWorkspaceQuery: codecs.writeAllWorkspaceQueryRequestElement({}),
  queryPropertyDefinitions: codecs.writeQueryPropertyDefinitionsRequestElement({ resultDeliveryMethod: DIRECT, errorDeliveryMethod: DIRECT }),
  lastUpdate: codecs.writeLastUpdateRequestElement({ objectId: 'x', errorDeliveryMethod: DIRECT }),
  assignObject: codecs.writeAssignObjectRequestElement({ objectId: 'x', parentId: 'y', errorDeliveryMethod: DIRECT }),
  getAllQueryDescriptions: codecs.writeGetAllQueryDescriptionsRequestElement({ resultDeliveryMethod: DIRECT, errorDeliveryMethod: DIRECT }),
  getQueryDefinition: codecs.writeGetQueryDefinitionRequestElement({ queryId: 'q', resultDeliveryMethod: DIRECT, errorDeliveryMethod: DIRECT }),
  saveQueryDefinition: codecs.writeSaveQueryDefinitionRequestElement({ title: 't', description: 'd', queryDefinition: { queryTarget: { aggrType: 'PROJECT' } }, errorDeliveryMethod: DIRECT }),
  deleteQueryDefinition: codecs.writeDeleteQueryDefinitionRequestElement({ queryId: 'q', errorDeliveryMethod: DIRECT }),
};

/** A service whose every operation throws `error`. */
function throwing(error: unknown): CatalogService<CatalogCall> {
  return new Proxy({} as CatalogService<CatalogCall>, { get: () => async () => Promise.reject(error) });
}

function recordingLogger(): { logger: Logger; lines: { level: string; fields: Record<string, unknown> }[] } {
  const lines: { level: string; fields: Record<string, unknown> }[] = [];
  const logger = { error: (fields: Record<string, unknown>) => lines.push({ level: 'error', fields }), warn: (fields: Record<string, unknown>) => lines.push({ level: 'warn', fields }) } as unknown as Logger;
  return { logger, lines };
}

describe('catalog rejection: what an operation answers when it cannot run', function () {
  const recorder = new ResponseRecorder();
  const operations = Object.keys(requests) as CatalogServiceOperation[];

  for (const operation of operations) {
    it(`${operation}: a bug gives UNHANDLED_EXCEPTION with the request id, logged, not leaked`, async () => {
      const { logger, lines } = recordingLogger();
      const bug = new TypeError('cannot read /secret/path/of/the/server');
      const xml = await createDispatcher(throwing(bug), catalogRejection(logger)).dispatch(parseXml(requests[operation]), { dn: 'CN=x', admin: false, requestId: 'req-7' });
      recorder.record(envelope(xml), operation);
      assert.match(xml, /<status>UNHANDLED_EXCEPTION<\/status>/);
      assert.match(xml, /<operationStatus>UNHANDLED_EXCEPTION<\/operationStatus><operationName>[^<]+<\/operationName><fatalError><cause>UNHANDLED_EXCEPTION<\/cause><className>CatalogService<\/className>/);
      assert.match(xml, /req-7/);
      assert.doesNotMatch(xml, /secret|TypeError|\.js:\d+/);
      assert.deepEqual(lines.map((l) => [l.level, l.fields.err, l.fields.requestId, l.fields.operation]), [['error', bug, 'req-7', operation]]);
    });

    it(`${operation}: an unreachable database gives ${STATUS_CODES[operation].fatal} / NO_DATABASE_CONNECTION`, async () => {
      const { logger, lines } = recordingLogger();
      const xml = await createDispatcher(throwing(new StorageUnavailable(new Error('SQLITE_BUSY'))), catalogRejection(logger)).dispatch(parseXml(requests[operation]), { dn: 'CN=x', admin: false, requestId: 'req-8' });
      recorder.record(envelope(xml), operation);
      assert.match(xml, new RegExp(`<status>${STATUS_CODES[operation].fatal}</status>`));
      assert.match(xml, /<operationStatus>NO_DATABASE_CONNECTION<\/operationStatus>/);
      assert.doesNotMatch(xml, /SQLITE/);
      assert.deepEqual(lines.map((l) => [l.level, l.fields.requestId]), [['warn', 'req-8']]);
    });
  }

  it('every such response validates against wsdl/catalog-types.xsd (the required fills included)', async () => {
    assert.equal(recorder.count, operations.length * 2);
    await recorder.assertAllValid();
  });
});
