/**
 * The SOAP rows: loading the catalog tree, checkStatus and objectIdQuery against the `soap`
 * package's own server answering the same documents from memory, and the context query.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import soap from 'soap';
import * as codecs from '../../generated/soap/codecs.js';
import { openEnvelope, parseXml, type XmlNode } from '../../generated/soap/runtime.js';
import type { BenchContext } from '../harness/context.js';
import { CPU_LOAD } from '../harness/context.js';
import { compareCpu, type CpuComparison } from '../harness/cpu.js';
import { cpuRow } from '../harness/cpu-row.js';
import { latency, throughput } from '../harness/load.js';
import type { Measured } from '../harness/processes.js';
import { count, ms, ratio, seconds, type Row } from '../harness/report.js';
import { startPeer } from '../harness/topocat.js';
import {
  checkStatus,
  contextQuery,
  createIdQueryObjects,
  createProject,
  createUser,
  ID_QUERY_OBJECTS,
  objectCount,
  objectIdQuery,
  shareCollections,
  USERNAME_HEADER,
  type SoapRequest,
} from '../workloads/catalog.js';

/** Where topocat serves the catalog by default, and where the node-soap peer listens. */
const CATALOG_PATH = '/catalog';

/**
 * The fixed load of objectIdQuery's CPU row: node-soap's server spends about 6 ms of CPU on
 * each answer of 100 objects (writing the XML), so it serves at most about 150 a second on this
 * machine; at CPU_LOAD's 1,500 it would measure a queue.
 */
const ID_QUERY_LOAD = { rate: 50, connections: 8 } as const;

/** Success, whatever prefix the writer chose (node-soap writes `types:status`). */
const SUCCESS = /<(?:\w+:)?status>OPERATION_SUCCESSFUL<\/(?:\w+:)?status>/;

function soapHeaders(ctx: BenchContext, request: SoapRequest): Record<string, string> {
  return { ...ctx.auth, 'content-type': 'text/xml; charset=utf-8', soapaction: request.action };
}

async function call(ctx: BenchContext, url: string, request: SoapRequest): Promise<string> {
  const response = await fetch(url, { method: 'POST', headers: soapHeaders(ctx, request), body: request.body });
  const text = await response.text();
  if (response.status !== 200 || !SUCCESS.test(text)) throw new Error(`${request.operation} failed: HTTP ${response.status} ${text.slice(0, 500)}`);
  return text;
}

/**
 * The body element of a response, read by the generated codec: what a client would see, less
 * the answer's `timestamp` (when it was made, so never the same twice).
 */
function decoded(text: string, read: (node: XmlNode) => unknown): unknown {
  const { body } = openEnvelope(parseXml(text));
  return JSON.parse(JSON.stringify(read(body!), (key, value: unknown) => (key === 'timestamp' ? undefined : value)));
}

async function loadCatalog(ctx: BenchContext, endpoint: string): Promise<Row> {
  const { catalog } = ctx.sizes;
  await call(ctx, endpoint, createUser());
  const started = performance.now();
  for (let p = 0; p < catalog.projects; p++) await call(ctx, endpoint, createProject(catalog, p));
  const elapsed = (performance.now() - started) / 1000;
  for (let p = 0; p < catalog.projects; p++) for (const assign of shareCollections(catalog, p)) await call(ctx, endpoint, assign);
  await call(ctx, endpoint, createIdQueryObjects());
  const objects = objectCount(catalog);
  const perProject = objects / catalog.projects;
  return {
    row: `SOAP createObject, ${count(perProject)} objects with 2 properties each per request (${count(objects)} loaded)`,
    result: `${count(objects / elapsed)} objects/s (${seconds(elapsed)} in all)`,
    target: '≥ 5,000 objects/s',
    met: objects / elapsed >= 5_000,
    figures: { objectsPerSecond: objects / elapsed, seconds: elapsed },
    failures: 0,
  };
}

/**
 * topocat against node-soap for one request: node-soap's handler returns, from memory, the
 * answer topocat gave, as node-soap's own client parsed it; both answers must read the same.
 */
async function versusNodeSoap(
  ctx: BenchContext,
  server: Measured,
  request: SoapRequest,
  read: (node: XmlNode) => unknown,
  cpuLoad: { rate: number; connections: number } | undefined,
): Promise<{ ours: number; peer: number; failures: number; cpu: CpuComparison | undefined }> {
  const endpoint = `${server.url}${CATALOG_PATH}`;
  const client = await soap.createClientAsync(`${endpoint}?wsdl`);
  client.addSoapHeader(USERNAME_HEADER);
  client.addHttpHeader('Authorization', ctx.auth.authorization!);
  const [answer] = (await (client as unknown as Record<string, (args: object) => Promise<[object]>>)[`${request.operation}Async`]!(request.args)) as [object];
  const answersFile = path.join(ctx.dir, `node-soap-${request.operation}.json`);
  writeFileSync(answersFile, JSON.stringify({ [request.operation]: answer }));
  const peer = await startPeer(ctx.dir, 'soap-server', { PEER_ANSWERS_FILE: answersFile }, '/catalog?wsdl');
  try {
    const peerEndpoint = `${peer.url}${CATALOG_PATH}`;
    const [mine, theirs] = [decoded(await call(ctx, endpoint, request), read), decoded(await call(ctx, peerEndpoint, request), read)];
    if (!isDeepStrictEqual(mine, theirs)) {
      writeFileSync(path.join(ctx.dir, `${request.operation}.topocat.json`), JSON.stringify(mine, null, 1));
      writeFileSync(path.join(ctx.dir, `${request.operation}.node-soap.json`), JSON.stringify(theirs, null, 1));
      throw new Error(`node-soap's answer to ${request.operation} does not read the same as topocat's (both are in ${ctx.dir}): the comparison would be unfair`);
    }
    const load = { paths: [CATALOG_PATH], method: 'POST' as const, headers: soapHeaders(ctx, request), body: request.body };
    let cpu: CpuComparison | undefined;
    if (cpuLoad) {
      const fixed = { ...load, seconds: ctx.sizes.cpuSeconds, ...cpuLoad };
      cpu = await compareCpu({ ...fixed, url: peer.url, pid: peer.pid }, { ...fixed, url: server.url, pid: server.pid }, ctx.sizes.cpuRounds);
    }
    const peerRate = await throughput({ ...load, seconds: ctx.sizes.throughputSeconds, url: peer.url });
    const ourRate = await throughput({ ...load, seconds: ctx.sizes.throughputSeconds, url: server.url });
    return { ours: ourRate.requestsPerSecond, peer: peerRate.requestsPerSecond, failures: ourRate.failures + peerRate.failures, cpu };
  } finally {
    await peer.stop();
  }
}

export async function catalogRows(ctx: BenchContext, server: Measured): Promise<Row[]> {
  const endpoint = `${server.url}${CATALOG_PATH}`;
  ctx.log(`loading ${count(objectCount(ctx.sizes.catalog))} catalog objects`);
  const load = await loadCatalog(ctx, endpoint);

  ctx.log('checkStatus against node-soap');
  const status = await versusNodeSoap(ctx, server, checkStatus(), codecs.readCheckStatusResponseElement, CPU_LOAD);
  const statusRatio = status.ours / status.peer;

  ctx.log('objectIdQuery against node-soap');
  const ids = await versusNodeSoap(ctx, server, objectIdQuery(), codecs.readQueryResponseElement, ID_QUERY_LOAD);
  const idsRatio = ids.ours / ids.peer;

  ctx.log('context query');
  const { projects } = ctx.sizes.catalog;
  const requests = Array.from({ length: projects }, (_, p) => contextQuery(p));
  const context = await latency({
    url: server.url,
    path: () => CATALOG_PATH,
    method: 'POST',
    seconds: ctx.sizes.latencySeconds,
    headers: soapHeaders(ctx, requests[0]!),
    // Each request asks about another project, so no answer is the one before.
    body: (i) => requests[i % projects]!.body,
    check: (body) => SUCCESS.test(body) && (body.match(/<objectResponse[\s>]/g)?.length ?? 0) === Math.min(50, expectedMatches(ctx)),
  });

  return [
    cpuRow('SOAP checkStatus: server CPU per request', "node-soap's server, same answer from memory", status.cpu!, 1.3, ctx),
    {
      row: 'SOAP checkStatus: requests per second (16 connections, flat out)',
      result: `${count(status.ours)} req/s; node-soap from memory ${count(status.peer)} req/s; ratio ${ratio(statusRatio)}`,
      target: 'report',
      met: undefined,
      figures: { requestsPerSecond: status.ours, peerRequestsPerSecond: status.peer, ratio: statusRatio },
      failures: status.failures,
    },
    cpuRow(`SOAP objectIdQuery of ${ID_QUERY_OBJECTS} objects × 5 properties × 2 elements, FULL_SCHEMA, read from the database with their property trees kept (CATALOG_CACHE_MB): server CPU per request`, "node-soap's server, same answer from memory", ids.cpu!, 3, ctx, ID_QUERY_LOAD),
    {
      row: `SOAP objectIdQuery of ${ID_QUERY_OBJECTS} objects × 5 properties × 2 elements: requests per second (16 connections, flat out)`,
      result: `${count(ids.ours)} req/s; node-soap from memory ${count(ids.peer)} req/s; ratio ${ratio(idsRatio)}`,
      target: 'report',
      met: undefined,
      figures: { requestsPerSecond: ids.ours, peerRequestsPerSecond: ids.peer, ratio: idsRatio },
      failures: ids.failures,
    },
    {
      row: `SOAP context query (COLLECTIONs under a PROJECT with grid dx < 5; 50 of them, FULL_SCHEMA) over ${count(objectCount(ctx.sizes.catalog))} objects, ${count(sharedCount(ctx))} of them under two parents`,
      result: `p50 ${ms(context.p50)}, p99 ${ms(context.p99)} (${count(context.count)} queries)`,
      target: 'p50 < 10 ms',
      met: context.p50 < 10,
      figures: { p50Ms: context.p50, p99Ms: context.p99, queries: context.count },
      failures: context.failures,
    },
    load,
  ];
}

function sharedCount(ctx: BenchContext): number {
  return ctx.sizes.catalog.projects * shareCollections(ctx.sizes.catalog, 0).length;
}

/** COLLECTIONs of one project with dx = i % 50 < 5. */
function expectedMatches(ctx: BenchContext): number {
  const { experimentsPerProject, collectionsPerExperiment } = ctx.sizes.catalog;
  const perProject = experimentsPerProject * collectionsPerExperiment;
  return Math.floor(perProject / 50) * 5 + Math.min(5, perProject % 50);
}
