import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { validateXML } from 'xmllint-wasm';
import type { CatalogServiceClient } from '../../generated/client/soap.js';
import { readMetadataDefinitionType, readQueryDefinitionType, readQueryDescriptionSetType, readQueryResponseSetType } from '../../generated/soap/codecs.js';
import { parseXml, type XmlNode } from '../../generated/soap/runtime.js';
import type { CatalogOperationStatusType, QueryDefinitionType } from '../../generated/soap/types.js';
import { hashToken } from '../../server/tokens.js';
import { assertStatus, DEFINITIONS_EXAMPLE, DIRECT, format, object, property, startCatalog, TYPES_NS, type CatalogServer } from '../helpers/catalog.js';
import { projectRoot } from '../helpers/server.js';

const ALICE = 'CN=Stream Alice,O=Example';
const BOB = 'CN=Stream Bob,O=Example';
const STREAMING = 'STREAMING' as const;
/** Enough guidResponses (about 90 bytes each) that the document spans several stored pieces (64 Ki characters). */
const MANY = 1_500;

const DEFINITION: QueryDefinitionType = { queryTarget: { aggrType: 'COLLECTION' }, contextQuery: { queryComponent: [{ aggrType: 'PROJECT', objectId: 'rs/P', relation: 'PARENT' }] } };

interface Fetched {
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
}

async function get(url: string, headers: Record<string, string> = {}): Promise<Fetched> {
  const response = await fetch(url, { headers });
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', text: await response.text() };
}

/** Every streamed document validates against wsdl/catalog-types.xsd (its root is a global element). */
async function assertValid(documents: readonly string[]): Promise<void> {
  const schema = await readFile(path.join(projectRoot, 'wsdl/catalog-types.xsd'), 'utf8');
  const result = await validateXML({
    xml: documents.map((contents, i) => ({ fileName: `stream-${i}.xml`, contents })),
    schema: [{ fileName: 'catalog-types.xsd', contents: schema }],
    maxMemoryPages: 16 * 1024,
  });
  assert.deepEqual(result.errors.map((e) => e.message), []);
}

/** One operation asked both ways: the DIRECT answer's result element, and the STREAMING answer. */
interface Case {
  readonly element: string;
  readonly direct: (c: CatalogServiceClient) => Promise<{ catalogOperationStatus: CatalogOperationStatusType; result: unknown }>;
  readonly streaming: (c: CatalogServiceClient) => Promise<{ catalogOperationStatus: CatalogOperationStatusType; resultStreamUrl?: string | null; result: unknown }>;
  readonly read: (node: XmlNode) => unknown;
}

/** STREAMING result delivery (docs/catalog-operations.md "STREAMING delivery"). */
describe('SOAP catalog: STREAMING results', function () {
  let catalog: CatalogServer;
  let alice: CatalogServiceClient;
  let bob: CatalogServiceClient;
  let queryId: string;
  const documents: string[] = [];

  before(async () => {
    catalog = await startCatalog({ env: { CATALOG_DEFINITIONS_FILE: DEFINITIONS_EXAMPLE } });
    alice = catalog.client(ALICE);
    bob = catalog.client(BOB);
    for (const [client, dn] of [[alice, ALICE], [bob, BOB]] as const) {
      assertStatus((await client.createUser({ catalogUser: [{ userId: dn }], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    }
    const many = Array.from({ length: MANY }, (_, i) => object(`rs/C${String(i).padStart(5, '0')}-${'x'.repeat(20)}`, 'COLLECTION', 'rs/P', [property('keyword', { keyword: `k${i} <&> ✓ 𝄞` })]));
    assertStatus((await alice.createObject({ catalogData: [object('rs/P', 'PROJECT'), ...many], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    const saved = await alice.saveQueryDefinition({ title: 'collections', description: 'under rs/P', queryDefinition: DEFINITION, errorDeliveryMethod: DIRECT });
    assertStatus(saved.catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    queryId = saved.queryId!;
  });
  after(async () => {
    await catalog?.stop();
  });

  const cases: [string, Case][] = [
    [
      'query (FULL_SCHEMA, several stored pieces)',
      {
        element: 'queryResponseSet',
        direct: async (c) => {
          const r = await c.query({ ...DEFINITION, queryResultFormat: format({ contentFilter: 'FULL_SCHEMA' }) });
          return { catalogOperationStatus: r.catalogOperationStatus, result: r.queryResponseSet };
        },
        streaming: async (c) => {
          const r = await c.query({ ...DEFINITION, queryResultFormat: format({ contentFilter: 'FULL_SCHEMA', resultDeliveryMethod: STREAMING }) });
          return { ...r, result: r.queryResponseSet };
        },
        read: (n) => readQueryResponseSetType(n, '/queryResponseSet'),
      },
    ],
    [
      'objectIdQuery',
      {
        element: 'queryResponseSet',
        direct: async (c) => {
          const r = await c.objectIdQuery({ objectId: ['rs/P', 'rs/unknown'], queryResultFormat: format({ hierarchyFilter: 'CHILDREN' }) });
          return { catalogOperationStatus: r.catalogOperationStatus, result: r.queryResponseSet };
        },
        streaming: async (c) => {
          const r = await c.objectIdQuery({ objectId: ['rs/P', 'rs/unknown'], queryResultFormat: format({ hierarchyFilter: 'CHILDREN', resultDeliveryMethod: STREAMING }) });
          return { ...r, result: r.queryResponseSet };
        },
        read: (n) => readQueryResponseSetType(n, '/queryResponseSet'),
      },
    ],
    [
      'allWorkspaceQuery',
      {
        element: 'queryResponseSet',
        direct: async (c) => {
          const r = await c.allWorkspaceQuery({ queryResultFormat: format({ hierarchyFilter: 'SUBTREE' }) });
          return { catalogOperationStatus: r.catalogOperationStatus, result: r.queryResponseSet };
        },
        streaming: async (c) => {
          const r = await c.allWorkspaceQuery({ queryResultFormat: format({ hierarchyFilter: 'SUBTREE', resultDeliveryMethod: STREAMING }) });
          return { ...r, result: r.queryResponseSet };
        },
        read: (n) => readQueryResponseSetType(n, '/queryResponseSet'),
      },
    ],
    [
      'queryPropertyDefinitions',
      {
        element: 'metadataDefinition',
        direct: async (c) => {
          const r = await c.queryPropertyDefinitions({ resultDeliveryMethod: DIRECT, errorDeliveryMethod: DIRECT });
          return { catalogOperationStatus: r.catalogOperationStatus, result: r.metadataDefinition };
        },
        streaming: async (c) => {
          const r = await c.queryPropertyDefinitions({ resultDeliveryMethod: STREAMING, errorDeliveryMethod: DIRECT });
          return { ...r, result: r.metadataDefinition };
        },
        read: (n) => readMetadataDefinitionType(n, '/metadataDefinition'),
      },
    ],
    [
      'getAllQueryDescriptions',
      {
        element: 'queryDescriptionSet',
        direct: async (c) => {
          const r = await c.getAllQueryDescriptions({ resultDeliveryMethod: DIRECT, errorDeliveryMethod: DIRECT });
          return { catalogOperationStatus: r.catalogOperationStatus, result: r.queryDescriptionSet };
        },
        streaming: async (c) => {
          const r = await c.getAllQueryDescriptions({ resultDeliveryMethod: STREAMING, errorDeliveryMethod: DIRECT });
          return { ...r, result: r.queryDescriptionSet };
        },
        read: (n) => readQueryDescriptionSetType(n, '/queryDescriptionSet'),
      },
    ],
    [
      'getQueryDefinition',
      {
        element: 'queryDefinition',
        direct: async (c) => {
          const r = await c.getQueryDefinition({ queryId, resultDeliveryMethod: DIRECT, errorDeliveryMethod: DIRECT });
          return { catalogOperationStatus: r.catalogOperationStatus, result: r.queryDefinition };
        },
        streaming: async (c) => {
          const r = await c.getQueryDefinition({ queryId, resultDeliveryMethod: STREAMING, errorDeliveryMethod: DIRECT });
          return { ...r, result: r.queryDefinition };
        },
        read: (n) => readQueryDefinitionType(n, '/queryDefinition'),
      },
    ],
  ];

  for (const [name, { element, direct, streaming, read }] of cases) {
    it(`${name}: a resultStreamUrl under the service's address, from which the caller GETs the ${element} the DIRECT answer holds`, async () => {
      const want = await direct(alice);
      const got = await streaming(alice);
      assert.equal(got.catalogOperationStatus.status, want.catalogOperationStatus.status);
      assert.equal(got.result, undefined, 'the result element is left out of a STREAMING answer');
      const url = got.resultStreamUrl;
      assert.ok(url, JSON.stringify(got));
      assert.match(url, new RegExp(`^${catalog.url}/results/[0-9a-f-]{36}$`));
      const fetched = await get(url, { Username: ALICE });
      assert.equal(fetched.status, 200, fetched.text);
      assert.match(fetched.contentType, /^application\/xml/);
      const root = parseXml(fetched.text);
      assert.equal(root.name, element);
      assert.equal(root.namespace, TYPES_NS);
      assert.deepEqual(read(root), want.result);
      documents.push(fetched.text);
      // Another caller, and no caller, get nothing: not even that it exists.
      assert.equal((await get(url, { Username: BOB })).status, 404);
      assert.equal((await get(url)).status, 404);
    });
  }

  it('a large result is served in pieces, whole and in order', async () => {
    const got = await alice.query({ ...DEFINITION, queryResultFormat: format({ contentFilter: 'FULL_SCHEMA', resultDeliveryMethod: STREAMING }) });
    const fetched = await get(got.resultStreamUrl!, { Username: ALICE });
    assert.ok(fetched.text.length > 2 * 64 * 1024, `${fetched.text.length} characters`);
    const set = readQueryResponseSetType(parseXml(fetched.text), '/queryResponseSet');
    assert.equal(set.objectResponse?.length, MANY);
    assert.ok(fetched.text.includes('k7 &lt;&amp;&gt; ✓ 𝄞'));
  });

  it('every streamed document validates against wsdl/catalog-types.xsd, as every SOAP answer does', async () => {
    assert.equal(documents.length, cases.length);
    await assertValid(documents);
    await catalog.recorder.assertAllValid();
  });

  it('a failure is answered in the SOAP response, with no resultStreamUrl', async () => {
    const r = await alice.getQueryDefinition({ queryId: 'urn:uuid:00000000-0000-0000-0000-000000000000', resultDeliveryMethod: STREAMING, errorDeliveryMethod: DIRECT });
    assertStatus(r.catalogOperationStatus, 'FATAL_QUERY_ERROR', 'QUERY_DEFINITION_DOES_NOT_EXIST');
    assert.equal(r.resultStreamUrl, undefined);
    const none = await catalog.client(undefined).getAllQueryDescriptions({ resultDeliveryMethod: STREAMING, errorDeliveryMethod: DIRECT });
    assertStatus(none.catalogOperationStatus, 'FATAL_QUERY_ERROR', 'MISSING_DN');
    assert.equal(none.resultStreamUrl, undefined);
  });

  it('an unknown result is 404', async () => {
    assert.equal((await get(`${catalog.url}/results/00000000-0000-0000-0000-000000000000`, { Username: ALICE })).status, 404);
  });
});

describe('SOAP catalog: STREAMING results expire', function () {
  let catalog: CatalogServer;

  before(async () => {
    catalog = await startCatalog({ env: { CATALOG_RESULT_TTL_S: '1' } });
    assertStatus((await catalog.client(ALICE).createUser({ catalogUser: [{ userId: ALICE }], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
  });
  after(async () => {
    await catalog?.stop();
  });

  it('after CATALOG_RESULT_TTL_S a result is 410 Gone, then deleted (404)', async () => {
    const r = await catalog.client(ALICE).getAllQueryDescriptions({ resultDeliveryMethod: STREAMING, errorDeliveryMethod: DIRECT });
    const url = r.resultStreamUrl!;
    assert.equal((await get(url, { Username: ALICE })).status, 200);
    // The setting's smallest value is 1 s; wait it out.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const gone = await get(url, { Username: ALICE });
    assert.equal(gone.status, 410, gone.text);
    assert.match(gone.text, /expired/);
    assert.equal((await get(url, { Username: ALICE })).status, 404);
  });
});

describe('SOAP catalog: STREAMING results with tokens', function () {
  const tokens: Record<string, { scopes: string[]; dn?: string }> = {
    'tc_alice-0000000000000000000000000000000000': { scopes: ['read', 'create'], dn: ALICE },
    'tc_bob-00000000000000000000000000000000000000': { scopes: ['read', 'create'], dn: BOB },
    'tc_admin-0000000000000000000000000000000000': { scopes: ['read', 'create', 'admin'] },
  };
  const [aliceToken, bobToken, adminToken] = Object.keys(tokens) as [string, string, string];
  let catalog: CatalogServer;

  before(async () => {
    const configured = Object.entries(tokens).map(([token, entry], i) => ({ name: `t${i}`, hash: hashToken(token), ...entry }));
    catalog = await startCatalog({ env: { TOPOCAT_TOKENS: JSON.stringify({ tokens: configured }) } });
    const { CatalogServiceClient } = await import('../../generated/client/soap.js');
    const admin = new CatalogServiceClient({ url: catalog.url, token: adminToken, username: ALICE });
    assertStatus((await admin.createUser({ catalogUser: [{ userId: ALICE }], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
  });
  after(async () => {
    await catalog?.stop();
  });

  it("the result is the token's DN's: no token 401, another DN's token 404, the caller's 200", async () => {
    const { CatalogServiceClient } = await import('../../generated/client/soap.js');
    const r = await new CatalogServiceClient({ url: catalog.url, token: aliceToken }).getAllQueryDescriptions({ resultDeliveryMethod: STREAMING, errorDeliveryMethod: DIRECT });
    const url = r.resultStreamUrl!;
    const none = await get(url);
    assert.equal(none.status, 401);
    assert.match(none.text, /credentials are required/);
    assert.equal((await get(url, { Authorization: `Bearer ${bobToken}` })).status, 404);
    // A token bound to a DN may not claim another one in the header, as in the SOAP call.
    assert.equal((await get(url, { Authorization: `Bearer ${bobToken}`, Username: ALICE })).status, 401);
    assert.equal((await get(url, { Authorization: `Bearer ${aliceToken}` })).status, 200);
    assert.equal((await get(url, { Authorization: `Bearer ${adminToken}`, Username: ALICE })).status, 200);
  });
});
