import assert from 'node:assert/strict';
import { startServer, type LogLine, type RunningServer } from '../helpers/server.js';
import { eventually } from '../helpers/wait.js';

/**
 * The access log: one line per request, with the fields pino would write (the line is built by
 * hand on the request path, see server/http/access-line.ts), read back from the real server's
 * stdout.
 */
describe('access log', function () {
  this.timeout(60_000);
  let server: RunningServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.stop();
  });

  async function lineOf(requestId: string): Promise<LogLine> {
    return eventually(`the access line of ${requestId}`, () => server.logs.find((l) => l.msg === 'request' && l.requestId === requestId));
  }

  it('a success: level, time, pid, request id, method, path, status and ms, as one JSON object', async () => {
    const response = await fetch(`${server.url}/nodes?limit=1`, { headers: { 'x-request-id': 'access-ok-1' } });
    assert.equal(response.status, 200);
    await response.arrayBuffer();
    const line = await lineOf('access-ok-1');
    assert.deepEqual(Object.keys(line), ['level', 'time', 'pid', 'requestId', 'method', 'path', 'status', 'ms', 'msg']);
    assert.equal(line.level, 30);
    assert.ok(!Number.isNaN(Date.parse(String(line.time))), 'an ISO time');
    assert.equal(typeof line.pid, 'number');
    assert.equal(line.method, 'GET');
    assert.equal(line.path, '/nodes');
    assert.equal(line.status, 200);
    assert.ok(typeof line.ms === 'number' && line.ms >= 0);
  });

  it('a client mistake: its query, credentials masked, and the reason, escaped as JSON', async () => {
    const response = await fetch(`${server.url}/nodes/a%22b?ts=x&api_key=secret-value`, { headers: { 'x-request-id': 'access-bad-1' } });
    assert.equal(response.status, 400);
    await response.arrayBuffer();
    const line = await lineOf('access-bad-1');
    assert.equal(line.path, '/nodes/a%22b');
    assert.equal(line.status, 400);
    assert.equal(line.query, 'ts=x&api_key=***');
    assert.match(String(line.reason), /ts/);
    assert.ok(!JSON.stringify(server.logs).includes('secret-value'), 'no line holds the credential');
  });
});
