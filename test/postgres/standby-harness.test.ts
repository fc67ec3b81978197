import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { engine, withPostgres } from '../helpers/database.js';
import { createCluster, createStandby, type LocalCluster } from '../../tools/pg-cluster.js';
import { until } from '../helpers/federation.js';

/**
 * The harness of the standby tests and rows (rest-contract §15): a private primary and a
 * streaming hot standby of it on this machine, each on a port and in a directory of its own.
 * Ready within 10 s, following the primary (with an apply delay when asked), and gone without a
 * trace.
 */
describe('PostgreSQL standby harness: a private primary and a streaming standby', function () {
  this.timeout(90_000);
  let primary: LocalCluster | undefined;
  let standby: LocalCluster | undefined;

  before(function () {
    if (engine !== 'postgres') this.skip();
  });
  afterEach(async () => {
    await standby?.destroy();
    await primary?.destroy();
    standby = primary = undefined;
  });

  it('is ready within 10 s, replays what the primary commits, refuses writes, and leaves nothing behind', async () => {
    const started = performance.now();
    primary = await createCluster();
    await primary.start();
    standby = await createStandby(primary);
    await standby.start();
    const readyMs = performance.now() - started;
    assert.ok(readyMs < 10_000, `ready after ${Math.round(readyMs)} ms`);

    await withPostgres(primary.url, async (knex) => {
      await knex.raw('CREATE TABLE t (k int PRIMARY KEY)');
      await knex.raw('INSERT INTO t VALUES (1)');
    });
    await withPostgres(standby.url, async (knex) => {
      assert.equal((await knex.raw('SELECT pg_is_in_recovery() AS r')).rows[0].r, true);
      await until('the row on the standby', async () => ((await knex.raw("SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 't'")).rows[0].n === 1 ? (await knex.raw('SELECT count(*)::int AS n FROM t')).rows[0].n === 1 || undefined : undefined));
      await assert.rejects(knex.raw('INSERT INTO t VALUES (2)'), /read-only transaction/);
    });
    await withPostgres(primary.url, async (knex) => {
      const senders = (await knex.raw("SELECT count(*)::int AS n FROM pg_stat_replication WHERE state = 'streaming'")).rows[0].n as number;
      assert.equal(senders, 1);
    });

    const urls = [primary.url, standby.url];
    const dirs = [primary.dir, standby.dir];
    await standby.destroy();
    await primary.destroy();
    standby = primary = undefined;
    for (const url of urls) {
      await assert.rejects(withPostgres(url, (knex) => knex.raw('SELECT 1')));
    }
    for (const dir of dirs) assert.equal(existsSync(dir), false, dir);
  });

  it('with recovery_min_apply_delay, the standby shows a commit only after the delay, and stopping it leaves the primary serving', async () => {
    primary = await createCluster();
    await primary.start();
    standby = await createStandby(primary, ['recovery_min_apply_delay=500ms']);
    await standby.start();
    await withPostgres(primary.url, (knex) => knex.raw('CREATE TABLE t (k int PRIMARY KEY)'));
    await withPostgres(standby.url, (knex) => until('the table on the standby', async () => ((await knex.raw("SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 't'")).rows[0].n === 1 || undefined)));

    const committed = performance.now();
    await withPostgres(primary.url, (knex) => knex.raw('INSERT INTO t VALUES (1)'));
    await withPostgres(standby.url, async (knex) => {
      assert.equal((await knex.raw('SELECT count(*)::int AS n FROM t')).rows[0].n, 0, 'seen before the delay');
      await until('the row on the standby', async () => ((await knex.raw('SELECT count(*)::int AS n FROM t')).rows[0].n === 1 || undefined));
    });
    assert.ok(performance.now() - committed >= 450, `seen after ${Math.round(performance.now() - committed)} ms`);

    await standby.stop();
    await withPostgres(primary.url, async (knex) => {
      await knex.raw('INSERT INTO t VALUES (2)');
      assert.equal((await knex.raw('SELECT count(*)::int AS n FROM t')).rows[0].n, 2);
    });
  });
});
