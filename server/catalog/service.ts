import type { CatalogService } from '../../generated/soap/service.js';
import type { CatalogCall } from './context.js';
import type { CatalogDependencies } from './dependencies.js';
import { assignObject, createObject, deleteObject, lastUpdate, moveObject, objectExists } from './objects.js';
import { addProperty, deleteProperty, updateProperty } from './properties.js';
import { allWorkspaceQuery, contextQuery, objectIdQuery } from './queries.js';
import { deleteQueryDefinition, getAllQueryDescriptions, getQueryDefinition, saveQueryDefinition } from './query-definitions.js';
import { fatalStatus, MISSING_DN, SUCCESS } from './status.js';
import { checkStatus, createUser, deleteUser, doesUserExist, queryUser, updateUser, whiteboardId } from './users.js';

/**
 * The 24 operations of the catalog (docs/catalog-operations.md) over one store. Business outcomes,
 * failures included, are responses; what an operation throws (the database failing, a bug)
 * goes to the dispatcher's rejection (rejection.ts).
 */
export function createCatalogService(deps: CatalogDependencies): CatalogService<CatalogCall> {
  return {
    checkStatus: (request) => checkStatus(deps, request),
    lastUpdate: (request, call) => lastUpdate(deps, request, call),
    createUser: (request, call) => createUser(deps, request, call),
    updateUser: (request, call) => updateUser(deps, request, call),
    deleteUser: (request, call) => deleteUser(deps, request, call),
    queryUser: (request, call) => queryUser(deps, request, call),
    doesUserExist: (request, call) => doesUserExist(deps, request, call),
    whiteboardId: (request, call) => whiteboardId(deps, request, call),
    assignObject: (request, call) => assignObject(deps, request, call),
    createObject: (request, call) => createObject(deps, request, call),
    deleteObject: (request, call) => deleteObject(deps, request, call),
    moveObject: (request, call) => moveObject(deps, request, call),
    objectExists: (request, call) => objectExists(deps, request, call),
    addProperty: (request, call) => addProperty(deps, request, call),
    updateProperty: (request, call) => updateProperty(deps, request, call),
    deleteProperty: (request, call) => deleteProperty(deps, request, call),
    query: (request, call) => contextQuery(deps, request, call),
    objectIdQuery: (request, call) => objectIdQuery(deps, request, call),
    allWorkspaceQuery: (request, call) => allWorkspaceQuery(deps, request, call),
    // The loaded definitions, or a nil metadataDefinition with success when there are none.
    async queryPropertyDefinitions(request, call) {
      if (call.dn === undefined) return { catalogOperationStatus: fatalStatus('queryPropertyDefinitions', request.errorDeliveryMethod, [MISSING_DN]), metadataDefinition: null };
      return { catalogOperationStatus: SUCCESS, metadataDefinition: deps.definitions.toMetadataDefinition() };
    },
    getAllQueryDescriptions: (request, call) => getAllQueryDescriptions(deps, request, call),
    getQueryDefinition: (request, call) => getQueryDefinition(deps, request, call),
    saveQueryDefinition: (request, call) => saveQueryDefinition(deps, request, call),
    deleteQueryDefinition: (request, call) => deleteQueryDefinition(deps, request, call),
  };
}
