import assert from 'node:assert/strict';
import type { CatalogServiceClient } from '../../generated/client/soap.js';
import * as codecs from '../../generated/soap/codecs.js';
import { DIRECT, object, startCatalog, type CatalogServer } from '../helpers/catalog.js';
import { engine, postgresUrl, withPostgres } from '../helpers/database.js';
import { post } from '../helpers/http.js';

const ALICE = 'CN=Alice,O=Example';
const LOST = 'lost-at-commit';

/** The log lines that name a write whose commit could not be confirmed, with what they name. */
const unconfirmed = (catalog: CatalogServer): string[][] =>
  catalog.server.logs.filter((line) => /could not be confirmed/.test(line.msg)).map((line) => (line.ids as string[] | undefined) ?? []);

/**
 * rest-contract §16: a write whose session is lost after it was sent (at its COMMIT) may be
 * stored or not; the server answers it as unavailable and names it in the log by what it wrote,
 * so its fate can be learnt. The session is lost for real: a deferred constraint trigger ends its
 * own backend (pg_terminate_backend) at COMMIT, for rows named LOST only. Through HTTP: a REST
 * write (an append) and a SOAP catalog operation (a generic write transaction).
 */
describe('PostgreSQL: a write whose commit cannot be confirmed is named in the log by what it wrote', function () {
  let catalog: CatalogServer;
  let alice: CatalogServiceClient;

  before(async function () {
    if (engine !== 'postgres') this.skip();
    catalog = await startCatalog();
    alice = catalog.client(ALICE);
    await alice.createUser({ catalogUser: [{ userId: ALICE }], errorDeliveryMethod: DIRECT });
    const schema = catalog.server.database.schema!;
    await withPostgres(postgresUrl(), async (knex) => {
      await knex.raw(`CREATE FUNCTION ${schema}.lose_session_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_terminate_backend(pg_backend_pid()); PERFORM pg_sleep(5); RETURN NULL; END $$`);
      await knex.raw(`CREATE CONSTRAINT TRIGGER lose_object AFTER INSERT ON ${schema}.catalog_objects DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.guid = '${LOST}') EXECUTE FUNCTION ${schema}.lose_session_at_commit()`);
      await knex.raw(`CREATE CONSTRAINT TRIGGER lose_node AFTER INSERT ON ${schema}.resource_current DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.id = '${LOST}') EXECUTE FUNCTION ${schema}.lose_session_at_commit()`);
    });
  });
  after(async () => {
    await catalog?.stop();
  });

  it('SOAP createObject: answered NO_DATABASE_CONNECTION, logged with its owner and objectId, not stored', async () => {
    const before = unconfirmed(catalog).length;
    const answer = await catalog.raw(codecs.writeCreateObjectRequestElement({ catalogData: [{ objectId: LOST, objectClass: 'PROJECT' }], errorDeliveryMethod: DIRECT }), { dn: ALICE });
    assert.match(answer.text, /NO_DATABASE_CONNECTION/);
    const lines = unconfirmed(catalog).slice(before);
    assert.equal(lines.length, 1, JSON.stringify(catalog.server.logs.slice(-5)));
    assert.deepEqual(new Set(lines[0]), new Set([`owner ${ALICE}`, `object ${LOST}`]));
    // The trigger ended the session before the commit was written: the fate the log leaves open is, here, "not stored".
    assert.equal((await alice.objectExists({ objectId: LOST, errorDeliveryMethod: DIRECT })).objectExists, false);
    // And the server goes on: a write that loses nothing is stored.
    const kept = await alice.createObject({ catalogData: [object('kept', 'PROJECT')], errorDeliveryMethod: DIRECT });
    assert.equal(kept.catalogOperationStatus.status, 'OPERATION_SUCCESSFUL');
  });

  it('REST POST: answered 503 with Retry-After, logged with the kind and id', async () => {
    const before = unconfirmed(catalog).length;
    const answer = await post(`${catalog.server.url}/nodes`, { id: LOST, name: 'lost' });
    assert.equal(answer.status, 503);
    assert.ok(answer.headers.get('retry-after'));
    const lines = unconfirmed(catalog).slice(before);
    assert.equal(lines.length, 1, JSON.stringify(catalog.server.logs.slice(-5)));
    assert.deepEqual(lines[0], [`nodes/${LOST}`]);
  });
});
