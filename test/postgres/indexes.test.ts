import assert from 'node:assert/strict';
import knexFactory, { type Knex } from 'knex';
import { kinds } from '../../generated/rest/kinds.js';
import type { Dialect } from '../../server/storage/contract/dialect.js';
import { postgresDialect } from '../../server/storage/dialects/postgres/index.js';
import { parseQuery } from '../../server/query/parse.js';
import { typeConditions } from '../../server/query/typing.js';
import { QueryCompiler } from '../../server/storage/query-sql.js';
import { engine, postgresUrl } from '../helpers/database.js';
import { get, post } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';

/** Names of the indexes a plan (EXPLAIN FORMAT JSON) reads. */
function indexesOf(plan: unknown): string[] {
  if (Array.isArray(plan)) return plan.flatMap(indexesOf);
  if (plan === null || typeof plan !== 'object') return [];
  const node = plan as Record<string, unknown>;
  const own = typeof node['Index Name'] === 'string' ? [node['Index Name']] : [];
  return [...own, ...Object.values(node).flatMap(indexesOf)];
}

/** Every node of a plan (EXPLAIN FORMAT JSON). */
function nodesOf(plan: unknown): Record<string, unknown>[] {
  if (Array.isArray(plan)) return plan.flatMap(nodesOf);
  if (plan === null || typeof plan !== 'object') return [];
  const node = plan as Record<string, unknown>;
  return [...('Node Type' in node ? [node] : []), ...Object.values(node).flatMap(nodesOf)];
}

/**
 * The `x-index` expression indexes are used by the conditions the query compiler writes: the
 * index expression and the compared expression must be the same, collation included, or the
 * planner falls back to scanning every resource of the kind.
 */
describe('PostgreSQL: x-index fields are queried through their expression indexes', function () {
  this.timeout(60_000);
  let server: RunningServer;
  let knex: Knex;
  const dialect = (): Dialect => postgresDialect(server.database.url);
  const nodeKind = kinds.find((k) => k.collection === 'nodes')!;

  before(async function () {
    if (engine !== 'postgres') this.skip();
    server = await startServer();
    const nodes = Array.from({ length: 4000 }, (_, i) => ({
      name: `node-${String(i).padStart(5, '0')}`,
      urn: `urn:ogf:network:domain=example.net:node=n${i}`,
      location: { institution: i % 1000 === 0 ? 'Rare University' : 'Common University' },
    }));
    const created = await post(`${server.url}/nodes`, nodes);
    assert.equal(created.status, 201, created.text);
    knex = knexFactory({ client: 'pg', connection: postgresUrl(), searchPath: [server.database.schema!], pool: { min: 0, max: 1 } });
    await knex.raw('ANALYZE resource_current');
  });
  after(async () => {
    await knex?.destroy();
    await server?.stop();
  });

  /** The plan of the list query the server runs for `query` (ResourceStore.list's statement). */
  const plannedIndexes = async (query: string): Promise<string[]> => indexesOf(await planOf(query));
  const planOf = async (query: string): Promise<unknown> => {
    const d = dialect();
    const parsed = parseQuery(query, 256);
    const compiler = new QueryCompiler(d);
    const builder = knex('resource_current').select('id', 'ts', d.sql.columns.documentText(knex, 'doc')).where({ kind: 'nodes' });
    compiler.where(builder, typeConditions(parsed.conditions, nodeKind.fields));
    compiler.orderBy(builder, parsed.sort, 'newest first');
    if (parsed.limit !== undefined) builder.limit(parsed.limit);
    const { sql, bindings } = builder.toSQL();
    const explained = await knex.raw(`EXPLAIN (FORMAT JSON) ${sql}`, bindings as Knex.RawBinding[]);
    return explained.rows[0]['QUERY PLAN'];
  };

  const cases: [string, string, RegExp][] = [
    ['equality on a top-level field', 'name=node-00017', /^xidx_resource_current_name_/],
    ['IN on a top-level field', 'name=node-00017,node-00018', /^xidx_resource_current_name_/],
    ['a string range', 'name=lt=node-00003', /^xidx_resource_current_name_/],
    ['equality on a nested field', 'location.institution=Rare%20University', /^xidx_resource_current_location_institution_/],
    ['equality on another indexed field', 'urn=urn%3Aogf%3Anetwork%3Adomain%3Dexample.net%3Anode%3Dn5', /^xidx_resource_current_urn_/],
  ];
  /**
   * Lists are newest first (rest-contract §5, revised 2026-11-29): the `(kind, ts)` index read
   * backward, only the rows of one `ts` sorted by `id` (Incremental Sort), never the whole list.
   */
  const newestFirst: [string, string][] = [
    ['the newest', 'limit=1'],
    ['a page', 'limit=100&skip=5'],
  ];
  for (const [title, query] of newestFirst) {
    it(`no condition, ${title}: ?${query} reads the (kind, ts) index backward`, async () => {
      const plan = await planOf(query);
      const nodes = nodesOf(plan);
      const scan = nodes.find((node) => node['Index Name'] === 'resource_current_kind_ts');
      assert.equal(scan?.['Scan Direction'], 'Backward', JSON.stringify(plan));
      assert.ok(!nodes.some((node) => node['Node Type'] === 'Sort'), JSON.stringify(plan));
      const answer = await get(`${server.url}/nodes?${query}&fields=name`);
      assert.equal(answer.status, 200, answer.text);
      // Posted in one array, in order: the newest is the last.
      const skip = Number(/skip=(\d+)/.exec(query)?.[1] ?? 0);
      assert.equal(answer.body[0].name, `node-${String(3999 - skip).padStart(5, '0')}`);
    });
  }

  for (const [title, query, index] of cases) {
    it(`${title}: ?${query}`, async () => {
      const used = await plannedIndexes(query);
      assert.ok(used.some((name) => index.test(name)), `expected ${index}, the plan reads ${JSON.stringify(used)}`);
      // The same query through HTTP finds what the data says it should.
      const answer = await get(`${server.url}/nodes?${query}&fields=name`);
      assert.equal(answer.status, 200, answer.text);
      assert.ok(answer.body.length > 0 && answer.body.length <= 4, `${answer.body.length} matches`);
    });
  }
});
