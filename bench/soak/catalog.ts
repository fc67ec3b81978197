/** The SOAP (catalog) round of a soak client, every answer read with the generated codecs and checked. */
import { isDeepStrictEqual } from 'node:util';
import * as codecs from '../../generated/soap/codecs.js';
import { envelope, openEnvelope, parseXml, type XmlNode } from '../../generated/soap/runtime.js';
import type { CatalogDataType, CatalogOperationStatusType, QueryResponse } from '../../generated/soap/types.js';
import type { TimedResponse, TimedSpec } from '../harness/client.js';
import { fullSchema, usernameHeader } from '../workloads/catalog.js';
import { expect, expectStatus, SETUP, type Client, type Session } from './session.js';

const ENDPOINT = '/catalog';
const DIRECT = 'DIRECT' as const;
const EXPERIMENTS = 2;
const COLLECTIONS = 3;
/** The context query asks for COLLECTIONs with dx below this: dx runs 0…5, so 3 of 6 match. */
const DX_BELOW = 3;

function soapSpec(session: Session, operation: string, body: string): TimedSpec {
  return { method: 'POST', headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"urn:${operation}"` }, body: envelope(body, [usernameHeader(session.dn)]) };
}

/** The body element of a 200 answer, read by the generated codec; a fault is a wrong answer. */
function answer<T>(r: TimedResponse, read: (node: XmlNode) => T): T {
  expectStatus(r, 200);
  const opened = openEnvelope(parseXml(r.body));
  if (opened.fault) throw new Error(`SOAP fault ${opened.fault.code}: ${opened.fault.faultString}`);
  expect(opened.body !== undefined, 'an empty SOAP Body');
  return read(opened.body);
}

function successful(s: CatalogOperationStatusType): void {
  const why = [...(s.operationSummary?.fatalError ?? []), ...(s.operationSummary?.nonFatalError ?? [])].map((e) => `${e.cause}: ${e.description}`);
  expect(s.status === 'OPERATION_SUCCESSFUL', `${s.status}${why.length > 0 ? ` (${why.slice(0, 3).join('; ')})` : ''}`);
}

const projectOf = (session: Session, c: Client, round: number): string => `${session.tag}/c${c.k}/p${round}`;

/** The project tree of one round: the ids in creation order, and the createObject data. */
function tree(project: string, round: number): { ids: string[]; data: CatalogDataType[]; matching: string[] } {
  const data: CatalogDataType[] = [{ objectId: project, objectClass: 'PROJECT', catalogPropertyAdd: [{ name: 'citation', source: 'LEAD', element: [{ name: 'title', value: `Soak project ${round}` }] }] }];
  const matching: string[] = [];
  for (let e = 0; e < EXPERIMENTS; e++) {
    const experiment = `${project}/e${e}`;
    data.push({ objectId: experiment, objectClass: 'EXPERIMENT', parentId: project, catalogPropertyAdd: [] });
    for (let k = 0; k < COLLECTIONS; k++) {
      const dx = e * COLLECTIONS + k;
      const collection = `${experiment}/c${k}`;
      if (dx < DX_BELOW) matching.push(collection);
      data.push({
        objectId: collection,
        objectClass: 'COLLECTION',
        parentId: experiment,
        catalogPropertyAdd: [
          { name: 'grid', source: 'LEAD', element: [{ name: 'dx', value: String(dx) }, { name: 'dy', value: String((dx * 7) % 6) }] },
          { name: 'citation', source: 'LEAD', element: [{ name: 'title', value: `Collection ${e}/${k} of round ${round}` }] },
        ],
      });
    }
  }
  return { ids: data.map((d) => d.objectId), data, matching };
}

function objectIdQuery(session: Session, ids: readonly string[]): TimedSpec {
  return soapSpec(session, 'objectIdQuery', codecs.writeObjectIdQueryRequestElement({ objectId: [...ids], queryResultFormat: fullSchema(0) }));
}

function resultIds(response: QueryResponse): string[] {
  return (response.queryResponseSet?.objectResponse ?? []).map((o) => o.objectId);
}

export async function soapRound(session: Session, c: Client, round: number): Promise<void> {
  await session.step(c, 'SOAP checkStatus', ENDPOINT, soapSpec(session, 'checkStatus', codecs.writeCheckStatusRequestElement({ errorDeliveryMethod: DIRECT })), (r) => {
    successful(answer(r, codecs.readCheckStatusResponseElement).catalogOperationStatus);
  });
  const project = projectOf(session, c, round);
  const { ids, data, matching } = tree(project, round);
  await session.step(c, 'SOAP createObject (9 objects)', ENDPOINT, soapSpec(session, 'createObject', codecs.writeCreateObjectRequestElement({ catalogData: data, errorDeliveryMethod: DIRECT })), (r) => {
    successful(answer(r, codecs.readCreateObjectResponseElement).catalogOperationStatus);
  });
  c.projects.push(round);
  await session.step(c, 'SOAP objectIdQuery (9 objects)', ENDPOINT, objectIdQuery(session, ids), (r) => {
    const response = answer(r, codecs.readQueryResponseElement);
    successful(response.catalogOperationStatus);
    expect(isDeepStrictEqual(resultIds(response), ids), `objects ${resultIds(response).join(', ')} instead of the tree in request order`);
    const classes = response.queryResponseSet!.objectResponse!.map((o) => o.objectClass);
    expect(isDeepStrictEqual(classes, data.map((d) => d.objectClass)), 'object classes differ from those created');
  });
  const contextQuery = codecs.writeContextQueryRequestElement({
    queryTarget: {
      aggrType: 'COLLECTION',
      queryProperty: [{ name: 'grid', source: 'LEAD', queryElement: [{ name: 'dx', source: 'LEAD', queryValueElement: { value: String(DX_BELOW), comparison: 'LT' } }] }],
    },
    contextQuery: { queryComponent: [{ aggrType: 'PROJECT', objectId: project, relation: 'PARENT' }] },
    queryResultFormat: fullSchema(50),
  });
  await session.step(c, 'SOAP context query', ENDPOINT, soapSpec(session, 'query', contextQuery), (r) => {
    const response = answer(r, codecs.readQueryResponseElement);
    successful(response.catalogOperationStatus);
    const found = resultIds(response).sort();
    expect(isDeepStrictEqual(found, [...matching].sort()), `found ${found.join(', ') || 'nothing'}; expected ${matching.join(', ')}`);
  });

  if (Math.random() < 1 / 10) {
    const victim = c.projects.splice(Math.floor(Math.random() * c.projects.length), 1)[0]!;
    await deleteProject(session, c, victim);
    const gone = tree(projectOf(session, c, victim), victim).ids;
    await session.step(c, 'SOAP objectIdQuery of deleted (fatal)', ENDPOINT, objectIdQuery(session, gone), (r) => {
      const s = answer(r, codecs.readQueryResponseElement).catalogOperationStatus;
      expect(s.status === 'FATAL_QUERY_ERROR', `${s.status} instead of FATAL_QUERY_ERROR`);
      const causes = s.operationSummary?.fatalError?.map((e) => e.cause) ?? [];
      expect(causes.length === gone.length && causes.every((cause) => cause === 'OBJECT_DOES_NOT_EXIST'), `causes ${causes.join(', ')}; expected OBJECT_DOES_NOT_EXIST for each of ${gone.length}`);
    });
  }
  for (let trimmed = 0; trimmed < 2 && c.projects.length > session.projectsPerClient; trimmed++) await deleteProject(session, c, c.projects.shift()!);
}

async function deleteProject(session: Session, c: Client, round: number): Promise<void> {
  const body = codecs.writeDeleteObjectRequestElement({ objectId: [projectOf(session, c, round)], errorDeliveryMethod: DIRECT });
  await session.step(c, 'SOAP deleteObject', ENDPOINT, soapSpec(session, 'deleteObject', body), (r) => {
    successful(answer(r, codecs.readDeleteObjectResponseElement).catalogOperationStatus);
  });
}

/** The catalog user of the DN, created unless it exists. */
export async function setupUser(session: Session, c: Client): Promise<void> {
  const exists = await session.step(c, SETUP, ENDPOINT, soapSpec(session, 'doesUserExist', codecs.writeDoesUserExistRequestElement({ errorDeliveryMethod: DIRECT })), (r) => {
    const response = answer(r, codecs.readDoesUserExistResponseElement);
    successful(response.catalogOperationStatus);
    return response.userExists;
  });
  if (exists) return;
  const body = codecs.writeCreateUserRequestElement({ catalogUser: [{ userId: session.dn, userName: 'Soak' }], errorDeliveryMethod: DIRECT });
  await session.step(c, SETUP, ENDPOINT, soapSpec(session, 'createUser', body), (r) => {
    successful(answer(r, codecs.readCreateUserResponseElement).catalogOperationStatus);
  });
}
