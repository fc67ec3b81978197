import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { CatalogServiceClient } from '../../generated/client/soap.js';
import * as codecs from '../../generated/soap/codecs.js';
import { openEnvelope, parseXml, type XmlNode } from '../../generated/soap/runtime.js';
import type {
  CatalogDataType,
  CatalogOperationStatusType,
  CatalogStatusType,
  ElementResponseType,
  GuidResponseType,
  ObjectResponseType,
  PropertyResponseType,
  PropertyType,
  QueryResponse,
  QueryResultFormatType,
} from '../../generated/soap/types.js';
import { projectRoot, startServer, type RunningServer, type ServerOptions } from './server.js';

/** The XMC Cat caller-identity header namespace, as its clients spell it. */
export const USERNAME_NS = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wsswssecurity-secext-1.0.xsd';
export const TYPES_NS = codecs.NAMESPACE;
export const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/';
export const DEFINITIONS_EXAMPLE = path.join(projectRoot, 'server/catalog/definitions.example.json');

/**
 * Keeps the body element of every SOAP response a test receives, so that a suite can check at
 * its end that all of them validate against wsdl/catalog-types.xsd (one xmllint run per suite).
 */
export class ResponseRecorder {
  private readonly bodies: { label: string; xml: string }[] = [];
  faults = 0;

  /** A fetch for the generated client that records what comes back. */
  readonly fetch: typeof globalThis.fetch = async (input, init) => {
    const response = await globalThis.fetch(input, init);
    this.record(await response.clone().text(), String(init?.headers ? (init.headers as Record<string, string>).soapaction : ''));
    return response;
  };

  /** Record a response envelope (faults are counted, not validated: they are SOAP's, not ours). */
  record(envelopeText: string, label = ''): void {
    const root = parseXml(envelopeText);
    const { body, fault } = openEnvelope(root);
    if (fault) {
      this.faults++;
      return;
    }
    const match = /<soapenv:Body>([\s\S]*)<\/soapenv:Body>/.exec(envelopeText);
    assert.ok(body && match, `a response without a body element: ${envelopeText.slice(0, 300)}`);
    this.bodies.push({ label: `${label} ${body.name}`.trim(), xml: match[1]! });
  }

  get count(): number {
    return this.bodies.length;
  }

  /** Every recorded body validates against the types schema. */
  async assertAllValid(): Promise<void> {
    assert.ok(this.bodies.length > 0, 'no responses were recorded');
    const schema = await readFile(path.join(projectRoot, 'wsdl/catalog-types.xsd'), 'utf8');
    const result = await validateXML({
      xml: this.bodies.map((b, i) => ({ fileName: `response-${i}.xml`, contents: b.xml })),
      schema: [{ fileName: 'catalog-types.xsd', contents: schema }],
      maxMemoryPages: 16 * 1024,
    });
    const problems = result.errors.map((e) => {
      const index = Number(/response-(\d+)\.xml/.exec(e.loc?.fileName ?? '')?.[1]);
      const body = this.bodies[index];
      return `${body?.label ?? e.loc?.fileName}: ${e.message.slice(0, 300)}\n  ${body?.xml.slice(0, 400) ?? ''}`;
    });
    assert.deepEqual(problems, [], `${problems.length} responses break catalog-types.xsd`);
    assert.ok(result.valid);
  }
}

export interface RawAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
  /** The body element of a SOAP answer, undefined for a fault or a non-SOAP answer. */
  readonly body: XmlNode | undefined;
  readonly faultCode: string | undefined;
  readonly faultString: string | undefined;
}

export interface RawOptions {
  readonly dn?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** The whole request text, instead of an envelope around `body`. */
  readonly document?: string;
}

/** A running server with the catalog, and ways to call it. */
export interface CatalogServer {
  readonly server: RunningServer;
  /** The SOAP endpoint, e.g. http://127.0.0.1:41234/catalog */
  readonly url: string;
  readonly recorder: ResponseRecorder;
  /** The generated client, calling as `dn` (no header when undefined). */
  client(dn: string | undefined): CatalogServiceClient;
  /** POST an envelope around `body` (XML text), as `dn`, and record the answer. */
  raw(body: string, options?: RawOptions): Promise<RawAnswer>;
  stop(): Promise<void>;
}

export async function startCatalog(options: ServerOptions & { catalogPath?: string } = {}): Promise<CatalogServer> {
  const server = await startServer(options);
  const url = `${server.url}${options.catalogPath ?? options.env?.CATALOG_PATH ?? '/catalog'}`;
  const recorder = new ResponseRecorder();
  return {
    server,
    url,
    recorder,
    client: (dn) => new CatalogServiceClient({ url, ...(dn !== undefined ? { username: dn } : {}), fetch: (input, init) => recorder.fetch(input, init) }),
    async raw(body, { dn, headers, document } = {}) {
      const header = dn === undefined ? '' : `<soapenv:Header><Username xmlns="${USERNAME_NS}">${dn}</Username></soapenv:Header>`;
      const text = document ?? `<?xml version="1.0" encoding="utf-8"?><soapenv:Envelope xmlns:soapenv="${SOAP11}">${header}<soapenv:Body>${body}</soapenv:Body></soapenv:Envelope>`;
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'text/xml; charset=utf-8', ...headers }, body: text });
      const answer = await response.text();
      const contentType = response.headers.get('content-type') ?? '';
      let node: XmlNode | undefined;
      let faultCode: string | undefined;
      let faultString: string | undefined;
      if (contentType.startsWith('text/xml')) {
        recorder.record(answer, 'raw');
        const opened = openEnvelope(parseXml(answer));
        node = opened.body;
        faultCode = opened.fault?.code;
        faultString = opened.fault?.faultString;
      }
      return { status: response.status, contentType, text: answer, body: node, faultCode, faultString };
    },
    async stop() {
      await server.stop();
    },
  };
}

export const DIRECT = 'DIRECT' as const;

/** A queryResultFormat: TARGET, ID_ONLY, all results, unless overridden. */
export function format(overrides: Partial<QueryResultFormatType> = {}): QueryResultFormatType {
  const base: QueryResultFormatType = { offset: 0, count: 0, hierarchyFilter: 'TARGET', contentFilter: 'ID_ONLY', resultDeliveryMethod: DIRECT, errorDeliveryMethod: DIRECT };
  if (overrides.hierarchyFilterSet) delete base.hierarchyFilter;
  if (overrides.propertyFilter || overrides.elementFilter) delete base.contentFilter;
  return { ...base, ...overrides };
}

/** catalogData for createObject. */
export function object(objectId: string, objectClass: CatalogDataType['objectClass'], parentId?: string, properties: PropertyType[] = []): CatalogDataType {
  return { objectId, objectClass, ...(parentId === undefined ? {} : { parentId }), catalogPropertyAdd: properties };
}

/** A property with elements given as name → value (source: the property's). */
export function property(name: string, elements: Readonly<Record<string, string>>, extra: Partial<PropertyType> = {}, source = 'LEAD'): PropertyType {
  return { name, source, element: Object.entries(elements).map(([n, value]) => ({ name: n, value })), ...extra };
}

/**
 * The status is `status`; with `cause`, the summary's operationStatus is that cause, and each
 * error detail names the class and the operation.
 */
export function assertStatus(actual: CatalogOperationStatusType, status: CatalogStatusType, cause?: CatalogStatusType, operation?: string): void {
  assert.equal(actual.status, status, JSON.stringify(actual));
  if (cause === undefined) return;
  const summary = actual.operationSummary;
  assert.ok(summary, `no operationSummary: ${JSON.stringify(actual)}`);
  assert.equal(summary.operationStatus, cause, JSON.stringify(summary));
  const details = [...(summary.fatalError ?? []), ...(summary.nonFatalError ?? [])];
  assert.ok(details.length > 0);
  assert.ok(details.some((d) => d.cause === cause), JSON.stringify(details));
  for (const detail of details) {
    assert.equal(detail.className, 'CatalogService');
    if (operation) assert.equal(detail.methodName, operation);
    assert.ok(detail.description.length > 0);
  }
}

type ResultNode = GuidResponseType | ObjectResponseType | PropertyResponseType | ElementResponseType;

/** The top-level result nodes, whichever shape the content filter chose. */
export function resultNodes(response: QueryResponse): ResultNode[] {
  const set = response.queryResponseSet;
  assert.ok(set, `no queryResponseSet: ${JSON.stringify(response.catalogOperationStatus)}`);
  return [...(set.guidResponse ?? []), ...(set.objectResponse ?? []), ...(set.propertyResponse ?? []), ...(set.elementResponse ?? [])];
}

function childrenOf(node: ResultNode): ResultNode[] {
  return [
    ...((node as GuidResponseType).guidResponse ?? []),
    ...((node as ObjectResponseType).objectResponse ?? []),
    ...((node as PropertyResponseType).propertyResponse ?? []),
    ...((node as ElementResponseType).elementResponse ?? []),
  ];
}

/** The objectIds of the top-level result nodes, in order. */
export function ids(response: QueryResponse): string[] {
  return resultNodes(response).map((n) => n.objectId);
}

/** The result as nested ids: `a(b c(d)) e`. */
export function tree(response: QueryResponse): string {
  const show = (node: ResultNode): string => {
    const children = childrenOf(node);
    return children.length === 0 ? node.objectId : `${node.objectId}(${children.map(show).join(' ')})`;
  };
  return resultNodes(response).map(show).join(' ');
}
