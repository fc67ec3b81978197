import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createTestDatabase, engine, postgresUrl, withPostgres, type TestDatabase } from '../helpers/database.js';
import { get } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';

interface Acknowledged {
  readonly selfRef: string;
  readonly ts: number;
}

/**
 * An acknowledged write survives the loss of the session that wrote it: while clients write
 * (single new resources, merged into shared statements; arrays; merge patches), every session of
 * the server is terminated again and again (pg_terminate_backend). Each write is answered 2xx and
 * is stored, or answered 503 and is stored whole or not at all; none is half there, and the
 * server serves again without a restart.
 */
describe('PostgreSQL: sessions terminated under writes', function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let server: RunningServer;
  const application = `topocat-killed-${randomBytes(4).toString('hex')}`;

  before(async function () {
    if (engine !== 'postgres') return this.skip();
    database = await createTestDatabase();
    server = await startServer({ database: { ...database, url: `${database.url}&application_name=${application}` } });
  });
  after(async () => {
    await server?.stop();
    await database?.drop();
  });

  it('keeps every acknowledged write, whole, and answers the others 503', async () => {
    const acknowledged: Acknowledged[] = [];
    const batches = new Map<string, number>();
    const statuses = new Map<number, number>();
    let stop = false;
    const count = (status: number): void => void statuses.set(status, (statuses.get(status) ?? 0) + 1);

    const writer = async (w: number): Promise<void> => {
      for (let i = 0; !stop; i++) {
        if (i % 4 === 3) {
          const tag = `w${w}-${i}`;
          batches.set(tag, 10);
          const answer = await fetch(`${server.url}/nodes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(Array.from({ length: 10 }, (_, k) => ({ name: `${tag}-${k}`, description: tag }))) });
          count(answer.status);
          if (answer.status === 201) for (const node of (await answer.json()) as Acknowledged[]) acknowledged.push(node);
          else await answer.arrayBuffer();
        } else {
          const answer = await fetch(`${server.url}/nodes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: `single ${w}-${i}` }) });
          count(answer.status);
          if (answer.status !== 201) {
            await answer.arrayBuffer();
            continue;
          }
          const node = (await answer.json()) as Acknowledged;
          acknowledged.push(node);
          const patched = await fetch(node.selfRef, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ description: `patched ${i}` }) });
          count(patched.status);
          if (patched.status === 200) acknowledged.push((await patched.json()) as Acknowledged);
          else await patched.arrayBuffer();
        }
      }
    };
    const writers = Array.from({ length: 8 }, (_, w) => writer(w));
    let terminated = 0;
    for (let round = 0; round < 15; round++) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      terminated += await withPostgres(postgresUrl(), async (knex) => {
        const { rows } = (await knex.raw('SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE application_name = ?', [application])) as { rows: { done: boolean }[] };
        return rows.filter((r) => r.done).length;
      });
    }
    stop = true;
    await Promise.all(writers);

    assert.ok(terminated > 0, 'no session was terminated');
    const outcomes = [...statuses.keys()].sort();
    assert.ok(outcomes.every((status) => status === 201 || status === 200 || status === 503), `answers: ${JSON.stringify([...statuses])}`);
    assert.ok((statuses.get(503) ?? 0) > 0, `no write met a terminated session: ${JSON.stringify([...statuses])}`);

    // Serving again, without a restart: every acknowledged version is there.
    for (const version of acknowledged) {
      const answer = await get(`${version.selfRef}?ts=${version.ts}`);
      assert.equal(answer.status, 200, `${version.selfRef} at ${version.ts}: ${answer.text}`);
    }
    // No array half there: each stored whole or not at all.
    for (const [tag, size] of batches) {
      const found = await get(`${server.url}/nodes?description=${tag}&fields=id`);
      assert.ok(found.body.length === 0 || found.body.length === size, `${tag}: ${found.body.length} of ${size} stored`);
    }
  });
});
