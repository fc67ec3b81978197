import assert from 'node:assert/strict';
import { CatalogServiceClient, SoapFault } from '../../generated/client/soap.js';
import { hashToken } from '../../server/tokens.js';
import { assertStatus, DIRECT, format, ids, object, startCatalog, type CatalogServer } from '../helpers/catalog.js';

const ALICE = '/C=US/O=Example/CN=Alice';
const BOB = '/C=US/O=Example/CN=Bob';
const PUBLIC = 'public';
const ALL = ['read', 'create', 'update', 'delete'];
const tokens: Record<string, { scopes: string[]; dn?: string }> = {
  'tc_alice-0000000000000000000000000000000000': { scopes: ALL, dn: ALICE },
  'tc_alice-read-000000000000000000000000000000': { scopes: ['read'], dn: ALICE },
  'tc_bob-00000000000000000000000000000000000000': { scopes: ALL, dn: BOB },
  'tc_public-0000000000000000000000000000000000': { scopes: ALL, dn: PUBLIC },
  'tc_admin-0000000000000000000000000000000000': { scopes: [...ALL, 'admin'] },
  'tc_unbound-00000000000000000000000000000000': { scopes: ['read'] },
};
const [aliceToken, aliceReadToken, bobToken, publicToken, adminToken, unboundToken] = Object.keys(tokens) as [string, string, string, string, string, string];

/** Catalog credentials (issue: security): a token maps to a DN, scopes per operation, admin acts for anyone. */
describe('catalog credentials', function () {
  let catalog: CatalogServer;
  const as = (token: string | undefined, username?: string) =>
    new CatalogServiceClient({ url: catalog.url, ...(token ? { token } : {}), ...(username !== undefined ? { username } : {}) });

  before(async () => {
    const configured = Object.entries(tokens).map(([token, entry], i) => ({ name: `t${i}`, hash: hashToken(token), ...entry }));
    catalog = await startCatalog({ env: { TOPOCAT_TOKENS: JSON.stringify({ tokens: configured }), CATALOG_PUBLIC_DNS: PUBLIC } });
    const admin = as(adminToken, ALICE);
    for (const dn of [ALICE, BOB, PUBLIC]) {
      assertStatus((await admin.createUser({ catalogUser: [{ userId: dn }], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    }
    assertStatus((await as(bobToken).createObject({ catalogData: [object('bob/p', 'PROJECT')], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assertStatus((await as(publicToken).createObject({ catalogData: [object('public/p', 'PROJECT')], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
  });
  after(async () => {
    await catalog.stop();
  });

  const refusals: [string, () => Promise<unknown>, RegExp][] = [
    ['no token', () => as(undefined, ALICE).whiteboardId({ errorDeliveryMethod: DIRECT }), /credentials are required/],
    ['an unknown token', () => as('tc_unknown', ALICE).whiteboardId({ errorDeliveryMethod: DIRECT }), /unknown token/],
    ['a token acting as another DN', () => as(aliceToken, BOB).whiteboardId({ errorDeliveryMethod: DIRECT }), /may not act as another DN/],
    ['a read token that creates', () => as(aliceReadToken).createObject({ catalogData: [object('a/x', 'PROJECT')], errorDeliveryMethod: DIRECT }), /lack the create scope/],
    ['a read token that deletes', () => as(aliceReadToken).deleteObject({ objectId: ['a/x'], errorDeliveryMethod: DIRECT }), /lack the delete scope/],
    ['a token bound to no DN', () => as(unboundToken, ALICE).whiteboardId({ errorDeliveryMethod: DIRECT }), /not bound to a catalog DN/],
  ];
  for (const [name, act, reason] of refusals) {
    it(`answers HTTP 401 with a Client fault and WWW-Authenticate to ${name}`, async () => {
      const error = await act().catch((e: unknown) => e);
      assert.ok(error instanceof SoapFault, String(error));
      assert.equal(error.code, 'Client');
      assert.match(error.faultString, reason);
    });
  }

  it('answers HTTP 401 on the wire', async () => {
    const answer = await catalog.raw('<whiteboardIdRequest xmlns="http://www.cs.indiana.edu/dde/namespaces/2008/02/catalog/types"><errorDeliveryMethod>DIRECT</errorDeliveryMethod></whiteboardIdRequest>', { dn: ALICE });
    assert.equal(answer.status, 401);
    assert.equal(answer.faultCode?.replace(/^.*:/, ''), 'Client');
  });

  it('a bound token acts as its DN, with or without the Username header', async () => {
    const a = await as(aliceToken).whiteboardId({ errorDeliveryMethod: DIRECT });
    const b = await as(aliceToken, ALICE).whiteboardId({ errorDeliveryMethod: DIRECT });
    assertStatus(a.catalogOperationStatus, 'OPERATION_SUCCESSFUL');
    assert.equal(a.objectId, b.objectId);
  });

  it('an unbound token may still check the status', async () => {
    assertStatus((await as(unboundToken).checkStatus({ errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
  });

  it('only admin credentials manage other users', async () => {
    const refused = await as(aliceToken).createUser({ catalogUser: [{ userId: 'CN=Carol' }], errorDeliveryMethod: DIRECT });
    assertStatus(refused.catalogOperationStatus, 'FATAL_CREATE_ERROR', 'AUTHORIZATION_ERROR');
    const deleted = await as(aliceToken).deleteUser({ deletedUserId: [BOB], errorDeliveryMethod: DIRECT });
    assertStatus(deleted.catalogOperationStatus, 'FATAL_DELETE_ERROR', 'AUTHORIZATION_ERROR');
    assertStatus((await as(adminToken, ALICE).createUser({ catalogUser: [{ userId: 'CN=Carol' }], errorDeliveryMethod: DIRECT })).catalogOperationStatus, 'OPERATION_SUCCESSFUL');
  });

  it('an admin token acts as the DN of the Username header', async () => {
    const asBob = await as(adminToken, BOB).objectIdQuery({ objectId: ['bob/p'], queryResultFormat: format() });
    assert.deepEqual(ids(asBob), ['bob/p']);
  });

  it('one user never reads or changes another user\'s objects', async () => {
    const read = await as(aliceToken).objectIdQuery({ objectId: ['bob/p'], queryResultFormat: format() });
    assertStatus(read.catalogOperationStatus, 'FATAL_QUERY_ERROR', 'OBJECT_DOES_NOT_EXIST');
    const removed = await as(aliceToken).deleteObject({ objectId: ['bob/p'], errorDeliveryMethod: DIRECT });
    assertStatus(removed.catalogOperationStatus, 'FATAL_DELETE_ERROR', 'OBJECT_DOES_NOT_EXIST');
    const moved = await as(aliceToken).moveObject({ objectId: 'bob/p', parentId: 'public/p', errorDeliveryMethod: DIRECT });
    assertStatus(moved.catalogOperationStatus, 'FATAL_UPDATE_ERROR', 'OBJECT_MISSING');
    assert.deepEqual(ids(await as(bobToken).objectIdQuery({ objectId: ['bob/p'], queryResultFormat: format() })), ['bob/p'], 'still there');
  });

  it('public DNs are readable by everyone and writable by no one else', async () => {
    assert.deepEqual(ids(await as(aliceToken).objectIdQuery({ objectId: ['public/p'], queryResultFormat: format() })), ['public/p']);
    const removed = await as(aliceToken).deleteObject({ objectId: ['public/p'], errorDeliveryMethod: DIRECT });
    assertStatus(removed.catalogOperationStatus, 'FATAL_DELETE_ERROR', 'OBJECT_DOES_NOT_EXIST');
    assert.deepEqual(ids(await as(publicToken).objectIdQuery({ objectId: ['public/p'], queryResultFormat: format() })), ['public/p']);
  });
});
