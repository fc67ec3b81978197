import assert from 'node:assert/strict';
import path from 'node:path';
import soap from 'soap';
import { SERVICE, soapActions } from '../../generated/soap/service.js';
import { projectRoot } from '../helpers/server.js';

/** The project's WSDL as third-party tooling sees it. */
describe('wsdl/catalog.wsdl', () => {
  it("parses in the soap package and describes the 24 operations of XMC Cat's published WSDL", async () => {
    const client = await soap.createClientAsync(path.join(projectRoot, 'wsdl/catalog.wsdl'));
    const description = client.describe() as Record<string, Record<string, Record<string, unknown>>>;
    const operations = Object.keys(description.CatalogService!.CatalogPort!).sort();
    assert.deepEqual(operations, [
      'addProperty', 'allWorkspaceQuery', 'assignObject', 'checkStatus', 'createObject', 'createUser', 'deleteObject', 'deleteProperty', 'deleteQueryDefinition', 'deleteUser',
      'doesUserExist', 'getAllQueryDescriptions', 'getQueryDefinition', 'lastUpdate', 'moveObject', 'objectExists', 'objectIdQuery', 'query', 'queryPropertyDefinitions', 'queryUser',
      'saveQueryDefinition', 'updateProperty', 'updateUser', 'whiteboardId',
    ]);
    assert.deepEqual(Object.keys(soapActions).sort(), operations);
    for (const [operation, action] of Object.entries(soapActions)) assert.equal(action, `urn:${operation}`);
  });

  it('names the service, port, binding and port type of the interface document', () => {
    assert.deepEqual(
      { name: SERVICE.name, port: SERVICE.port, binding: SERVICE.binding, portType: SERVICE.portType },
      { name: 'CatalogService', port: 'CatalogPort', binding: 'CatalogSoapBinding', portType: 'CatalogPortType' },
    );
    assert.equal(SERVICE.messageNamespace, 'http://www.cs.indiana.edu/dde/namespaces/2008/02/catalog/types');
  });
});
