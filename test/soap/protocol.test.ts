import assert from 'node:assert/strict';
import BetterSqlite3 from 'better-sqlite3';
import * as codecs from '../../generated/soap/codecs.js';
import { type parseXml } from '../../generated/soap/runtime.js';
import { assertStatus, DIRECT, SOAP11, startCatalog, TYPES_NS, USERNAME_NS, type CatalogServer, type RawAnswer } from '../helpers/catalog.js';
import { engine } from '../helpers/database.js';

const ME = 'CN=Protocol,O=Example';
const CHECK_STATUS = `<checkStatusRequest xmlns="${TYPES_NS}"><errorDeliveryMethod>DIRECT</errorDeliveryMethod></checkStatusRequest>`;

/** Nothing about the server's insides in an answer: no stack frames, paths or file contents. */
function assertLeaksNothing(answer: RawAnswer): void {
  assert.doesNotMatch(answer.text, /\bat [^\s]+ \(|\.js:\d+|node_modules|\/work\/|\/tmp\/|root:x:0:0|Error:/, answer.text.slice(0, 500));
}

function assertFault(answer: RawAnswer, code: string, status = 500, message?: RegExp): void {
  assert.equal(answer.status, status, answer.text.slice(0, 300));
  assert.match(answer.contentType, /^text\/xml/);
  assert.equal(answer.faultCode, code, answer.text.slice(0, 300));
  if (message) assert.match(answer.faultString ?? '', message);
  assertLeaksNothing(answer);
}

describe('SOAP endpoint: protocol, hostile XML and schema errors', function () {
  let catalog: CatalogServer;

  before(async () => {
    catalog = await startCatalog({ env: { MAX_XML_DEPTH: '24', MAX_XML_ELEMENTS: '400', MAX_BODY_BYTES: '65536' } });
    await catalog.client(ME).createUser({ catalogUser: [{ userId: ME }], errorDeliveryMethod: DIRECT });
  });
  after(async () => {
    await catalog?.stop();
  });

  it('serves the WSDL at ?wsdl, pointing at itself, and the XSD at ?xsd=', async () => {
    const wsdl = await fetch(`${catalog.url}?wsdl`);
    assert.equal(wsdl.status, 200);
    const text = await wsdl.text();
    assert.match(text, new RegExp(`<soap:address\\s+location="${catalog.url.replace(/[.]/g, '\\.')}"`));
    assert.match(text, new RegExp(`schemaLocation="${catalog.url.replace(/[.]/g, '\\.')}\\?xsd=catalog-types\\.xsd"`));
    const xsd = await fetch(`${catalog.url}?xsd=catalog-types.xsd`);
    assert.equal(xsd.status, 200);
    assert.match(await xsd.text(), /targetNamespace="http:\/\/www\.cs\.indiana\.edu\/dde\/namespaces\/2008\/02\/catalog\/types"/);
    assert.equal((await fetch(`${catalog.url}?xsd=..%2Fpackage.json`)).status, 404);
    assert.equal((await fetch(catalog.url)).status, 404);
  });

  it('dispatches on the body element, whatever the SOAPAction says', async () => {
    const answer = await catalog.raw(CHECK_STATUS, { headers: { soapaction: '"urn:deleteUser"' } });
    assert.equal(answer.status, 200);
    assert.equal(answer.body?.name, 'checkStatusResponse');
  });

  it('reads the caller from Username in the standard namespace and from Security/UsernameToken', async () => {
    const body = `<doesUserExistRequest xmlns="${TYPES_NS}"><errorDeliveryMethod>DIRECT</errorDeliveryMethod></doesUserExistRequest>`;
    const envelopeWith = (header: string) => `<soapenv:Envelope xmlns:soapenv="${SOAP11}"><soapenv:Header>${header}</soapenv:Header><soapenv:Body>${body}</soapenv:Body></soapenv:Envelope>`;
    const standard = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd';
    for (const header of [
      `<Username xmlns="${standard}"> ${ME} </Username>`,
      `<wsse:Security xmlns:wsse="${standard}" soapenv:mustUnderstand="1"><wsse:UsernameToken><wsse:Username>${ME}</wsse:Username></wsse:UsernameToken></wsse:Security>`,
      `<Username xmlns="${USERNAME_NS}" soapenv:mustUnderstand="1">${ME}</Username>`,
    ]) {
      const answer = await catalog.raw('', { document: envelopeWith(header) });
      assert.equal(codecs.readDoesUserExistResponseElement(answer.body!).userExists, true, header);
    }
  });

  const faults: [string, { given: { document?: string; body?: string; headers?: Record<string, string> }; want: [string, number, RegExp] }][] = [
    ['malformed XML', { given: { document: `<soapenv:Envelope xmlns:soapenv="${SOAP11}"><soapenv:Body><checkStatusRequest>` }, want: ['Client', 500, /not acceptable XML/] }],
    ['not XML at all', { given: { document: 'hello' }, want: ['Client', 500, /not acceptable XML/] }],
    [
      'XXE: an external entity',
      {
        given: { document: `<?xml version="1.0"?><!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><soapenv:Envelope xmlns:soapenv="${SOAP11}"><soapenv:Body><checkStatusRequest xmlns="${TYPES_NS}"><errorDeliveryMethod>&xxe;</errorDeliveryMethod></checkStatusRequest></soapenv:Body></soapenv:Envelope>` },
        want: ['Client', 500, /DOCTYPE/],
      },
    ],
    [
      'XXE: an external DTD',
      { given: { document: `<?xml version="1.0"?><!DOCTYPE soapenv:Envelope SYSTEM "file:///etc/passwd"><soapenv:Envelope xmlns:soapenv="${SOAP11}"><soapenv:Body>${CHECK_STATUS}</soapenv:Body></soapenv:Envelope>` }, want: ['Client', 500, /DOCTYPE/] },
    ],
    [
      'billion laughs',
      {
        given: {
          document: `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('')}]><soapenv:Envelope xmlns:soapenv="${SOAP11}"><soapenv:Body><checkStatusRequest xmlns="${TYPES_NS}"><errorDeliveryMethod>&lol9;</errorDeliveryMethod></checkStatusRequest></soapenv:Body></soapenv:Envelope>`,
        },
        want: ['Client', 500, /DOCTYPE/],
      },
    ],
    [
      'quadratic blow-up',
      {
        given: { document: `<?xml version="1.0"?><!DOCTYPE kaboom [<!ENTITY a "${'a'.repeat(20_000)}">]><soapenv:Envelope xmlns:soapenv="${SOAP11}"><soapenv:Body><checkStatusRequest xmlns="${TYPES_NS}"><errorDeliveryMethod>${'&a;'.repeat(10_000)}</errorDeliveryMethod></checkStatusRequest></soapenv:Body></soapenv:Envelope>` },
        want: ['Client', 500, /DOCTYPE/],
      },
    ],
    ['an undeclared entity', { given: { body: `<checkStatusRequest xmlns="${TYPES_NS}"><errorDeliveryMethod>&a;</errorDeliveryMethod></checkStatusRequest>` }, want: ['Client', 500, /not acceptable XML/] }],
    ['a processing instruction', { given: { body: `<?evil x?>${CHECK_STATUS}` }, want: ['Client', 500, /processing instructions/] }],
    ['a SOAP 1.2 envelope', { given: { document: `<env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope"><env:Body>${CHECK_STATUS}</env:Body></env:Envelope>` }, want: ['VersionMismatch', 500, /SOAP 1\.2/] }],
    ['the SOAP 1.2 media type', { given: { body: CHECK_STATUS, headers: { 'content-type': 'application/soap+xml; charset=utf-8' } }, want: ['VersionMismatch', 500, /SOAP 1\.2/] }],
    ['no envelope', { given: { document: CHECK_STATUS }, want: ['VersionMismatch', 500, /SOAP 1\.1 Envelope/] }],
    ['an unknown body element', { given: { body: `<launchMissiles xmlns="${TYPES_NS}"/>` }, want: ['Client', 500, /unknown body element/] }],
    ['a known name in another namespace', { given: { body: `<checkStatusRequest xmlns="urn:elsewhere"><errorDeliveryMethod>DIRECT</errorDeliveryMethod></checkStatusRequest>` }, want: ['Client', 500, /unknown body element/] }],
    ['an empty Body', { given: { body: '' }, want: ['Client', 500, /Body is empty/] }],
    ['two body elements', { given: { body: CHECK_STATUS + CHECK_STATUS }, want: ['Client', 500, /exactly one element/] }],
    ['an unknown mustUnderstand header', { given: { document: `<soapenv:Envelope xmlns:soapenv="${SOAP11}"><soapenv:Header><x:Trace xmlns:x="urn:x" soapenv:mustUnderstand="1"/></soapenv:Header><soapenv:Body>${CHECK_STATUS}</soapenv:Body></soapenv:Envelope>` }, want: ['MustUnderstand', 500, /not understood/] }],
    ['a JSON body', { given: { body: CHECK_STATUS, headers: { 'content-type': 'application/json' } }, want: ['Client', 415, /text\/xml/] }],
    ['another charset', { given: { body: CHECK_STATUS, headers: { 'content-type': 'text/xml; charset=iso-8859-1' } }, want: ['Client', 415, /UTF-8/] }],
    ['nesting deeper than MAX_XML_DEPTH', { given: { body: `<checkStatusRequest xmlns="${TYPES_NS}">${'<x>'.repeat(30)}${'</x>'.repeat(30)}</checkStatusRequest>` }, want: ['Client', 500, /deeper than 24/] }],
    ['more elements than MAX_XML_ELEMENTS', { given: { body: `<deleteObjectRequest xmlns="${TYPES_NS}">${'<objectId>x</objectId>'.repeat(500)}<errorDeliveryMethod>DIRECT</errorDeliveryMethod></deleteObjectRequest>` }, want: ['Client', 500, /more than 400 elements/] }],
    ['a body over MAX_BODY_BYTES', { given: { body: `<deleteObjectRequest xmlns="${TYPES_NS}"><objectId>${'x'.repeat(70_000)}</objectId><errorDeliveryMethod>DIRECT</errorDeliveryMethod></deleteObjectRequest>` }, want: ['Client', 413, /larger than 65536/] }],
  ];
  for (const [name, { given, want }] of faults) {
    it(`${name}: a ${want[0]} fault (HTTP ${want[1]}) that leaks nothing`, async () => {
      const started = performance.now();
      const answer = await catalog.raw(given.body ?? '', { dn: ME, ...(given.document === undefined ? {} : { document: given.document }), ...(given.headers ? { headers: given.headers } : {}) });
      assertFault(answer, want[0], want[1], want[2]);
      assert.ok(performance.now() - started < 2_000, 'answered at once');
    });
  }

  it('keeps serving after the hostile requests', async () => {
    const answer = await catalog.raw(CHECK_STATUS);
    assert.equal(answer.status, 200);
    assertStatus(codecs.readCheckStatusResponseElement(answer.body!).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
  });

  // Known request elements that break the schema: the operation's own response, NOT_SCHEMA_VALID,
  // a summary naming the element, and the elements its schema requires anyway.
  type Answer = { catalogOperationStatus: { status: string; operationSummary?: { operationStatus: string; fatalError?: { description: string }[] } } };
  const invalid: [string, { body: string; path: string; read: (node: ReturnType<typeof parseXml>) => Answer; fills?: (r: any) => void }][] = [
    [
      'a required child missing',
      {
        body: `<createObjectRequest xmlns="${TYPES_NS}"><catalogData><objectId>x</objectId></catalogData><errorDeliveryMethod>DIRECT</errorDeliveryMethod></createObjectRequest>`,
        path: '/createObjectRequest/catalogData',
        read: codecs.readCreateObjectResponseElement,
      },
    ],
    [
      'a value outside an enumeration',
      { body: `<checkStatusRequest xmlns="${TYPES_NS}"><errorDeliveryMethod>EMAIL</errorDeliveryMethod></checkStatusRequest>`, path: '/checkStatusRequest/errorDeliveryMethod', read: codecs.readCheckStatusResponseElement, fills: (r) => assert.deepEqual(r.catalogStat, []) },
    ],
    [
      'an unexpected element',
      {
        body: `<objectExistsRequest xmlns="${TYPES_NS}"><objectId>x</objectId><objectExists>true</objectExists><errorDeliveryMethod>DIRECT</errorDeliveryMethod></objectExistsRequest>`,
        path: '/objectExistsRequest: expected <errorDeliveryMethod>, found <objectExists>',
        read: codecs.readObjectExistsResponseElement,
        fills: (r) => assert.equal(r.objectExists, false),
      },
    ],
    [
      'a number that is not one',
      {
        body: `<objectIdQueryRequest xmlns="${TYPES_NS}"><objectId>x</objectId><queryResultFormat><offset>0</offset><count>many</count><hierarchyFilter>TARGET</hierarchyFilter><contentFilter>ID_ONLY</contentFilter><resultDeliveryMethod>DIRECT</resultDeliveryMethod><errorDeliveryMethod>DIRECT</errorDeliveryMethod></queryResultFormat></objectIdQueryRequest>`,
        path: '/objectIdQueryRequest/queryResultFormat/count',
        read: codecs.readQueryResponseElement,
        fills: (r) => assert.equal(r.queryResponseSet, null),
      },
    ],
    [
      'a bad attribute value deep in a query',
      {
        body: `<contextQueryRequest xmlns="${TYPES_NS}"><queryTarget><aggrType>PROJECT</aggrType><queryProperty negate="perhaps"><name>a</name><source>b</source></queryProperty></queryTarget><queryResultFormat><offset>0</offset><count>0</count><hierarchyFilter>TARGET</hierarchyFilter><contentFilter>ID_ONLY</contentFilter><resultDeliveryMethod>DIRECT</resultDeliveryMethod><errorDeliveryMethod>DIRECT</errorDeliveryMethod></queryResultFormat></contextQueryRequest>`,
        path: '/contextQueryRequest/queryTarget/queryProperty/@negate',
        read: codecs.readQueryResponseElement,
        fills: (r) => assert.equal(r.queryResponseSet, null),
      },
    ],
    [
      'both hierarchy filters of a choice',
      {
        body: `<allWorkspaceQueryRequest xmlns="${TYPES_NS}"><queryResultFormat><offset>0</offset><count>0</count><hierarchyFilter>TARGET</hierarchyFilter><hierarchyFilterSet/><contentFilter>ID_ONLY</contentFilter><resultDeliveryMethod>DIRECT</resultDeliveryMethod><errorDeliveryMethod>DIRECT</errorDeliveryMethod></queryResultFormat></allWorkspaceQueryRequest>`,
        path: '/allWorkspaceQueryRequest/queryResultFormat',
        read: codecs.readQueryResponseElement,
      },
    ],
    [
      'an xsi:nil on an element that is not nillable',
      {
        body: `<whiteboardIdRequest xmlns="${TYPES_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><errorDeliveryMethod xsi:nil="true"/></whiteboardIdRequest>`,
        path: '/whiteboardIdRequest/errorDeliveryMethod',
        read: codecs.readWhiteboardIdResponseElement,
        fills: (r) => assert.equal(r.objectId, null),
      },
    ],
    [
      'text where elements belong',
      {
        body: `<queryPropertyDefinitionsRequest xmlns="${TYPES_NS}">hello<resultDeliveryMethod>DIRECT</resultDeliveryMethod><errorDeliveryMethod>DIRECT</errorDeliveryMethod></queryPropertyDefinitionsRequest>`,
        path: '/queryPropertyDefinitionsRequest',
        read: codecs.readQueryPropertyDefinitionsResponseElement,
        fills: (r) => assert.equal(r.metadataDefinition, null),
      },
    ],
  ];
  for (const [name, { body, path: elementPath, read, fills }] of invalid) {
    it(`${name}: NOT_SCHEMA_VALID naming ${elementPath.split(':')[0]}`, async () => {
      const answer = await catalog.raw(body, { dn: ME });
      assert.equal(answer.status, 200);
      const response = read(answer.body!);
      assert.equal(response.catalogOperationStatus.status, 'NOT_SCHEMA_VALID');
      assert.equal(response.catalogOperationStatus.operationSummary?.operationStatus, 'NOT_SCHEMA_VALID');
      const description = response.catalogOperationStatus.operationSummary?.fatalError?.[0]?.description ?? '';
      assert.ok(description.startsWith(elementPath), description);
      assertLeaksNothing(answer);
      fills?.(response);
    });
  }

  it('every response validates against wsdl/catalog-types.xsd', async () => {
    await catalog.recorder.assertAllValid();
    assert.ok(catalog.recorder.faults >= faults.length);
  });
});

// PostgreSQL outages are staged on a throwaway cluster in test/postgres/outage.test.ts.
(engine === 'sqlite' ? describe : describe.skip)('SOAP endpoint: the SQLite database unavailable', function () {
  this.timeout(60_000);
  let catalog: CatalogServer;
  before(async () => {
    catalog = await startCatalog({ env: { CATALOG_PATH: '/services/catalog' } });
  });
  after(async () => {
    await catalog?.stop();
  });

  it('answers the operation’s fatal code with NO_DATABASE_CONNECTION, in bounded time, then recovers', async () => {
    const client = catalog.client(ME);
    // Another process holds the write lock of the SQLite file.
    const blocker = new BetterSqlite3(catalog.server.database.url.replace(/^sqlite:/, ''));
    blocker.exec('BEGIN IMMEDIATE');
    try {
      const started = performance.now();
      const refused = await client.createUser({ catalogUser: [{ userId: ME }], errorDeliveryMethod: DIRECT });
      assertStatus(refused.catalogOperationStatus, 'FATAL_CREATE_ERROR', 'NO_DATABASE_CONNECTION', 'createUser');
      assert.ok(performance.now() - started < 30_000);
      // Readers are not blocked by a writer.
      assertStatus((await client.checkStatus({ errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    } finally {
      blocker.exec('ROLLBACK');
      blocker.close();
    }
    assertStatus((await client.createUser({ catalogUser: [{ userId: ME }], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assert.ok(catalog.server.logs.some((l) => l.msg === 'catalog storage unavailable' && typeof l.requestId === 'string'));
    await catalog.recorder.assertAllValid();
  });
});
