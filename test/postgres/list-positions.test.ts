import assert from 'node:assert/strict';
import type { Database } from '../../server/storage/contract/database.js';
import { openDatabase } from '../../server/storage/database.js';
import { ResourceStore } from '../../server/storage/resource-store.js';
import { createTestDatabase, engine, type TestDatabase } from '../helpers/database.js';

/**
 * The position of a list on PostgreSQL (HistorySql.listPosition), where events do not commit in
 * the order of their ids: a transaction that took its event id (and its transaction id) first may
 * commit after one that took them later. The newest id, or the newest position, of the kind then
 * does not move when it commits; the list's position must.
 */
describe('PostgreSQL: the position of a list moves with a commit that comes late', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let db: Database;
  let store: ResourceStore;

  before(async function () {
    if (engine !== 'postgres') this.skip();
    database = await createTestDatabase();
    db = await openDatabase({ url: database.url, poolMax: 4 });
    store = new ResourceStore(db);
    await store.insert([{ kind: 'nodes', id: 'first', clientId: true, build: (id, ts) => ({ id, ts }) }]);
  });
  after(async () => {
    await db?.close();
    await database?.drop();
  });

  /** What a position of the newest event alone would say: the kind's largest event id and largest k. */
  const newest = async (): Promise<string> => {
    const row = (await db.writer.raw(`SELECT max(event) AS event, max(k) AS k FROM resource_events WHERE kind = 'nodes'`)).rows[0] as { event: string; k: string };
    return `${row.k}.${row.event}`;
  };

  it('a transaction that took its event first and commits last changes the position', async () => {
    const late = await db.writer.transaction();
    try {
      // Its transaction id and event id are taken now, before the other write's.
      await db.dialect.features.history.storeVersions(late, [{ kind: 'nodes', id: 'late', ts: Date.now() * 1000, doc: '{"id":"late"}', action: 'POST', fresh: true }]);
      await store.insert([{ kind: 'nodes', id: 'early', clientId: true, build: (id, ts) => ({ id, ts }) }]);
      const before = await store.positions.of('nodes');
      const newestBefore = await newest();
      await late.commit();
      const after = await store.positions.of('nodes');
      // The case is the hard one: the newest id and the newest k stay where they were.
      assert.equal(await newest(), newestBefore, 'the late commit did not move the newest event');
      assert.notEqual(after, before, 'the list position moved with the late commit');
    } catch (error) {
      await late.rollback().catch(() => undefined);
      throw error;
    }
  });

  /**
   * The position once the horizon has passed every event of `kind` written so far: it moves once
   * more, with no write, when the horizon passes them (other sessions of a shared server may
   * hold it back for a while).
   */
  const settled = async (kind: string): Promise<string> => {
    let last = await store.positions.of(kind);
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const now = await store.positions.of(kind);
      if (now === last) return now;
      last = now;
    }
    return last;
  };

  it('a write of another kind leaves the position of nodes, and moves the position of every kind', async () => {
    const [nodes, all] = [await settled('nodes'), await store.positions.of(undefined)];
    await store.insert([{ kind: 'ports', id: 'p', clientId: true, build: (id, ts) => ({ id, ts }) }]);
    assert.equal(await store.positions.of('nodes'), nodes);
    assert.notEqual(await store.positions.of(undefined), all);
  });
});
