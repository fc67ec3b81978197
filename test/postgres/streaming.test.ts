import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { engine, postgresUrl, withPostgres } from '../helpers/database.js';
import { post } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Session {
  state: string;
  wait_event: string | null;
}

/**
 * A list is read from PostgreSQL through a portal, a batch at a time, as the client takes it:
 * while a client stops reading, the query is suspended in the middle (the session is `active`,
 * waiting for the server process to ask for more), instead of having been read whole into memory.
 */
describe('PostgreSQL: lists stream through a cursor with back-pressure', function () {
  this.timeout(60_000);
  let server: RunningServer;

  before(async function () {
    if (engine !== 'postgres') this.skip();
    server = await startServer();
    // Several MB of JSON: far more than the socket buffers between the client and the server.
    for (let batch = 0; batch < 2; batch++) {
      const answer = await post(`${server.url}/nodes`, Array.from({ length: 10_000 }, (_, i) => ({ name: `n${batch}-${i}`, description: 'x'.repeat(150) })));
      assert.equal(answer.status, 201, answer.text);
    }
  });
  after(async () => {
    await server?.stop();
  });

  /** The sessions running a statement that mentions `marker`. */
  const sessions = (marker: string): Promise<Session[]> =>
    withPostgres(postgresUrl(), async (knex) => {
      const result = await knex.raw(
        "SELECT state, wait_event FROM pg_stat_activity WHERE application_name = 'topocat' AND query LIKE ? AND pid <> pg_backend_pid()",
        [`%${marker}%`],
      );
      return result.rows as Session[];
    });

  it('keeps the query suspended while the client does not read, and closes it when the client leaves', async () => {
    // A sort key on a field no node has: the order stays by ts, and the statement is recognisable.
    const marker = `probe_${randomBytes(6).toString('hex')}`;
    const response = await new Promise<IncomingMessage>((resolve, reject) => httpGet(`${server.url}/nodes?sort=${marker}:1`, resolve).once('error', reject));
    assert.equal(response.statusCode, 200);
    const first = await new Promise<Buffer>((resolve) => response.once('data', resolve));
    assert.equal(first.subarray(0, 1).toString(), '[');
    response.pause();
    await sleep(500);

    const paused = await sessions(marker);
    assert.deepEqual(paused, [{ state: 'active', wait_event: 'ClientRead' }], 'one session, mid-query, waiting for the server process');

    response.destroy();
    let after: Session[] = paused;
    for (let i = 0; i < 40 && after.some((s) => s.state !== 'idle'); i++) {
      await sleep(100);
      after = await sessions(marker);
    }
    assert.ok(after.every((s) => s.state === 'idle'), `the portal is closed and the connection idle again: ${JSON.stringify(after)}`);
  });
});
