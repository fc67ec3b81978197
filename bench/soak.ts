/**
 * `npm run soak [-- --minutes N] [-- --concurrency C] [-- --json FILE] [-- --keep]`
 * `npm run soak -- --url http://127.0.0.1:PORT [--pid PID] [--token T] [--dn DN] …`
 *
 * Mixed REST and SOAP load for a while, every answer checked, with the server's memory watched.
 * By default it starts its own topocat (the compiled server, on a scratch SQLite file, tokens
 * configured, as `npm run bench` does); with --url it loads a server already running on this
 * machine (loopback only), whose memory it reads when --pid names the process.
 *
 * Each of the C virtual clients loops, one request at a time over its own kept-alive connection:
 *
 * - REST: POST a node; GET it back (same ETag, same document); PATCH its description
 *   (merge patch; a newer ts); GET the first version with ?ts=; query ?name= (exactly that node,
 *   in its patched version); query ?location.institution=…&limit=50 (1 to 50 nodes, all of that
 *   institution). Now and then (1 in 20) DELETE one of its nodes, then GET it: 404 is the answer
 *   expected. Now and then (1 in 25) POST an array of 50 nodes.
 * - SOAP: checkStatus; createObject of a project tree of its own (a PROJECT, 2 EXPERIMENTs, 6
 *   COLLECTIONs with a numeric grid dx); objectIdQuery of those 9 ids (all of them, in order);
 *   a context query under that project (exactly the 3 COLLECTIONs with dx < 3). Now and then
 *   (1 in 10) deleteObject one of its projects, then objectIdQuery of its tree: FATAL_QUERY_ERROR
 *   with OBJECT_DOES_NOT_EXIST for each id is the answer expected.
 *
 * The data set grows until each client holds its share of --max-nodes live nodes and
 * --max-projects live projects; beyond that the client deletes its oldest ones (a few per round,
 * more than it adds). Versions stay stored, so the database keeps growing, as it would in use.
 *
 * An error is any connection error or timeout, any status that is not the expected one, and any
 * answer that does not say what it should. Exit status: 1 when there was any error, else 0.
 * Requests of the warm-up count like the others; the memory baseline is read when it ends
 * (10% of the run, at most 30 s). RSS is the resident memory of the server process and its
 * children (cluster workers), from /proc.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import * as codecs from '../generated/soap/codecs.js';
import { envelope, escapeText, openEnvelope, parseXml, type XmlNode } from '../generated/soap/runtime.js';
import type { CatalogDataType, CatalogOperationStatusType, QueryResponse, QueryResultFormatType } from '../generated/soap/types.js';
import { keepAliveAgent, timedRequest, type TimedResponse, type TimedSpec } from './harness/client.js';
import { percentile } from './harness/load.js';
import { treeRss, type Measured } from './harness/processes.js';
import { count, mib, ms } from './harness/report.js';
import { startTopocat } from './harness/topocat.js';
import { DN } from './workloads/catalog.js';
import { node } from './workloads/topology.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '1' },
    concurrency: { type: 'string', default: '8' },
    json: { type: 'string' },
    keep: { type: 'boolean', default: false },
    url: { type: 'string' },
    pid: { type: 'string' },
    token: { type: 'string' },
    dn: { type: 'string' },
    'max-nodes': { type: 'string', default: '20000' },
    'max-projects': { type: 'string', default: '2000' },
  },
});

function positive(name: string, text: string, integer: boolean): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) throw new Error(`--${name}: expected a positive ${integer ? 'integer' : 'number'}, got "${text}"`);
  return n;
}

const minutes = positive('minutes', values.minutes!, false);
const concurrency = positive('concurrency', values.concurrency!, true);
const maxNodes = positive('max-nodes', values['max-nodes']!, true);
const maxProjects = positive('max-projects', values['max-projects']!, true);
if (values.url === undefined && (values.pid !== undefined || values.token !== undefined)) throw new Error('--pid and --token describe the server of --url');
const externalPid = values.pid === undefined ? undefined : positive('pid', values.pid, true);
if (values.url !== undefined) {
  const { protocol, hostname } = new URL(values.url);
  if (protocol !== 'http:' || !['127.0.0.1', 'localhost', '[::1]'].includes(hostname)) throw new Error(`--url: only http:// on this machine (127.0.0.1) is loaded, not ${values.url}`);
}
const dn = values.dn ?? DN;

const log = (message: string): void => {
  process.stderr.write(`[soak ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
};

// ---------------------------------------------------------------------------------------------
// Tallies: per operation kind, every latency (ms) and the errors.

class Tally {
  readonly times: number[] = [];
  requests = 0;
  errors = 0;
}

const OPERATIONS = [
  'SOAP doesUserExist/createUser (setup)',
  'REST POST node',
  'REST GET node',
  'REST PATCH node (merge patch)',
  'REST GET node ?ts= (first version)',
  'REST query ?name=',
  'REST query ?location.institution=…&limit=50',
  'REST DELETE node',
  'REST GET deleted node (404)',
  'REST POST 50 nodes',
  'SOAP checkStatus',
  'SOAP createObject (9 objects)',
  'SOAP objectIdQuery (9 objects)',
  'SOAP context query',
  'SOAP deleteObject',
  'SOAP objectIdQuery of deleted (fatal)',
] as const;
type Operation = (typeof OPERATIONS)[number];

const tallies = new Map<Operation, Tally>(OPERATIONS.map((o) => [o, new Tally()]));
/** The first errors, for the person reading the report; all are counted. */
const firstErrors: string[] = [];
const ERRORS_KEPT = 20;

/** The run's deadline (performance.now()); no request starts after it. */
let deadline = Number.POSITIVE_INFINITY;

/** The deadline passed: the round ends, and that is not an error. */
class Stop extends Error {}
/** A request failed; it is counted already, and the rest of the round depends on it. */
class Failed extends Error {}

function expect(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

// ---------------------------------------------------------------------------------------------
// The target.

interface Target {
  readonly base: URL;
  readonly auth: Readonly<Record<string, string>>;
  /** The pid whose process tree's RSS is the server's memory, when known. */
  readonly pid: number | undefined;
}

interface Client {
  readonly k: number;
  readonly agent: Agent;
  /** Ids of this client's live nodes, oldest first. */
  readonly nodes: string[];
  /** Rounds of this client's live project trees, oldest first. */
  readonly projects: number[];
  round: number;
}

/** Tags every id and name of the run, so runs against one server never collide. */
const run = `soak-${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;

/**
 * One request of `operation`: counted, timed, and its answer given to `check`, which returns what
 * the round needs or throws when the answer is wrong.
 */
async function step<T>(target: Target, client: Client, operation: Operation, pathAndQuery: string, spec: TimedSpec, check: (r: TimedResponse) => T): Promise<T> {
  if (performance.now() >= deadline) throw new Stop();
  const tally = tallies.get(operation)!;
  tally.requests++;
  let response: TimedResponse;
  try {
    response = await timedRequest(client.agent, new URL(pathAndQuery, target.base), { ...spec, headers: { ...target.auth, ...spec.headers } });
  } catch (error) {
    return failed(tally, operation, pathAndQuery, `connection error: ${(error as Error).message}`);
  }
  tally.times.push(response.ms);
  try {
    return check(response);
  } catch (error) {
    // A SOAP answer is shown from inside its Body: the envelope says nothing.
    const shown = response.body.replace(/^[\s\S]*?<soapenv:Body>/, '').slice(0, 300);
    return failed(tally, operation, pathAndQuery, `${(error as Error).message}; HTTP ${response.status}: ${shown}`);
  }
}

function failed(tally: Tally, operation: Operation, pathAndQuery: string, message: string): never {
  tally.errors++;
  if (firstErrors.length < ERRORS_KEPT) firstErrors.push(`${operation} (${pathAndQuery}): ${message}`);
  throw new Failed(message);
}

// ---------------------------------------------------------------------------------------------
// REST.

const JSON_BODY = { 'content-type': 'application/json' };
const INSTITUTIONS = 25;

interface NodeDoc {
  readonly id: string;
  readonly ts: number;
  readonly name: string;
  readonly description?: string;
  readonly location?: { readonly institution?: string };
}

const institutionOf = (n: number): string => `${run}-institution-${n % INSTITUTIONS}`;

/** The benchmark's node shape under this run's id, name and institution. */
function soakNode(id: string, institution: string): Record<string, unknown> {
  const base = node(0);
  return { ...base, id, name: id, urn: `urn:ogf:network:domain=soak.example.net:node=${id}`, location: { ...(base.location as object), institution } };
}

function status(r: TimedResponse, expected: number): void {
  expect(r.status === expected, `expected HTTP ${expected}`);
}

function oneNode(r: TimedResponse, expected: number): NodeDoc {
  status(r, expected);
  const doc = JSON.parse(r.body) as NodeDoc;
  expect(typeof doc === 'object' && doc !== null && typeof doc.id === 'string' && Number.isSafeInteger(doc.ts), 'not a stored node (id and integer ts)');
  expect(r.headers.etag === `"${doc.ts}"`, `ETag ${r.headers.etag} is not "${doc.ts}"`);
  return doc;
}

function nodeList(r: TimedResponse): NodeDoc[] {
  status(r, 200);
  const list = JSON.parse(r.body) as NodeDoc[];
  expect(Array.isArray(list), 'not a JSON array');
  return list;
}

async function restRound(target: Target, c: Client, round: number): Promise<void> {
  const id = `${run}-c${c.k}-n${round}`;
  const institution = institutionOf(c.k + round);
  const sent = soakNode(id, institution);
  const created = await step(target, c, 'REST POST node', '/nodes', { method: 'POST', headers: JSON_BODY, body: JSON.stringify(sent) }, (r) => {
    const doc = oneNode(r, 201);
    expect(doc.id === id && doc.name === id && doc.description === sent.description, 'the stored node is not the one sent');
    return doc;
  });
  c.nodes.push(id);
  await step(target, c, 'REST GET node', `/nodes/${id}`, {}, (r) => {
    expect(isDeepStrictEqual(oneNode(r, 200), created), 'GET answers another document than POST did');
  });
  const description = `patched in round ${round}`;
  const patched = await step(target, c, 'REST PATCH node (merge patch)', `/nodes/${id}`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ description }) }, (r) => {
    const doc = oneNode(r, 200);
    expect(doc.ts > created.ts, `ts ${doc.ts} is not newer than ${created.ts}`);
    expect(doc.description === description && doc.name === id && doc.location?.institution === institution, 'the patch is not applied as sent');
    return doc;
  });
  await step(target, c, 'REST GET node ?ts= (first version)', `/nodes/${id}?ts=${created.ts}`, {}, (r) => {
    expect(isDeepStrictEqual(oneNode(r, 200), created), 'the first version is not the document POST answered');
  });
  await step(target, c, 'REST query ?name=', `/nodes?name=${encodeURIComponent(id)}`, {}, (r) => {
    const list = nodeList(r);
    expect(list.length === 1, `${list.length} nodes instead of 1`);
    expect(list[0]!.id === id && list[0]!.ts === patched.ts, 'not the current version of the node');
  });
  await step(target, c, 'REST query ?location.institution=…&limit=50', `/nodes?location.institution=${encodeURIComponent(institution)}&limit=50`, {}, (r) => {
    const list = nodeList(r);
    expect(list.length >= 1 && list.length <= 50, `${list.length} nodes; expected 1 to 50 (this client's node ${id} is one)`);
    expect(
      list.every((n) => n.location?.institution === institution),
      'a node of another institution',
    );
  });

  if (Math.random() < 1 / 20) {
    const victim = c.nodes.splice(Math.floor(Math.random() * c.nodes.length), 1)[0]!;
    await deleteNode(target, c, victim);
    await step(target, c, 'REST GET deleted node (404)', `/nodes/${victim}`, {}, (r) => {
      status(r, 404);
      expect((JSON.parse(r.body) as { error?: { status?: number } }).error?.status === 404, 'not the error body');
    });
  }
  if (Math.random() < 1 / 25) {
    const ids = Array.from({ length: 50 }, (_, j) => `${run}-c${c.k}-a${round}-${j}`);
    const batch = ids.map((one, j) => soakNode(one, institutionOf(c.k + round + j)));
    await step(target, c, 'REST POST 50 nodes', '/nodes', { method: 'POST', headers: JSON_BODY, body: JSON.stringify(batch) }, (r) => {
      status(r, 201);
      const list = JSON.parse(r.body) as NodeDoc[];
      expect(Array.isArray(list) && list.length === 50, 'not an array of 50 stored nodes');
      expect(
        list.every((n, j) => n.id === ids[j] && Number.isSafeInteger(n.ts)),
        'the stored nodes are not those sent, in order',
      );
    });
    c.nodes.push(...ids);
  }
  // Bounded: beyond its share, the client deletes its oldest nodes, faster than it adds them.
  const share = Math.ceil(maxNodes / concurrency);
  for (let trimmed = 0; trimmed < 4 && c.nodes.length > share; trimmed++) await deleteNode(target, c, c.nodes.shift()!);
}

async function deleteNode(target: Target, c: Client, id: string): Promise<void> {
  await step(target, c, 'REST DELETE node', `/nodes/${id}`, { method: 'DELETE' }, (r) => status(r, 204));
}

// ---------------------------------------------------------------------------------------------
// SOAP.

/** XMC Cat's namespace of the Username header block, as bench/workloads/catalog.ts writes it. */
const USERNAME_NS = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wsswssecurity-secext-1.0.xsd';
const usernameHeader = `<Username xmlns="${USERNAME_NS}">${escapeText(dn)}</Username>`;
const DIRECT = 'DIRECT' as const;
const EXPERIMENTS = 2;
const COLLECTIONS = 3;
/** The context query asks for COLLECTIONs with dx below this: dx runs 0…5, so 3 of 6 match. */
const DX_BELOW = 3;

function soapSpec(operation: string, body: string): TimedSpec {
  return { method: 'POST', headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"urn:${operation}"` }, body: envelope(body, [usernameHeader]) };
}

/** The body element of a 200 answer, read by the generated codec; a fault is a wrong answer. */
function answer<T>(r: TimedResponse, read: (node: XmlNode) => T): T {
  status(r, 200);
  const opened = openEnvelope(parseXml(r.body));
  if (opened.fault) throw new Error(`SOAP fault ${opened.fault.code}: ${opened.fault.faultString}`);
  expect(opened.body !== undefined, 'an empty SOAP Body');
  return read(opened.body);
}

function successful(s: CatalogOperationStatusType): void {
  const why = [...(s.operationSummary?.fatalError ?? []), ...(s.operationSummary?.nonFatalError ?? [])].map((e) => `${e.cause}: ${e.description}`);
  expect(s.status === 'OPERATION_SUCCESSFUL', `${s.status}${why.length > 0 ? ` (${why.slice(0, 3).join('; ')})` : ''}`);
}

const format = (count: number): QueryResultFormatType => ({
  offset: 0,
  count,
  hierarchyFilter: 'TARGET',
  contentFilter: 'FULL_SCHEMA',
  resultDeliveryMethod: DIRECT,
  errorDeliveryMethod: DIRECT,
});

const projectOf = (c: Client, round: number): string => `${run}/c${c.k}/p${round}`;

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

function objectIdQuery(ids: readonly string[]): TimedSpec {
  return soapSpec('objectIdQuery', codecs.writeObjectIdQueryRequestElement({ objectId: [...ids], queryResultFormat: format(0) }));
}

function resultIds(response: QueryResponse): string[] {
  return (response.queryResponseSet?.objectResponse ?? []).map((o) => o.objectId);
}

async function soapRound(target: Target, c: Client, round: number): Promise<void> {
  const endpoint = '/catalog';
  await step(target, c, 'SOAP checkStatus', endpoint, soapSpec('checkStatus', codecs.writeCheckStatusRequestElement({ errorDeliveryMethod: DIRECT })), (r) => {
    successful(answer(r, codecs.readCheckStatusResponseElement).catalogOperationStatus);
  });
  const project = projectOf(c, round);
  const { ids, data, matching } = tree(project, round);
  await step(target, c, 'SOAP createObject (9 objects)', endpoint, soapSpec('createObject', codecs.writeCreateObjectRequestElement({ catalogData: data, errorDeliveryMethod: DIRECT })), (r) => {
    successful(answer(r, codecs.readCreateObjectResponseElement).catalogOperationStatus);
  });
  c.projects.push(round);
  await step(target, c, 'SOAP objectIdQuery (9 objects)', endpoint, objectIdQuery(ids), (r) => {
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
    queryResultFormat: format(50),
  });
  await step(target, c, 'SOAP context query', endpoint, soapSpec('query', contextQuery), (r) => {
    const response = answer(r, codecs.readQueryResponseElement);
    successful(response.catalogOperationStatus);
    const found = resultIds(response).sort();
    expect(isDeepStrictEqual(found, [...matching].sort()), `found ${found.join(', ') || 'nothing'}; expected ${matching.join(', ')}`);
  });

  if (Math.random() < 1 / 10) {
    const victim = c.projects.splice(Math.floor(Math.random() * c.projects.length), 1)[0]!;
    await deleteProject(target, c, victim);
    const gone = tree(projectOf(c, victim), victim).ids;
    await step(target, c, 'SOAP objectIdQuery of deleted (fatal)', endpoint, objectIdQuery(gone), (r) => {
      const s = answer(r, codecs.readQueryResponseElement).catalogOperationStatus;
      expect(s.status === 'FATAL_QUERY_ERROR', `${s.status} instead of FATAL_QUERY_ERROR`);
      const causes = s.operationSummary?.fatalError?.map((e) => e.cause) ?? [];
      expect(causes.length === gone.length && causes.every((cause) => cause === 'OBJECT_DOES_NOT_EXIST'), `causes ${causes.join(', ')}; expected OBJECT_DOES_NOT_EXIST for each of ${gone.length}`);
    });
  }
  const share = Math.ceil(maxProjects / concurrency);
  for (let trimmed = 0; trimmed < 2 && c.projects.length > share; trimmed++) await deleteProject(target, c, c.projects.shift()!);
}

async function deleteProject(target: Target, c: Client, round: number): Promise<void> {
  const body = codecs.writeDeleteObjectRequestElement({ objectId: [projectOf(c, round)], errorDeliveryMethod: DIRECT });
  await step(target, c, 'SOAP deleteObject', '/catalog', soapSpec('deleteObject', body), (r) => {
    successful(answer(r, codecs.readDeleteObjectResponseElement).catalogOperationStatus);
  });
}

/** The catalog user of the DN, created unless it exists. */
async function setup(target: Target, c: Client): Promise<void> {
  const operation = 'SOAP doesUserExist/createUser (setup)';
  const exists = await step(target, c, operation, '/catalog', soapSpec('doesUserExist', codecs.writeDoesUserExistRequestElement({ errorDeliveryMethod: DIRECT })), (r) => {
    const response = answer(r, codecs.readDoesUserExistResponseElement);
    successful(response.catalogOperationStatus);
    return response.userExists;
  });
  if (exists) return;
  const body = codecs.writeCreateUserRequestElement({ catalogUser: [{ userId: dn, userName: 'Soak' }], errorDeliveryMethod: DIRECT });
  await step(target, c, operation, '/catalog', soapSpec('createUser', body), (r) => {
    successful(answer(r, codecs.readCreateUserResponseElement).catalogOperationStatus);
  });
}

// ---------------------------------------------------------------------------------------------
// The run.

const sleep = (milliseconds: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** One round part; a failed request ends the part (the next steps depend on it), a Stop ends the client. */
async function guarded(part: () => Promise<void>): Promise<'ok' | 'failed' | 'stop'> {
  try {
    await part();
    return 'ok';
  } catch (error) {
    if (error instanceof Stop) return 'stop';
    if (error instanceof Failed) return 'failed';
    throw error;
  }
}

async function virtualClient(target: Target, c: Client): Promise<void> {
  while (performance.now() < deadline) {
    const round = c.round++;
    const rest = await guarded(() => restRound(target, c, round));
    if (rest === 'stop') return;
    const soap = await guarded(() => soapRound(target, c, round));
    if (soap === 'stop') return;
    // A server that fails fast (refused connections) is not hammered in a tight loop.
    if (rest === 'failed' || soap === 'failed') await sleep(100);
  }
}

interface Memory {
  readonly startBytes: number;
  readonly endBytes: number;
  readonly maxBytes: number;
  readonly samples: readonly { readonly seconds: number; readonly bytes: number }[];
}

interface Totals {
  readonly requests: number;
  readonly errors: number;
  readonly p50: number;
  readonly p99: number;
}

function totals(list: readonly Tally[]): Totals {
  const times = list.flatMap((t) => t.times).sort((a, b) => a - b);
  return { requests: list.reduce((s, t) => s + t.requests, 0), errors: list.reduce((s, t) => s + t.errors, 0), p50: percentile(times, 50), p99: percentile(times, 99) };
}

const fmt = (n: number): string => (Number.isNaN(n) ? '–' : ms(n));

function table(): string {
  const lines = ['| operation | requests | errors | p50 | p99 |', '|---|---:|---:|---:|---:|'];
  for (const [operation, tally] of tallies) {
    if (tally.requests === 0) continue;
    const t = totals([tally]);
    lines.push(`| ${operation} | ${count(t.requests)} | ${count(t.errors)} | ${fmt(t.p50)} | ${fmt(t.p99)} |`);
  }
  const all = totals([...tallies.values()]);
  lines.push(`| **all** | ${count(all.requests)} | ${count(all.errors)} | ${fmt(all.p50)} | ${fmt(all.p99)} |`);
  return lines.join('\n');
}

async function soak(target: Target): Promise<{ seconds: number; memory: Memory | undefined }> {
  const clients: Client[] = Array.from({ length: concurrency }, (_, k) => ({ k, agent: keepAliveAgent(), nodes: [], projects: [], round: 0 }));
  const rss = (): number => (target.pid === undefined ? 0 : treeRss(target.pid));
  try {
    await guarded(() => setup(target, clients[0]!));
    if (tallies.get('SOAP doesUserExist/createUser (setup)')!.errors > 0) {
      log('the catalog user could not be set up; no load was run');
      return { seconds: 0, memory: undefined };
    }

    const started = performance.now();
    const durationMs = minutes * 60_000;
    deadline = started + durationMs;
    const warmupMs = Math.min(30_000, durationMs / 10);
    const samples: { seconds: number; bytes: number }[] = [];
    const sample = (): number => {
      const bytes = rss();
      samples.push({ seconds: Math.round((performance.now() - started) / 100) / 10, bytes });
      return bytes;
    };
    let startBytes: number | undefined;
    sample();
    const sampler = setInterval(sample, 1000);
    const baseline = setTimeout(() => {
      startBytes = sample();
    }, warmupMs);
    const progress = setInterval(() => {
      const t = totals([...tallies.values()]);
      const elapsed = (performance.now() - started) / 1000;
      const memory = target.pid === undefined ? '' : `, RSS ${mib(rss())}`;
      log(`${Math.floor(elapsed / 60)}:${String(Math.floor(elapsed % 60)).padStart(2, '0')} of ${minutes} min: ${count(t.requests)} requests (${count(t.requests / elapsed)}/s), ${count(t.errors)} errors${memory}`);
    }, 30_000);
    log(`${concurrency} clients for ${minutes} min against ${target.base.href} (ids tagged ${run}); memory baseline after ${(warmupMs / 1000).toFixed(1)} s`);
    try {
      await Promise.all(clients.map((c) => virtualClient(target, c)));
    } finally {
      clearInterval(sampler);
      clearInterval(progress);
      clearTimeout(baseline);
    }
    const seconds = (performance.now() - started) / 1000;
    const endBytes = sample();
    if (target.pid === undefined || endBytes === 0) return { seconds, memory: undefined };
    return { seconds, memory: { startBytes: startBytes ?? samples[0]!.bytes, endBytes, maxBytes: Math.max(...samples.map((s) => s.bytes)), samples } };
  } finally {
    for (const c of clients) c.agent.destroy();
  }
}

function signed(bytes: number): string {
  return `${bytes < 0 ? '−' : '+'}${mib(Math.abs(bytes))}`;
}

async function main(dir: string | undefined): Promise<number> {
  let server: Measured | undefined;
  let target: Target;
  if (values.url === undefined) {
    const token = `tc_${randomBytes(32).toString('base64url')}`;
    server = await startTopocat({ dir: dir!, token, dn, label: 'topocat' });
    target = { base: new URL(server.url), auth: { authorization: `Bearer ${token}` }, pid: server.pid };
  } else {
    target = { base: new URL(values.url), auth: values.token === undefined ? {} : { authorization: `Bearer ${values.token}` }, pid: externalPid };
  }
  let result: Awaited<ReturnType<typeof soak>>;
  try {
    result = await soak(target);
  } finally {
    await server?.stop();
  }

  const { seconds, memory } = result;
  const all = totals([...tallies.values()]);
  const perSecond = seconds > 0 ? all.requests / seconds : 0;
  const memoryText = memory
    ? `RSS ${mib(memory.startBytes)} → ${mib(memory.endBytes)} (growth ${signed(memory.endBytes - memory.startBytes)}, max ${mib(memory.maxBytes)})`
    : `RSS not measured${values.url !== undefined && externalPid === undefined ? ' (no --pid)' : ''}`;
  console.log(`\n${table()}\n`);
  console.log(
    `soak: ${(seconds / 60).toFixed(1)} min, ${count(all.requests)} requests (${count(perSecond)}/s), ${count(all.errors)} errors, p50 ${fmt(all.p50)}, p99 ${fmt(all.p99)}, ${memoryText}`,
  );
  if (firstErrors.length > 0) {
    console.error(`\nFirst ${firstErrors.length} of ${count(all.errors)} errors:`);
    for (const e of firstErrors) console.error(`  ${e}`);
  }
  if (values.json) {
    const operations = [...tallies].filter(([, t]) => t.requests > 0).map(([operation, t]) => ({ operation, ...totals([t]) }));
    const report = {
      minutes,
      concurrency,
      url: target.base.href,
      startedServer: server !== undefined,
      seconds,
      requestsPerSecond: perSecond,
      ...all,
      operations,
      memory: memory ? { startBytes: memory.startBytes, endBytes: memory.endBytes, growthBytes: memory.endBytes - memory.startBytes, maxBytes: memory.maxBytes, samples: memory.samples } : null,
      firstErrors,
    };
    writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);
  }
  return all.errors > 0 || seconds === 0 ? 1 : 0;
}

const dir = values.url === undefined ? mkdtempSync(path.join(tmpdir(), 'topocat-soak-')) : undefined;
try {
  process.exitCode = await main(dir);
} finally {
  if (dir !== undefined) {
    if (!values.keep && process.exitCode === 0) rmSync(dir, { recursive: true, force: true });
    else log(`scratch directory kept (database and server log): ${dir}`);
  }
}
