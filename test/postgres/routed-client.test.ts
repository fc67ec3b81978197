import assert from 'node:assert/strict';
import knexFactory, { type Knex } from 'knex';
import { engine, postgresUrl } from '../helpers/database.js';
import { routedKnex, type ConnectionSource } from '../../server/storage/dialects/postgres/routed-client.js';

/**
 * The routed reader's client (routed-client.ts) stands on two things knex's types do not promise:
 * that each statement takes its connection through the client's acquireConnection, and that it
 * runs through the client's query(), which the routed client overrides to read again elsewhere
 * when a standby fails. A knex upgrade that changed either would leave routing broken without a
 * type error (reads on the primary's pool only, or a standby's failure answered as a failed
 * request): these tests fail then. They need the primary only: the connections come from a
 * source that counts them and calls every failure of a marked statement its standby's, or every
 * failure on a connection it poisoned.
 */
describe('PostgreSQL routed client: knex takes each read connection from the routing, and reads again around a failed standby', function () {
  let primary: Knex;
  let reader: Knex;
  const taken: object[] = [];
  const given: object[] = [];
  const failures: unknown[] = [];
  /** Connections whose search_path names no schema: every table is missing there, as if the standby had failed. */
  const poisoned = new Set<object>();
  let poisonNext = false;

  before(async function () {
    if (engine !== 'postgres') this.skip();
    primary = knexFactory({ client: 'pg', connection: postgresUrl(), pool: { min: 0, max: 2 } });
    const source: ConnectionSource = {
      async take() {
        const connection = (await (primary.client as { acquireConnection(): Promise<object> }).acquireConnection()) as object;
        taken.push(connection);
        if (poisonNext) {
          poisonNext = false;
          poisoned.add(connection);
          await (connection as { query(sql: string): Promise<unknown> }).query('SET search_path = routed_client_nowhere');
        }
        return connection;
      },
      async give(connection) {
        given.push(connection);
        if (poisoned.delete(connection)) await (connection as { query(sql: string): Promise<unknown> }).query('RESET search_path');
        await (primary.client as { releaseConnection(connection: object): Promise<void> }).releaseConnection(connection);
      },
      standbyFailed(_connection, error) {
        // A marked statement's failure stands for its standby's (stopped, or a conflict with recovery).
        if (!poisoned.has(_connection) && !String((error as Error).message).includes('routed_client_marked')) return false;
        failures.push(error);
        return true;
      },
    };
    reader = routedKnex(primary, source);
    await primary.raw('CREATE TABLE IF NOT EXISTS public.routed_client_probe (doc jsonb)');
    await primary.raw('TRUNCATE public.routed_client_probe');
    await primary.raw(`INSERT INTO public.routed_client_probe VALUES ('{"a": 1}'), ('{"b": 2}')`);
  });
  after(async () => {
    await primary?.raw('DROP TABLE IF EXISTS public.routed_client_probe');
    await reader?.destroy();
    await primary?.destroy();
  });
  beforeEach(() => {
    taken.length = 0;
    given.length = 0;
    failures.length = 0;
    poisonNext = false;
  });

  it('takes the connection of each statement from the routing, and gives it back', async () => {
    const { rows } = await reader.raw('SELECT 1 AS one');
    assert.deepEqual(rows, [{ one: 1 }]);
    assert.equal(taken.length, 1);
    assert.deepEqual(given, taken);
  });

  it('runs a statement that met its standby\'s failure once more, on a connection taken anew', async () => {
    await assert.rejects(reader.raw('SELECT 1 FROM routed_client_marked'), /routed_client_marked/);
    assert.equal(failures.length, 1, 'the first run\'s failure was its standby\'s; the second run\'s is the answer');
    assert.equal(taken.length, 2, 'the second run took a connection of its own');
    assert.deepEqual(new Set(given), new Set(taken));
  });

  it('runs the statement again as the builder compiled it: bindings and an escaped `?` (jsonb) positioned anew', async () => {
    poisonNext = true;
    const rows = await reader('routed_client_probe').select('doc').whereRaw('doc \\? ?', ['a']).andWhere(reader.raw('1 = ?', [1]));
    assert.equal(failures.length, 1, 'the first run met the poisoned connection');
    assert.equal(taken.length, 2);
    assert.deepEqual(rows, [{ doc: { a: 1 } }]);
  });

  it('does not run a statement again for a failure that is not its standby\'s', async () => {
    await assert.rejects(reader.raw('SELECT 1 FROM routed_client_unmarked_missing'), /routed_client_unmarked_missing/);
    assert.equal(failures.length, 0);
    assert.equal(taken.length, 1);
  });

  it('does not move a statement inside a transaction: the transaction fails as a whole', async () => {
    await assert.rejects(reader.transaction(async (trx) => trx.raw('SELECT 1 FROM routed_client_marked')), /routed_client_marked/);
    assert.equal(failures.length, 0);
    assert.equal(taken.length, 1);
  });
});
