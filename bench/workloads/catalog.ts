/**
 * The catalog data set and the exact SOAP requests the rows send, written with the generated
 * codecs (the same ones the generated client uses).
 *
 * The tree: PROJECTs of EXPERIMENTs of COLLECTIONs, every COLLECTION with a `grid` property whose
 * `dx` is a number (i % 50) and a `citation`, so a context query has a numeric condition and a
 * PARENT relation to walk. Objects form a graph, not a tree: in each project the first
 * collections of the first experiment hang under the second experiment too (assignObject), so
 * the closure holds objects joined by several paths. A separate project holds the 100 objects
 * of the objectIdQuery row, each with 5 properties of 2 elements.
 */
import * as codecs from '../../generated/soap/codecs.js';
import { envelope, escapeText } from '../../generated/soap/runtime.js';
import type { CatalogDataType, QueryResultFormatType } from '../../generated/soap/types.js';

export const DN = '/C=US/O=topocat/CN=Bench';
const USERNAME_NS = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wsswssecurity-secext-1.0.xsd';
const DIRECT = 'DIRECT' as const;

export interface CatalogShape {
  readonly projects: number;
  readonly experimentsPerProject: number;
  readonly collectionsPerExperiment: number;
}

export function objectCount(shape: CatalogShape): number {
  return shape.projects * (1 + shape.experimentsPerProject * (1 + shape.collectionsPerExperiment));
}

/** One SOAP request as the caller DN: the operation, its arguments, and the envelope sent. */
export interface SoapRequest {
  readonly operation: string;
  readonly args: object;
  /** The SOAPAction header. */
  readonly action: string;
  readonly body: string;
}

/** The Username header block that names `dn` as the caller. */
export function usernameHeader(dn: string): string {
  return `<Username xmlns="${USERNAME_NS}">${escapeText(dn)}</Username>`;
}

/** The Username header block that names the caller. */
export const USERNAME_HEADER = usernameHeader(DN);

function request<T extends object>(operation: string, args: T, write: (args: T) => string): SoapRequest {
  return { operation, args, action: `"urn:${operation}"`, body: envelope(write(args), [USERNAME_HEADER]) };
}

export const projectId = (p: number): string => `bench/p${p}`;

/** The createObject request of one project: the project, its experiments and their collections. */
export function createProject(shape: CatalogShape, p: number): SoapRequest {
  const data: CatalogDataType[] = [{ objectId: projectId(p), objectClass: 'PROJECT', catalogPropertyAdd: [{ name: 'citation', source: 'LEAD', element: [{ name: 'title', value: `Project ${p}` }] }] }];
  for (let e = 0; e < shape.experimentsPerProject; e++) {
    const experiment = `${projectId(p)}/e${e}`;
    data.push({ objectId: experiment, objectClass: 'EXPERIMENT', parentId: projectId(p), catalogPropertyAdd: [] });
    for (let c = 0; c < shape.collectionsPerExperiment; c++) {
      const i = e * shape.collectionsPerExperiment + c;
      data.push({
        objectId: `${experiment}/c${c}`,
        objectClass: 'COLLECTION',
        parentId: experiment,
        catalogPropertyAdd: [
          { name: 'grid', source: 'LEAD', element: [{ name: 'dx', value: String(i % 50) }, { name: 'dy', value: String((i * 7) % 50) }] },
          { name: 'citation', source: 'LEAD', element: [{ name: 'title', value: `Collection ${p}/${e}/${c}` }] },
        ],
      });
    }
  }
  return request('createObject', { catalogData: data, errorDeliveryMethod: DIRECT }, codecs.writeCreateObjectRequestElement);
}

/** Collections of each project's first experiment that hang under its second one too. */
export const SHARED_PER_PROJECT = 10;

/** The assignObject requests that make project p's tree a graph (none with fewer than two experiments). */
export function shareCollections(shape: CatalogShape, p: number): SoapRequest[] {
  if (shape.experimentsPerProject < 2) return [];
  const shared = Math.min(SHARED_PER_PROJECT, shape.collectionsPerExperiment);
  return Array.from({ length: shared }, (_, c) =>
    request('assignObject', { objectId: `${projectId(p)}/e0/c${c}`, parentId: `${projectId(p)}/e1`, errorDeliveryMethod: DIRECT }, codecs.writeAssignObjectRequestElement),
  );
}

export const createUser = (): SoapRequest =>
  request('createUser', { catalogUser: [{ userId: DN, userName: 'Bench' }], errorDeliveryMethod: DIRECT }, codecs.writeCreateUserRequestElement);

export const checkStatus = (): SoapRequest => request('checkStatus', { errorDeliveryMethod: DIRECT }, codecs.writeCheckStatusRequestElement);

const ID_QUERY_PROJECT = 'bench/ids';
export const ID_QUERY_OBJECTS = 100;

/** 100 COLLECTIONs × 5 properties × 2 elements. */
export function createIdQueryObjects(): SoapRequest {
  const data: CatalogDataType[] = [{ objectId: ID_QUERY_PROJECT, objectClass: 'PROJECT', catalogPropertyAdd: [] }];
  for (let i = 0; i < ID_QUERY_OBJECTS; i++) {
    data.push({
      objectId: `${ID_QUERY_PROJECT}/o${i}`,
      objectClass: 'COLLECTION',
      parentId: ID_QUERY_PROJECT,
      catalogPropertyAdd: Array.from({ length: 5 }, (_, k) => ({
        name: `property${k}`,
        source: 'LEAD',
        element: [
          { name: 'text', value: `value ${k} of object ${i}` },
          { name: 'number', value: String(i * 5 + k) },
        ],
      })),
    });
  }
  return request('createObject', { catalogData: data, errorDeliveryMethod: DIRECT }, codecs.writeCreateObjectRequestElement);
}

/** The first `count` targets (0: all), each with its properties and elements, answered directly. */
export const fullSchema = (count: number): QueryResultFormatType => ({
  offset: 0,
  count,
  hierarchyFilter: 'TARGET',
  contentFilter: 'FULL_SCHEMA',
  resultDeliveryMethod: DIRECT,
  errorDeliveryMethod: DIRECT,
});

export const objectIdQuery = (): SoapRequest =>
  request(
    'objectIdQuery',
    { objectId: Array.from({ length: ID_QUERY_OBJECTS }, (_, i) => `${ID_QUERY_PROJECT}/o${i}`), queryResultFormat: fullSchema(0) },
    codecs.writeObjectIdQueryRequestElement,
  );

/** COLLECTIONs anywhere below project p whose grid spacing dx is under 5 (10% of them), first 50, with their properties. */
export const contextQuery = (p: number): SoapRequest =>
  request(
    'query',
    {
      queryTarget: {
        aggrType: 'COLLECTION',
        queryProperty: [{ name: 'grid', source: 'LEAD', queryElement: [{ name: 'dx', source: 'LEAD', queryValueElement: { value: '5', comparison: 'LT' } }] }],
      },
      contextQuery: { queryComponent: [{ aggrType: 'PROJECT', objectId: projectId(p), relation: 'PARENT' }] },
      queryResultFormat: fullSchema(50),
    },
    codecs.writeContextQueryRequestElement,
  );
