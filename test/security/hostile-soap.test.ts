import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { assertStatus, DIRECT, format, ids, object, property, SOAP11, startCatalog, TYPES_NS, USERNAME_NS, type CatalogServer } from '../helpers/catalog.js';

const OWNER = '/O=Example/CN=Owner';

/** A SOAP request with raw bytes, for what fetch would re-encode. */
function rawPost(url: string, body: Buffer, headers: Record<string, string> = {}): Promise<string> {
  const { hostname, port, pathname } = new URL(url);
  const head = Object.entries({ host: 'localhost', 'content-type': 'text/xml; charset=utf-8', 'content-length': String(body.length), connection: 'close', ...headers })
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n');
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(Buffer.concat([Buffer.from(`POST ${pathname} HTTP/1.1\r\n${head}\r\n\r\n`, 'latin1'), body])));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => socket.destroy());
  });
}

function envelope(body: string): string {
  return `<soapenv:Envelope xmlns:soapenv="${SOAP11}"><soapenv:Header><Username xmlns="${USERNAME_NS}">${OWNER}</Username></soapenv:Header><soapenv:Body>${body}</soapenv:Body></soapenv:Envelope>`;
}

/**
 * Hostile input against the SOAP catalog that test/soap/protocol.test.ts does not already
 * stage: SQL and LIKE wildcards in every value a query compares, absurd nesting, invalid
 * UTF-8, character references XML forbids, and a forged Host for the WSDL. After each case the
 * server still answers and the stored objects are byte-for-byte what they were.
 */
describe('hostile input to the SOAP catalog', function () {
  this.timeout(120_000);
  let catalog: CatalogServer;
  let baseline: string;

  /** The full description of the stored objects, without the query's own timestamp. */
  const snapshot = async (): Promise<string> => {
    const answer = await catalog.raw(
      `<objectIdQueryRequest xmlns="${TYPES_NS}"><objectId>p/1</objectId><objectId>c/1</objectId><queryResultFormat><offset>0</offset><count>0</count><hierarchyFilter>SUBTREE</hierarchyFilter><contentFilter>FULL_SCHEMA</contentFilter><showCreateDate>true</showCreateDate><showModifyDate>true</showModifyDate><resultDeliveryMethod>DIRECT</resultDeliveryMethod><errorDeliveryMethod>DIRECT</errorDeliveryMethod></queryResultFormat></objectIdQueryRequest>`,
      { dn: OWNER },
    );
    assert.equal(answer.status, 200);
    return answer.text.replace(/timestamp="\d+"/, '');
  };

  before(async () => {
    catalog = await startCatalog();
    const me = catalog.client(OWNER);
    assertStatus((await me.createUser({ catalogUser: [{ userId: OWNER }], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    const created = await me.createObject({
      catalogData: [
        object('p/1', 'PROJECT', undefined, [property('citation', { title: "O'Brien's 100% _real_ data" })]),
        object('c/1', 'COLLECTION', 'p/1', [property('citation', { title: 'plain title' }), property('grid', { dx: '25' })]),
      ],
      errorDeliveryMethod: DIRECT,
    });
    assertStatus(created.catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    baseline = await snapshot();
  });

  afterEach(async function () {
    if (this.currentTest?.state !== 'passed') return;
    assert.equal((await fetch(`${catalog.server.url}/health`)).status, 200, 'the server still answers');
    assert.equal(await snapshot(), baseline, 'stored objects are byte-for-byte intact');
  });

  after(async () => {
    await catalog?.stop();
  });

  const textQuery = (value: string, compare: 'EXACT' | 'CONTAINS' | 'STARTSWITH') =>
    catalog.client(OWNER).query({
      queryTarget: { aggrType: 'PROJECT', queryProperty: [{ name: 'citation', source: 'LEAD', queryElement: [{ name: 'title', source: 'LEAD', queryTextElement: { value, compare } }] }] },
      queryResultFormat: format(),
    });

  const injections = ["' OR '1'='1", "x'; DROP TABLE catalog_objects; --", '") OR 1=1 --', "' UNION SELECT dn FROM catalog_users --", '\\', '%\'--'];
  for (const value of injections) {
    for (const compare of ['EXACT', 'CONTAINS', 'STARTSWITH'] as const) {
      it(`treats SQL in a ${compare} value as text: ${value}`, async () => {
        const response = await textQuery(value, compare);
        assertStatus(response.catalogOperationStatus, 'OPERATION_SUCCESSFUL');
        assert.deepEqual(ids(response), []);
      });
    }
  }

  const wildcards: [string, 'CONTAINS' | 'STARTSWITH', string[]][] = [
    ['% matches only a literal percent sign', 'CONTAINS', ['p/1']],
    ['_ matches only a literal underscore', 'CONTAINS', ['p/1']],
    ['%% matches nothing', 'CONTAINS', []],
    ['a lone % does not start every value', 'STARTSWITH', []],
    ["O'Brien", 'STARTSWITH', ['p/1']],
  ];
  for (const [name, compare, want] of wildcards) {
    const value = name.startsWith('%%') ? '%%' : name.startsWith('a lone') ? '%' : name.startsWith('_') ? '_real_' : name.startsWith('%') ? '100%' : name;
    it(`escapes LIKE wildcards: ${name}`, async () => {
      assert.deepEqual(ids(await textQuery(value, compare)), want);
    });
  }

  it('treats SQL in value comparisons, object ids and the DN as data', async () => {
    const me = catalog.client(OWNER);
    const value = await me.query({
      queryTarget: { aggrType: 'COLLECTION', queryProperty: [{ name: 'grid', source: 'LEAD', queryElement: [{ name: 'dx', source: 'LEAD', queryValueElement: { value: '25 OR 1=1', comparison: 'EQ' } }] }] },
      queryResultFormat: format(),
    });
    assert.deepEqual(ids(value), []);
    const byId = await me.objectIdQuery({ objectId: ["p/1' OR '1'='1"], queryResultFormat: format() });
    assertStatus(byId.catalogOperationStatus, 'FATAL_QUERY_ERROR', 'OBJECT_DOES_NOT_EXIST');
    const stranger = catalog.client("x' OR owner_dn IS NOT NULL --");
    const all = await stranger.allWorkspaceQuery({});
    assert.notEqual(all.catalogOperationStatus.status, 'OPERATION_SUCCESSFUL');
    assert.equal(all.queryResponseSet, null);
  });

  it('refuses 100,000 levels of nesting with a Client fault', async () => {
    const answer = await catalog.raw(`<checkStatusRequest xmlns="${TYPES_NS}">${'<x>'.repeat(100_000)}${'</x>'.repeat(100_000)}</checkStatusRequest>`);
    assert.equal(answer.status, 500);
    assert.equal(answer.faultCode, 'Client');
    assert.match(answer.faultString ?? '', /nested deeper/);
  });

  const invalidUtf8: [string, number[]][] = [
    ['a truncated sequence', [0xc3, 0x28]],
    ['an overlong encoding', [0xc0, 0xaf]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
  ];
  for (const [name, bytes] of invalidUtf8) {
    it(`refuses invalid UTF-8 (${name}) with a Client fault`, async () => {
      const body = Buffer.concat([Buffer.from(envelope(`<objectExistsRequest xmlns="${TYPES_NS}"><objectId>`)), Buffer.from(bytes), Buffer.from('</objectId><errorDeliveryMethod>DIRECT</errorDeliveryMethod></objectExistsRequest>')].map((b) => b));
      const answer = await rawPost(catalog.url, body);
      assert.match(answer, /^HTTP\/1\.1 500/);
      assert.match(answer, /<faultcode>soapenv:Client<\/faultcode><faultstring>the request is not valid UTF-8/);
    });
  }

  for (const reference of ['&#0;', '&#x1;', '&#xFFFE;', '&#xD800;']) {
    it(`refuses the character reference ${reference}, which XML forbids`, async () => {
      const answer = await catalog.raw(`<objectExistsRequest xmlns="${TYPES_NS}"><objectId>a${reference}b</objectId><errorDeliveryMethod>DIRECT</errorDeliveryMethod></objectExistsRequest>`, { dn: OWNER });
      assert.equal(answer.status, 500);
      assert.equal(answer.faultCode, 'Client');
    });
  }

  it('builds the WSDL address from configuration, not from a forged Host', async () => {
    const { port } = new URL(catalog.url);
    const wsdl = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write('GET /catalog?wsdl HTTP/1.1\r\nhost: evil.example.com\r\nx-forwarded-host: evil2.example.com\r\nconnection: close\r\n\r\n'));
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      socket.on('close', () => resolve(answer));
      socket.on('error', reject);
    });
    assert.match(wsdl, new RegExp(`<soap:address\\s+location="${catalog.url}"`));
    assert.doesNotMatch(wsdl, /evil/);
  });
});
