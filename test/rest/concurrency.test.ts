import assert from 'node:assert/strict';
import { get, patch, post } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';

describe('REST concurrent writes', function () {
  let server: RunningServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.stop();
  });

  it('50 parallel POSTs get distinct ids and all appear in the list', async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => post(`${server.url}/nodes`, { name: `parallel-${i}` })));
    assert.ok(answers.every((a) => a.status === 201), JSON.stringify(answers.map((a) => a.status)));
    const ids = new Set(answers.map((a) => a.body.id));
    assert.equal(ids.size, 50);
    const listed = new Set((await get(`${server.url}/nodes?limit=1000`)).body.map((n: { id: string }) => n.id));
    for (const id of ids) assert.ok(listed.has(id), id);
  });

  it('20 concurrent PATCHes of one resource leave 21 distinct representations, none lost', async () => {
    const created = (await post(`${server.url}/nodes`, { name: 'contended', counter: [] })).body;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => patch(created.selfRef, { [`field${i}`]: i })));
    assert.ok(answers.every((a) => a.status === 200), JSON.stringify(answers.map((a) => a.status)));
    const versions = (await get(`${created.selfRef}?id=${created.id}`)).body as { ts: number; [k: string]: unknown }[];
    assert.equal(versions.length, 21);
    assert.equal(new Set(versions.map((v) => v.ts)).size, 21, 'distinct ts');
    assert.deepEqual(versions.map((v) => v.ts), [...versions.map((v) => v.ts)].sort((a, b) => b - a), 'newest first, strictly decreasing');
    // Each patch applied to the version before it, so the newest carries all twenty fields.
    const newest = versions[0]!;
    for (let i = 0; i < 20; i++) assert.equal(newest[`field${i}`], i);
  });

  it('writes that fail beside others that succeed leave only their own changes out', async () => {
    // Sent together, these share SQLite's group commits: a job that fails must roll back its own
    // savepoint only, and every 2xx must be stored.
    const fresh = Array.from({ length: 20 }, (_, i) => post(`${server.url}/nodes`, { name: `beside-${i}` }));
    const contested = Array.from({ length: 20 }, (_, i) => post(`${server.url}/nodes`, { id: 'contested', name: `claim-${i}` }, { 'if-none-match': '*' }));
    const invalid = Array.from({ length: 10 }, () => post(`${server.url}/nodes`, { name: 42 }));
    const [freshAnswers, contestedAnswers, invalidAnswers] = await Promise.all([Promise.all(fresh), Promise.all(contested), Promise.all(invalid)]);
    assert.ok(freshAnswers.every((a) => a.status === 201), JSON.stringify(freshAnswers.map((a) => a.status)));
    assert.deepEqual(contestedAnswers.map((a) => a.status).sort(), [201, ...Array(19).fill(412)]);
    assert.ok(invalidAnswers.every((a) => a.status === 400));
    // Bodies, not texts: PostgreSQL prints a stored jsonb in its own spacing.
    for (const answer of freshAnswers) assert.deepEqual((await get(answer.body.selfRef)).body, answer.body);
    const winner = contestedAnswers.find((a) => a.status === 201)!;
    const claims = Array.from({ length: 20 }, (_, i) => `claim-${i}`).join(',');
    const versions = (await get(`${server.url}/nodes/contested?name=${claims}`)).body as { name: string }[];
    assert.deepEqual(versions.map((v) => v.name), [winner.body.name], 'one version of the contested id, the winner\'s');
    assert.deepEqual((await get(`${server.url}/nodes/contested`)).body, winner.body);
  });
});
