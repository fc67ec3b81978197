import type { CatalogServiceOperation, CatalogServiceResponses } from '../../generated/soap/service.js';
import type { CatalogOperationStatusType } from '../../generated/soap/types.js';

type Failures = { readonly [K in CatalogServiceOperation]: (status: CatalogOperationStatusType) => CatalogServiceResponses[K] };

/**
 * Each operation's response when it fails: the status, plus the elements its schema requires
 * even then (docs/catalog-interface.md "required-element fill on failure").
 */
const failures: Failures = {
  checkStatus: (status) => ({ catalogStat: [], catalogOperationStatus: status }),
  lastUpdate: (status) => ({ lastUpdated: 0, catalogOperationStatus: status }),
  assignObject: (status) => ({ catalogOperationStatus: status }),
  getAllQueryDescriptions: (status) => ({ catalogOperationStatus: status }),
  getQueryDefinition: (status) => ({ catalogOperationStatus: status }),
  saveQueryDefinition: (status) => ({ queryId: null, catalogOperationStatus: status }),
  deleteQueryDefinition: (status) => ({ catalogOperationStatus: status }),
  createUser: (status) => ({ catalogOperationStatus: status }),
  updateUser: (status) => ({ catalogOperationStatus: status }),
  deleteUser: (status) => ({ catalogOperationStatus: status }),
  queryUser: (status) => ({ catalogOperationStatus: status, catalogUser: [] }),
  doesUserExist: (status) => ({ catalogOperationStatus: status, userExists: false }),
  whiteboardId: (status) => ({ catalogOperationStatus: status, objectId: null }),
  createObject: (status) => ({ catalogOperationStatus: status }),
  deleteObject: (status) => ({ catalogOperationStatus: status }),
  moveObject: (status) => ({ catalogOperationStatus: status }),
  objectExists: (status) => ({ catalogOperationStatus: status, objectExists: false }),
  addProperty: (status) => ({ catalogOperationStatus: status }),
  updateProperty: (status) => ({ catalogOperationStatus: status }),
  deleteProperty: (status) => ({ catalogOperationStatus: status }),
  query: (status) => ({ timestamp: Date.now(), catalogOperationStatus: status, queryResponseSet: null }),
  objectIdQuery: (status) => ({ timestamp: Date.now(), catalogOperationStatus: status, queryResponseSet: null }),
  allWorkspaceQuery: (status) => ({ timestamp: Date.now(), catalogOperationStatus: status, queryResponseSet: null }),
  queryPropertyDefinitions: (status) => ({ catalogOperationStatus: status, metadataDefinition: null }),
};

export function failureResponse<K extends CatalogServiceOperation>(operation: K, status: CatalogOperationStatusType): CatalogServiceResponses[K] {
  return failures[operation](status);
}
