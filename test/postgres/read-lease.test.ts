import assert from 'node:assert/strict';
import { CurrentCache } from '../../server/storage/current-cache.js';
import { openDatabase } from '../../server/storage/database.js';
import type { Database } from '../../server/storage/contract/database.js';
import { ResourceStore } from '../../server/storage/resource-store.js';
import { createTestDatabase, engine, type TestDatabase } from '../helpers/database.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The read lease (dialects/postgres/read-lease.ts): two processes' storage on one database, each
 * with a read cache as the server has it (serve.ts). The one that reads keeps what it read while
 * it holds the lease; a write through the other is read back at once all the same.
 */
describe('PostgreSQL: the read lease (a read cache while no other process writes)', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  const dbs: Database[] = [];
  let a: { db: Database; store: ResourceStore; cache: CurrentCache };
  let b: { db: Database; store: ResourceStore; cache: CurrentCache };

  const side = async (): Promise<typeof a> => {
    const db = await openDatabase({ url: database.url, poolMax: 4 });
    dbs.push(db);
    const cache = new CurrentCache(1 << 20, () => db.lease!.held());
    return { db, store: new ResourceStore(db, cache), cache };
  };
  const holds = (db: Database): boolean => {
    try {
      db.lease!.held();
      return true;
    } catch {
      return false;
    }
  };
  /** Read `id` through `s` until its process holds the lease, then once more: the answer is then kept. */
  const holding = async (s: typeof a, id: string): Promise<void> => {
    const deadline = Date.now() + 10_000;
    while (!holds(s.db)) {
      if (Date.now() > deadline) throw new Error('the lease was never taken');
      await s.store.current('nodes', id);
      await sleep(50);
    }
    await s.store.current('nodes', id);
  };
  const build = (name: string) => (id: string, ts: number) => ({ id, ts, name });

  before(async function () {
    if (engine !== 'postgres') this.skip();
    database = await createTestDatabase();
    a = await side();
    b = await side();
    await a.store.insert([{ kind: 'nodes', id: 'x', clientId: true, build: build('v0') }]);
  });
  after(async () => {
    for (const db of dbs) await db.close();
    await database?.drop();
  });

  it('the process that reads takes the lease and answers from memory; the other does not take it meanwhile', async () => {
    await holding(a, 'x');
    assert.ok(a.cache.get('nodes', 'x'), 'kept');
    // b reads too, but a keeps reading: b asks, and a keeps the lease.
    for (let i = 0; i < 30; i++) {
      await a.store.current('nodes', 'x');
      await b.store.current('nodes', 'x');
      await sleep(50);
    }
    assert.equal(holds(a.db), true);
    assert.equal(holds(b.db), false);
  });

  it('a write acknowledged through another process is read back at once through the holder, every time', async () => {
    for (let i = 1; i <= 4; i++) {
      await holding(a, 'x');
      assert.ok(a.cache.get('nodes', 'x'), `round ${i}: kept before the write`);
      const written = await b.store.update('nodes', 'x', (current) => ({ ...(current as object), name: `v${i}` }));
      const read = await a.store.current('nodes', 'x');
      assert.equal(read?.ts, written.ts, `round ${i}`);
      assert.equal((JSON.parse(read.doc) as { name: string }).name, `v${i}`);
    }
  });

  it('reads through the holder racing writes through the other never answer older than an acknowledged write', async () => {
    await holding(a, 'x');
    let acked = 0;
    let writing = true;
    let reads = 0;
    let fromMemory = 0;
    const reader = async (): Promise<void> => {
      while (writing) {
        const floor = acked;
        if (a.cache.get('nodes', 'x')) fromMemory++;
        const read = await a.store.current('nodes', 'x');
        assert.ok(read && read.ts >= floor, `read ts ${read?.ts} older than the acknowledged ${floor}`);
        reads++;
        // An answer from memory resolves at once: let timers and I/O (b's writes) run.
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const readers = [reader(), reader(), reader(), reader()];
    try {
      for (let i = 0; i < 20; i++) {
        const written = await b.store.update('nodes', 'x', (current) => ({ ...(current as object), name: `race ${i}` }));
        acked = written.ts;
        // Now and then a quiet spell, so that the lease goes back to the reader between writes.
        if (i % 5 === 4) await sleep(2_500);
      }
    } finally {
      writing = false;
      await Promise.all(readers);
    }
    assert.ok(fromMemory > 0 && fromMemory < reads, `${fromMemory} of ${reads} reads from memory`);
  });

  it("the holder's own writes leave the database's text to be read: every process answers the same bytes", async () => {
    await holding(a, 'x');
    const written = await a.store.update('nodes', 'x', (current) => ({ ...(current as object), name: 'by the holder', extra: { b: 1, a: 2 } }));
    const mine = await a.store.current('nodes', 'x');
    const theirs = await b.store.current('nodes', 'x');
    assert.equal(mine?.ts, written.ts);
    assert.deepEqual(mine, theirs);
  });

  /**
   * The positions of lists (ListPositions, the lists' ETags): the holder keeps them under the
   * read cache's mark (CurrentCache.mark). `statements` counts the position statements `s` runs.
   */
  const positionStatements = (s: typeof a): { count: number } => {
    const counted = { count: 0 };
    const keys = s.db.keys as { one: (sql: string, bindings: readonly unknown[]) => Promise<unknown> };
    const one = keys.one.bind(keys);
    keys.one = (sql, bindings) => {
      if (sql === s.db.dialect.features.history.listPosition.kind) counted.count++;
      return one(sql, bindings);
    };
    return counted;
  };

  it('the holder keeps a list position, and a write acknowledged through the other moves it at once, every time', async () => {
    const statements = positionStatements(a);
    for (let i = 1; i <= 4; i++) {
      await holding(a, 'x');
      const before = await a.store.positions.of('nodes');
      const counted = statements.count;
      assert.equal(await a.store.positions.of('nodes'), before);
      assert.equal(statements.count, counted, `round ${i}: the position kept, no statement`);
      await b.store.update('nodes', 'x', (current) => ({ ...(current as object), name: `list ${i}` }));
      assert.notEqual(await a.store.positions.of('nodes'), before, `round ${i}: moved`);
    }
  });

  it("the holder's own write moves the position it keeps", async () => {
    await holding(a, 'x');
    const before = await a.store.positions.of('nodes');
    assert.equal(await a.store.positions.of('nodes'), before);
    await a.store.update('nodes', 'x', (current) => ({ ...(current as object), name: 'own' }));
    assert.notEqual(await a.store.positions.of('nodes'), before);
  });

  it('positions read through the holder racing writes through either process never stay behind an acknowledged write', async () => {
    await holding(a, 'x');
    // The position each acknowledged write left behind: no read that begins after the
    // acknowledgement may answer the position read before the write began.
    let stale: string | undefined;
    let writing = true;
    let reads = 0;
    const reader = async (): Promise<void> => {
      while (writing) {
        const gone = stale;
        const position = await a.store.positions.of('nodes');
        assert.notEqual(position, gone, 'a position from before an acknowledged write');
        reads++;
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const readers = [reader(), reader(), reader()];
    try {
      for (let i = 0; i < 20; i++) {
        const before = await a.store.positions.of('nodes');
        await (i % 2 === 0 ? b : a).store.update('nodes', 'x', (current) => ({ ...(current as object), name: `race list ${i}` }));
        stale = before;
        if (i % 5 === 4) await sleep(2_500);
      }
    } finally {
      writing = false;
      await Promise.all(readers);
    }
    assert.ok(reads > 20, `${reads} reads`);
  });

  it('an outside write (an import, which the lease does not see) moves the kept position once the read cache is emptied', async () => {
    await holding(a, 'x');
    const before = await a.store.positions.of('nodes');
    // Written as `npm run import` would, past the lease: the servers learn of it within the
    // second (outside-writes.ts), which empties their read caches (CurrentCache.dropAll).
    const trx = await b.db.writer.transaction();
    await b.db.dialect.features.history.storeVersions(trx, [{ kind: 'nodes', id: 'outside', ts: Date.now() * 1000, doc: '{"id":"outside"}', action: 'POST', fresh: true }]);
    await trx.commit();
    assert.equal(await a.store.positions.of('nodes'), before, 'kept until the read cache is told');
    a.cache.dropAll();
    assert.notEqual(await a.store.positions.of('nodes'), before);
  });
});
