import type BetterSqlite3 from 'better-sqlite3';
import type { Knex } from 'knex';
import { createRequire } from 'node:module';

/** What this client uses of knex's own better-sqlite3 client. */
interface BaseClient {
  _formatBindings(bindings: readonly unknown[] | undefined): unknown[];
}

/** The query knex hands to a client to run. */
interface KnexQuery {
  sql: string;
  bindings?: readonly unknown[];
  response?: unknown;
  context?: { lastID: number | bigint; changes: number };
}

const require = createRequire(import.meta.url);
const Base = require('knex/lib/dialects/better-sqlite3/index.js') as new (config: Knex.Config) => BaseClient;

/** Most statements kept prepared per connection: every shape the stores write, with room. */
const STATEMENTS_PER_CONNECTION = 500;

/**
 * The statements of each connection, by SQL text. Not a field of the client: knex runs a
 * transaction's queries on an object made from the client's prototype, not from the client.
 */
const prepared = new WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>>();

/**
 * knex's `better-sqlite3` client, with each connection's statements prepared once per SQL text
 * instead of on every query: knex writes the same text for every query of a shape, and SQLite
 * parses and plans a statement at each prepare (a write job of a POST runs six statements).
 */
class PreparedOnceClient extends Base {
  async _query(connection: BetterSqlite3.Database, query: KnexQuery): Promise<KnexQuery> {
    if (!query.sql) throw new Error('The query is empty');
    let statements = prepared.get(connection);
    if (!statements) prepared.set(connection, (statements = new Map()));
    let statement = statements.get(query.sql);
    if (!statement) {
      statement = connection.prepare(query.sql);
      // Oldest first out: a Map iterates in insertion order.
      if (statements.size >= STATEMENTS_PER_CONNECTION) statements.delete(statements.keys().next().value!);
      statements.set(query.sql, statement);
    }
    const bindings = this._formatBindings(query.bindings);
    if (statement.reader) {
      query.response = statement.all(bindings);
      return query;
    }
    const result = statement.run(bindings);
    query.response = result;
    query.context = { lastID: result.lastInsertRowid, changes: result.changes };
    return query;
  }
}

export const preparedOnceClient = PreparedOnceClient as unknown as typeof Knex.Client;
