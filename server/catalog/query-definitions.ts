import { randomUUID } from 'node:crypto';
import { NAMESPACE, readQueryDefinitionType, writeQueryDefinitionType } from '../../generated/soap/codecs.js';
import { parseXml, XmlOut, XSI } from '../../generated/soap/runtime.js';
import type {
  DeleteQueryDefinitionRequest,
  DeleteQueryDefinitionResponse,
  GetAllQueryDescriptionsRequest,
  GetAllQueryDescriptionsResponse,
  GetQueryDefinitionRequest,
  GetQueryDefinitionResponse,
  QueryDefinitionType,
  QueryDescriptionType,
  SaveQueryDefinitionRequest,
  SaveQueryDefinitionResponse,
} from '../../generated/soap/types.js';
import { ResourceConflict } from '../storage/errors.js';
import type { QueryDefinitionRecord } from '../storage/catalog/rows.js';
import type { CatalogCall } from './context.js';
import type { CatalogDependencies } from './dependencies.js';
import { checkQueryDefinition } from './queries.js';
import { fatalStatus, MISSING_DN, Refusal, SUCCESS } from './status.js';

/**
 * Saved query definitions (docs/catalog-operations.md "Saved queries"): a titled, described
 * target and context that a user keeps to run again with `query`. A definition belongs to the
 * user who saved it; one saved with public="true" (admins only) is a template every user sees.
 */

/** The queryDefinition element as stored: XML text the codecs wrote and will read back. */
function definitionText(definition: QueryDefinitionType): string {
  const o = new XmlOut();
  o.start('stored');
  o.attribute('xmlns', NAMESPACE);
  o.attribute('xmlns:xsi', XSI);
  writeQueryDefinitionType(o, 'queryDefinition', definition);
  o.end('stored');
  return o.toString();
}

function definitionOf(text: string): QueryDefinitionType {
  const node = parseXml(text).children[0]!;
  return readQueryDefinitionType(node, '/queryDefinition');
}

/** Who may read a definition: its owner, and everyone for a public one. */
function readableBy(record: QueryDefinitionRecord, dn: string): boolean {
  return record.ownerDn === dn || record.public;
}

function noSuchDefinition(queryId: string, dn: string): Refusal {
  return new Refusal('QUERY_DEFINITION_DOES_NOT_EXIST', `no query definition ${queryId} visible to ${dn}`);
}

/** Save a new definition, or with the queryId of one of the caller's own, replace it. */
export async function saveQueryDefinition(deps: CatalogDependencies, request: SaveQueryDefinitionRequest, call: CatalogCall): Promise<SaveQueryDefinitionResponse> {
  const delivery = request.errorDeliveryMethod;
  const dn = call.dn;
  if (dn === undefined) return { queryId: null, catalogOperationStatus: fatalStatus('saveQueryDefinition', delivery, [MISSING_DN]) };
  const queryId = request.queryId?.trim() || `urn:uuid:${randomUUID()}`;
  try {
    if (request.title.trim() === '') throw new Refusal('SAVE_QUERY_DEFINITION_ERROR', 'title is empty');
    const isPublic = request.public === true;
    if (isPublic && !call.admin) throw new Refusal('AUTHORIZATION_ERROR', 'only an administrator may save a public query definition (a template for every user)');
    // What the query operation would refuse is refused now, not when the definition is run.
    checkQueryDefinition(request.queryDefinition);
    const definition = definitionText(request.queryDefinition);
    await deps.store.write([dn], async (w) => {
      if (!(await w.userExists(dn))) throw new Refusal('DN_DOES_NOT_EXIST', `user ${dn} does not exist`);
      const existing = await w.queryDefinition(queryId);
      if (existing && existing.ownerDn !== dn) throw new Refusal('AUTHORIZATION_ERROR', `query definition ${queryId} belongs to another user`);
      try {
        await w.saveQueryDefinition({ queryId, ownerDn: dn, title: request.title, description: request.description, public: isPublic, definition }, deps.now());
      } catch (error) {
        // Saved by another user between the check and the insert.
        if (error instanceof ResourceConflict) throw new Refusal('AUTHORIZATION_ERROR', `query definition ${queryId} belongs to another user`);
        throw error;
      }
    });
    return { queryId, catalogOperationStatus: SUCCESS };
  } catch (error) {
    if (error instanceof Refusal) return { queryId: null, catalogOperationStatus: fatalStatus('saveQueryDefinition', delivery, [error]) };
    throw error;
  }
}

/** One of the caller's definitions or a public one. STREAMING delivery is answered as DIRECT. */
export async function getQueryDefinition(deps: CatalogDependencies, request: GetQueryDefinitionRequest, call: CatalogCall): Promise<GetQueryDefinitionResponse> {
  const delivery = request.errorDeliveryMethod;
  const dn = call.dn;
  if (dn === undefined) return { catalogOperationStatus: fatalStatus('getQueryDefinition', delivery, [MISSING_DN]) };
  const record = await deps.store.read((r) => r.queryDefinition(request.queryId));
  if (!record || !readableBy(record, dn)) return { catalogOperationStatus: fatalStatus('getQueryDefinition', delivery, [noSuchDefinition(request.queryId, dn)]) };
  return { catalogOperationStatus: SUCCESS, queryDefinition: definitionOf(record.definition) };
}

/** The public definitions as templateQuery, the caller's own others as privateQuery; none is an empty set. */
export async function getAllQueryDescriptions(deps: CatalogDependencies, request: GetAllQueryDescriptionsRequest, call: CatalogCall): Promise<GetAllQueryDescriptionsResponse> {
  const dn = call.dn;
  if (dn === undefined) return { catalogOperationStatus: fatalStatus('getAllQueryDescriptions', request.errorDeliveryMethod, [MISSING_DN]) };
  const records = await deps.store.read((r) => r.queryDefinitionsFor(dn));
  const description = (r: QueryDefinitionRecord): QueryDescriptionType => ({ queryId: r.queryId, name: r.title, description: r.description });
  return {
    catalogOperationStatus: SUCCESS,
    queryDescriptionSet: { templateQuery: records.filter((r) => r.public).map(description), privateQuery: records.filter((r) => !r.public).map(description) },
  };
}

/** Delete one of the caller's own definitions; others' (public ones included) are not the caller's to delete. */
export async function deleteQueryDefinition(deps: CatalogDependencies, request: DeleteQueryDefinitionRequest, call: CatalogCall): Promise<DeleteQueryDefinitionResponse> {
  const delivery = request.errorDeliveryMethod;
  const dn = call.dn;
  if (dn === undefined) return { catalogOperationStatus: fatalStatus('deleteQueryDefinition', delivery, [MISSING_DN]) };
  try {
    await deps.store.write([dn], async (w) => {
      const record = await w.queryDefinition(request.queryId);
      if (!record || !readableBy(record, dn)) throw noSuchDefinition(request.queryId, dn);
      if (record.ownerDn !== dn) throw new Refusal('AUTHORIZATION_ERROR', `query definition ${request.queryId} belongs to another user`);
      await w.deleteQueryDefinition(request.queryId);
    });
    return { catalogOperationStatus: SUCCESS };
  } catch (error) {
    if (error instanceof Refusal) return { catalogOperationStatus: fatalStatus('deleteQueryDefinition', delivery, [error]) };
    throw error;
  }
}
