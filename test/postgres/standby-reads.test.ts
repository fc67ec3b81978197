import assert from 'node:assert/strict';
import knexFactory, { type Knex } from 'knex';
import { engine } from '../helpers/database.js';
import { createCluster, createStandby, type LocalCluster } from '../../tools/pg-cluster.js';
import { createLogger } from '../../server/log.js';
import { StandbyReads } from '../../server/storage/dialects/postgres/standby-reads.js';
import { formatLsn, parseLsn } from '../../server/storage/dialects/postgres/wal-position.js';
import { until } from '../helpers/federation.js';

/** The standby applies each commit this long after the primary made it. */
const APPLY_DELAY_MS = 200;

function pool(url: string): Knex {
  return knexFactory({ client: 'pg', connection: { connectionString: url, connectionTimeoutMillis: 2_000 }, pool: { min: 0, max: 4 }, log: { warn: () => undefined, error: () => undefined } });
}

/**
 * StandbyReads (rest-contract §15) against a private primary and a streaming standby that applies
 * every commit 200 ms late: no read routed to the standby misses a write acknowledged before it
 * was routed; reads wait for the standby at most READ_WAIT_MS, then the primary serves; the
 * primary's position is asked once for the reads that arrive together; a stopped standby is read
 * around and used again once it is back.
 */
describe('PostgreSQL standby reads: routed only once replayed far enough', function () {
  this.timeout(120_000);
  let primary: LocalCluster;
  let standby: LocalCluster;
  let onPrimary: Knex;
  let onStandby: Knex;
  const logger = createLogger('silent');

  before(async function () {
    if (engine !== 'postgres') this.skip();
    primary = await createCluster();
    await primary.start();
    standby = await createStandby(primary, [`recovery_min_apply_delay=${APPLY_DELAY_MS}ms`]);
    await standby.start();
    onPrimary = pool(primary.url);
    onStandby = pool(standby.url);
    await onPrimary.raw('CREATE TABLE t (k int PRIMARY KEY)');
    await until('the table on the standby', async () => ((await onStandby.raw("SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 't'")).rows[0].n === 1 || undefined));
  });
  after(async () => {
    await onPrimary?.destroy();
    await onStandby?.destroy();
    await standby?.destroy();
    await primary?.destroy();
  });

  const count = async (knex: Knex, k: number): Promise<number> => (await knex.raw('SELECT count(*)::int AS n FROM t WHERE k = ?', [k])).rows[0].n as number;

  it('parses and writes WAL positions as PostgreSQL does, and they order', () => {
    for (const [text, value] of [['0/0', 0n], ['16/B374D848', (0x16n << 32n) + 0xb374d848n], ['FFFFFFFF/FFFFFFFF', (1n << 64n) - 1n]] as const) {
      assert.equal(parseLsn(text), value);
      assert.equal(formatLsn(value), text);
    }
    for (const bad of ['', '1', '1/', '/1', 'G/0', '123456789/0', 5, null]) assert.equal(parseLsn(bad), undefined, String(bad));
    assert.ok(parseLsn('1/0')! > parseLsn('0/FFFFFFFF')!);
  });

  it('a read after a write waits for the standby to replay it, then reads it there', async () => {
    const reads = new StandbyReads(onPrimary, [{ name: 'standby', knex: onStandby }], 2_000, logger);
    await onPrimary.raw('INSERT INTO t VALUES (1)');
    const started = performance.now();
    const route = await reads.route();
    const waited = performance.now() - started;
    assert.equal(route.standby, 'standby');
    assert.equal(await count(route.knex, 1), 1);
    assert.ok(waited >= APPLY_DELAY_MS / 2, `routed after ${Math.round(waited)} ms`);
    assert.deepEqual(reads.states().map(({ reads: r, waits, fallbacks, up }) => ({ r, waits, fallbacks, up })), [{ r: 1, waits: 1, fallbacks: 0, up: true }]);
  });

  it('waits at most READ_WAIT_MS, then the primary serves (a fallback, counted)', async () => {
    const reads = new StandbyReads(onPrimary, [{ name: 'standby', knex: onStandby }], 30, logger);
    await onPrimary.raw('INSERT INTO t VALUES (2)');
    const route = await reads.route();
    assert.equal(route.standby, undefined);
    assert.equal(await count(route.knex, 2), 1);
    assert.equal(reads.states()[0]!.fallbacks, 1);
    assert.ok(reads.states()[0]!.lagBytes > 0);
  });

  it('after a read waited READ_WAIT_MS in vain, reads go to the primary at once until the standby has replayed that far (rest-contract §16)', async () => {
    // An old primary rejoining as a standby is far behind: every read waited READ_WAIT_MS for it.
    const reads = new StandbyReads(onPrimary, [{ name: 'standby', knex: onStandby }], 1_000, logger);
    await until('the standby caught up', async () => ((await reads.route()).standby === 'standby' || undefined));
    await onStandby.raw('SELECT pg_wal_replay_pause()');
    try {
      await onPrimary.raw('INSERT INTO t VALUES (4)');
      const waited = await reads.route();
      assert.equal(waited.standby, undefined);
      const started = performance.now();
      const next = await reads.route();
      const took = performance.now() - started;
      assert.equal(next.standby, undefined);
      assert.equal(await count(next.knex, 4), 1);
      assert.ok(took < 500, `the next read waited ${Math.round(took)} ms for a standby known to be behind`);
      // A client's token is waited for as before: it names what that client needs, not the primary's lag.
      assert.equal((await reads.route(0n)).standby, 'standby');
    } finally {
      await onStandby.raw('SELECT pg_wal_replay_resume()');
    }
    await until('reads on the standby again once it replayed past the mark', async () => ((await reads.route()).standby === 'standby' || undefined));
  });

  it('a consistency token from before a write needs no wait; one from after it waits for it', async () => {
    const reads = new StandbyReads(onPrimary, [{ name: 'standby', knex: onStandby }], 2_000, logger);
    await until('the standby caught up', async () => ((await reads.route()).standby === 'standby' || undefined));
    const before = await reads.primaryPosition();
    await onPrimary.raw('INSERT INTO t VALUES (3)');
    const after = await reads.primaryPosition();
    assert.ok(after > before);
    const started = performance.now();
    const early = await reads.route(before);
    assert.equal(early.standby, 'standby');
    assert.ok(performance.now() - started < APPLY_DELAY_MS / 2, `routed after ${Math.round(performance.now() - started)} ms`);
    const late = await reads.route(after);
    assert.equal(late.standby, 'standby');
    assert.equal(await count(late.knex, 3), 1);
  });

  it('no routed read misses a write acknowledged before it: 200 write → route → read pairs, 16 at once', async () => {
    const reads = new StandbyReads(onPrimary, [{ name: 'standby', knex: onStandby }], 250, logger);
    let stale = 0;
    let next = 1_000;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let i = 0; i < 13; i++) {
          const k = next++;
          await onPrimary.raw('INSERT INTO t VALUES (?)', [k]);
          const route = await reads.route();
          if ((await count(route.knex, k)) !== 1) stale++;
        }
      }),
    );
    assert.equal(stale, 0);
    const [state] = reads.states();
    // Both ways were taken: some reads waited for the standby, and the rest fell back.
    assert.ok(state!.reads + state!.fallbacks === 208, JSON.stringify(state));
  });

  it('asks the primary its position once for the reads that arrive together', async () => {
    const reads = new StandbyReads(onPrimary, [{ name: 'standby', knex: onStandby }], 2_000, logger);
    let asked = 0;
    const counting = (query: { sql: string }): void => {
      if (query.sql.includes('pg_current_wal_insert_lsn')) asked++;
    };
    onPrimary.on('query', counting);
    try {
      const routes = await Promise.all(Array.from({ length: 100 }, () => reads.route()));
      assert.ok(routes.every((r) => r.standby === 'standby'));
      assert.ok(asked <= 2, `asked ${asked} times`);
    } finally {
      onPrimary.off('query', counting);
    }
  });

  it('a stopped standby is read around without a failed read, and used again once it is back', async () => {
    const reads = new StandbyReads(onPrimary, [{ name: 'standby', knex: onStandby }], 250, logger);
    await standby.stop();
    for (let i = 0; i < 5; i++) {
      const route = await reads.route();
      assert.equal(route.standby, undefined);
      await route.knex.raw('SELECT 1');
    }
    assert.equal(reads.states()[0]!.up, false);
    await standby.start();
    const back = performance.now();
    await until('reads on the standby again', async () => ((await reads.route()).standby === 'standby' || undefined));
    assert.ok(performance.now() - back < 10_000);
    assert.equal(reads.states()[0]!.up, true);
  });
});
