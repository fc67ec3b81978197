import assert from 'node:assert/strict';
import { get, post } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';

/**
 * Conditions and sorting over a field that holds every JSON type (kinds are open, so `label` is
 * not in the schema): each engine must give the same answers, bytewise for strings.
 */
describe('REST query semantics across JSON types', function () {
  let server: RunningServer;
  let nodes: string;
  const ids = async (query: string): Promise<string[]> => {
    const answer = await get(`${nodes}?${query}`);
    assert.equal(answer.status, 200, answer.text);
    return answer.body.map((n: { id: string }) => n.id);
  };

  before(async () => {
    server = await startServer();
    nodes = `${server.url}/nodes`;
    const labels: [string, unknown][] = [
      ['q00', undefined], ['q01', null], ['q02', false], ['q03', true], ['q04', 2.5], ['q05', 7],
      ['q06', '10'], ['q07', 'B'], ['q08', ['z']], ['q09', 'a'], ['q10', 'b'],
    ];
    const created = await post(nodes, labels.map(([id, label]) => (label === undefined ? { id } : { id, label })));
    assert.equal(created.status, 201, created.text);
  });
  after(async () => {
    await server.stop();
  });

  const cases: [string, string, string[]][] = [
    ['a string range matches strings only, bytewise (B before a)', 'label=lt=a', ['q06', 'q07']],
    ['a string range never matches numbers, booleans or null', 'label=lt=c', ['q06', 'q07', 'q09', 'q10']],
    ['a string never equals a number', 'label=7', []],
    ['a number range skips strings, booleans and null without failing', 'label=gt=number:1', ['q04', 'q05']],
    ['a number never equals a numeric-looking string', 'label=number:10', []],
    ['a boolean matches booleans only', 'label=boolean:true', ['q03']],
    ['an array is searched by its elements', 'label=z', ['q08']],
  ];
  for (const [title, query, expected] of cases) {
    it(`${title}: ?${query}`, async () => assert.deepEqual((await ids(query)).sort(), expected));
  }

  // Ties (missing and null) newest first: the default order breaks them (rest-contract §5, revised 2026-11-29).
  it('sorts missing and null first, then numbers (booleans as 0 and 1), then text bytewise', async () => {
    assert.deepEqual(await ids('sort=label:1'), ['q01', 'q00', 'q02', 'q03', 'q04', 'q05', 'q06', 'q07', 'q08', 'q09', 'q10']);
  });

  it('sorts descending with missing and null last', async () => {
    assert.deepEqual(await ids('sort=label:-1'), ['q10', 'q09', 'q08', 'q07', 'q06', 'q05', 'q04', 'q03', 'q02', 'q01', 'q00']);
  });

  it('a NUL in a query value is a 400 naming the parameter', async () => {
    const answer = await get(`${nodes}?label=a%00b`);
    assert.equal(answer.status, 400, answer.text);
    assert.deepEqual(answer.body.error.details.map((d: { path: string }) => d.path), ['label']);
  });
});
