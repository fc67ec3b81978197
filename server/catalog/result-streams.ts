import { randomUUID } from 'node:crypto';
import { NAMESPACE, writeMetadataDefinitionType, writeQueryDefinitionType, writeQueryDescriptionSetType, writeQueryResponseSetType } from '../../generated/soap/codecs.js';
import type { CatalogService } from '../../generated/soap/service.js';
import { XmlOut, XSI } from '../../generated/soap/runtime.js';
import type { CatalogDeliveryType, QueryResponse } from '../../generated/soap/types.js';
import { CHUNK_CHARS, type ResultStreamStore } from '../storage/catalog/result-streams.js';
import type { CatalogCall } from './context.js';

/** Where STREAMING results are kept and served. */
export interface ResultStreamOptions {
  readonly store: ResultStreamStore;
  /** The address a client GETs a stored result at: `{PUBLIC_URL}{CATALOG_PATH}/results/{id}`. */
  readonly urlOf: (id: string) => string;
  /** How long a stored result may be fetched (CATALOG_RESULT_TTL_S). */
  readonly ttlMs: number;
  readonly now: () => number;
}

/**
 * The result element as a document of its own, its root declaring the types namespace and xsi
 * (nil children need it), cut into pieces of at most CHUNK_CHARS characters for storage.
 */
function documentPieces(write: (o: XmlOut, tag: string) => void, tag: string): string[] {
  const o = new XmlOut();
  write(o, tag);
  const element = o.toString();
  const text = `<?xml version="1.0" encoding="UTF-8"?>\n<${tag} xmlns="${NAMESPACE}" xmlns:xsi="${XSI}"${element.slice(tag.length + 1)}`;
  const pieces: string[] = [];
  let at = 0;
  while (at < text.length) {
    let end = Math.min(at + CHUNK_CHARS, text.length);
    // Never split a surrogate pair: each piece is encoded to UTF-8 on its own.
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    pieces.push(text.slice(at, end));
    at = end;
  }
  return pieces;
}

/**
 * The catalog with STREAMING result delivery (docs/catalog-operations.md): the six operations
 * whose request carries a resultDeliveryMethod answer, when it is STREAMING, a resultStreamUrl
 * instead of the result element; the element is stored as a document of its own that the caller
 * GETs from that address (soap/result-route.ts) until it expires. Failures are answered as
 * before: their status (and summary) are in the SOAP answer, and there is no result to store.
 */
export function withResultStreams(service: CatalogService<CatalogCall>, options: ResultStreamOptions): CatalogService<CatalogCall> {
  const { store, urlOf, ttlMs, now } = options;
  const stored = async (operation: string, call: CatalogCall, tag: string, write: (o: XmlOut, tag: string) => void): Promise<string> => {
    const id = randomUUID();
    const at = now();
    await store.save({ id, ownerDn: call.dn!, operation, expiresMs: at + ttlMs }, documentPieces(write, tag), at);
    return urlOf(id);
  };
  const streaming = (method: CatalogDeliveryType | undefined, call: CatalogCall) => method === 'STREAMING' && call.dn !== undefined;
  const query = async (operation: 'query' | 'objectIdQuery' | 'allWorkspaceQuery', method: CatalogDeliveryType | undefined, call: CatalogCall, answer: Promise<QueryResponse>): Promise<QueryResponse> => {
    const response = await answer;
    const set = response.queryResponseSet;
    if (!streaming(method, call) || set === null || set === undefined) return response;
    const resultStreamUrl = await stored(operation, call, 'queryResponseSet', (o, tag) => writeQueryResponseSetType(o, tag, set));
    return { timestamp: response.timestamp, catalogOperationStatus: response.catalogOperationStatus, resultStreamUrl };
  };
  return {
    ...service,
    query: (request, call) => query('query', request.queryResultFormat.resultDeliveryMethod, call, service.query(request, call)),
    objectIdQuery: (request, call) => query('objectIdQuery', request.queryResultFormat.resultDeliveryMethod, call, service.objectIdQuery(request, call)),
    allWorkspaceQuery: (request, call) => query('allWorkspaceQuery', request.queryResultFormat?.resultDeliveryMethod, call, service.allWorkspaceQuery(request, call)),
    async queryPropertyDefinitions(request, call) {
      const response = await service.queryPropertyDefinitions(request, call);
      if (!streaming(request.resultDeliveryMethod, call) || response.catalogOperationStatus.status !== 'OPERATION_SUCCESSFUL') return response;
      const definition = response.metadataDefinition;
      // None loaded: the nil element the DIRECT answer would hold.
      const write = definition === null || definition === undefined ? (o: XmlOut, tag: string) => o.nil(tag) : (o: XmlOut, tag: string) => writeMetadataDefinitionType(o, tag, definition);
      return { catalogOperationStatus: response.catalogOperationStatus, resultStreamUrl: await stored('queryPropertyDefinitions', call, 'metadataDefinition', write) };
    },
    async getAllQueryDescriptions(request, call) {
      const response = await service.getAllQueryDescriptions(request, call);
      const set = response.queryDescriptionSet;
      if (!streaming(request.resultDeliveryMethod, call) || set === undefined) return response;
      return { catalogOperationStatus: response.catalogOperationStatus, resultStreamUrl: await stored('getAllQueryDescriptions', call, 'queryDescriptionSet', (o, tag) => writeQueryDescriptionSetType(o, tag, set)) };
    },
    async getQueryDefinition(request, call) {
      const response = await service.getQueryDefinition(request, call);
      const definition = response.queryDefinition;
      if (!streaming(request.resultDeliveryMethod, call) || definition === undefined) return response;
      return { catalogOperationStatus: response.catalogOperationStatus, resultStreamUrl: await stored('getQueryDefinition', call, 'queryDefinition', (o, tag) => writeQueryDefinitionType(o, tag, definition)) };
    },
  };
}
