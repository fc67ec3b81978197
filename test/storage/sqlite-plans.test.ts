import assert from 'node:assert/strict';
import knexFactory, { type Knex } from 'knex';
import { kinds } from '../../generated/rest/kinds.js';
import { sqliteDialect } from '../../server/storage/dialects/sqlite/index.js';
import { parseQuery } from '../../server/query/parse.js';
import { typeConditions } from '../../server/query/typing.js';
import { QueryCompiler } from '../../server/storage/query-sql.js';
import { engine } from '../helpers/database.js';
import { get, post } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';

/**
 * SQLite plans for the list queries the server writes, with no ANALYZE ever run. Lists are
 * newest first (rest-contract §5, revised 2026-11-29): the indexes are read backward. An equality
 * reads its `x-index` index, which ends in the list order (ts, id), so nothing is sorted and
 * `limit=` stops early; an IN list seeks the same index because of the statistics the server
 * writes at start (without them SQLite walked the (kind, ts) index and filtered every resource
 * of the kind). Ranges are left to SQLite's fixed guess of their selectivity: without
 * histograms it may prefer reading the kind in list order.
 */
describe('SQLite: x-index conditions seek their index in list order', function () {
  this.timeout(60_000);
  let server: RunningServer;
  let knex: Knex;
  const nodeKind = kinds.find((k) => k.collection === 'nodes')!;

  before(async function () {
    if (engine !== 'sqlite') this.skip();
    server = await startServer();
    const nodes = Array.from({ length: 4000 }, (_, i) => ({
      name: `node-${String(i).padStart(5, '0')}`,
      location: { institution: i % 1000 === 0 ? 'Rare University' : 'Common University' },
    }));
    const created = await post(`${server.url}/nodes`, nodes);
    assert.equal(created.status, 201, created.text);
    knex = knexFactory({ client: 'better-sqlite3', connection: { filename: server.database.url.replace(/^sqlite:/, '') }, useNullAsDefault: true, pool: { min: 0, max: 1 } });
  });
  after(async () => {
    await knex?.destroy();
    await server?.stop();
  });

  /** EXPLAIN QUERY PLAN of the list statement ResourceStore.list runs for `query`. */
  const plan = async (query: string): Promise<string> => {
    const dialect = sqliteDialect(server.database.url);
    const parsed = parseQuery(query, 256);
    const compiler = new QueryCompiler(dialect);
    const builder = knex('resource_current').select('id', 'ts', 'doc').where({ kind: 'nodes' });
    compiler.where(builder, typeConditions(parsed.conditions, nodeKind.fields));
    compiler.orderBy(builder, parsed.sort, 'newest first');
    if (parsed.limit !== undefined) builder.limit(parsed.limit);
    const { sql, bindings } = builder.toSQL();
    const rows = (await knex.raw(`EXPLAIN QUERY PLAN ${sql}`, bindings as Knex.RawBinding[])) as { detail: string }[];
    return rows.map((r) => r.detail).join(' | ');
  };

  const cases: [string, string, { uses: RegExp; sorts: boolean; matches: number }][] = [
    ['equality on a top-level field', 'name=node-00017', { uses: /USING INDEX xidx_resource_current_name_/, sorts: false, matches: 1 }],
    ['equality on a nested field, limited', 'location.institution=Rare%20University&limit=2', { uses: /USING INDEX xidx_resource_current_location_institution_/, sorts: false, matches: 2 }],
    ['IN on a top-level field', 'name=node-00017,node-00018', { uses: /USING INDEX xidx_resource_current_name_/, sorts: true, matches: 2 }],
    ['no condition: the list order index', 'limit=5', { uses: /USING INDEX resource_current_kind_ts/, sorts: false, matches: 5 }],
    ['no condition, the whole list', '', { uses: /USING INDEX resource_current_kind_ts/, sorts: false, matches: 4000 }],
    ['limit=0 is the whole list', 'limit=0', { uses: /USING INDEX resource_current_kind_ts/, sorts: false, matches: 4000 }],
  ];
  for (const [title, query, want] of cases) {
    it(`${title}: ?${query}`, async () => {
      const planned = await plan(query);
      assert.match(planned, want.uses);
      // "LAST TERM OF ORDER BY" (id within one ts) is cheap; a sort of every match is not.
      assert.equal(/TEMP B-TREE FOR ORDER BY/.test(planned), want.sorts, planned);
      const answer = await get(`${server.url}/nodes?${query}&fields=name`);
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.body.length, want.matches);
    });
  }
});

/**
 * Statistics that follow the data: once the server has written enough rows, it runs ANALYZE
 * itself (STATISTICS_INTERVAL_MS checks), so measured figures replace the start-up ones.
 */
describe('SQLite: the server refreshes the planner statistics after many writes', function () {
  this.timeout(60_000);
  let server: RunningServer;

  before(async function () {
    if (engine !== 'sqlite') this.skip();
    server = await startServer({ env: { STATISTICS_INTERVAL_MS: '200' } });
  });
  after(async () => {
    await server?.stop();
  });

  it('analyses once after start, then after every 10,000 changed rows', async () => {
    const refreshed = () => server.logs.filter((l) => l.msg === 'planner statistics refreshed').length;
    const until = async (count: number) => {
      for (let waited = 0; refreshed() < count && waited < 5000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    };
    const postNodes = async (count: number, prefix: string) => {
      const created = await post(`${server.url}/nodes`, Array.from({ length: count }, (_, i) => ({ name: `${prefix}-${i}` })));
      assert.equal(created.status, 201, created.text);
    };
    // Whatever the file holds when the server starts is analysed at the first check.
    await until(1);
    assert.equal(refreshed(), 1);
    // 2,000 nodes are 6,000 rows (history, current and the event log): below the threshold.
    await postNodes(2000, 'few');
    await new Promise((resolve) => setTimeout(resolve, 600));
    assert.equal(refreshed(), 1);
    await postNodes(2000, 'many');
    await until(2);
    assert.equal(refreshed(), 2);
    const knex = knexFactory({ client: 'better-sqlite3', connection: { filename: server.database.url.replace(/^sqlite:/, '') }, useNullAsDefault: true, pool: { min: 0, max: 1 } });
    try {
      const stats = (await knex('sqlite_stat1').where({ tbl: 'resource_current' })) as { idx: string; stat: string }[];
      const nameIndex = stats.find((s) => s.idx.startsWith('xidx_resource_current_name_'));
      // Measured: 4,000 rows, one per name (the per-kind figure is sampled, so an estimate);
      // no longer the start-up guess of a million rows.
      assert.match(nameIndex?.stat ?? '', /^4000 \d+ 1 1 1$/, JSON.stringify(stats));
    } finally {
      await knex.destroy();
    }
    // Reads keep answering after the schema change that makes connections reload statistics.
    const found = await get(`${server.url}/nodes?name=many-7&fields=name`);
    assert.deepEqual(found.body, [{ name: 'many-7' }]);
  });
});
