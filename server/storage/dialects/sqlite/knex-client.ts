import type BetterSqlite3 from 'better-sqlite3';
import type { Knex } from 'knex';
import { BetterSqlite3Client, type KnexQuery } from './knex-base.js';
import { releaseFunctions } from './functions.js';
import { Statements } from './statements.js';

/**
 * The statements of each connection, by SQL text. Not a field of the client: knex runs a
 * transaction's queries on an object made from the client's prototype, not from the client.
 */
const prepared = new WeakMap<BetterSqlite3.Database, Statements>();

/** The prepared statements of a connection (also for write jobs' statements, see write-statements.ts). */
export function statementsOf(connection: BetterSqlite3.Database): Statements {
  let statements = prepared.get(connection);
  if (!statements) prepared.set(connection, (statements = new Statements(connection)));
  return statements;
}

/**
 * knex's `better-sqlite3` client, with each connection's statements prepared once per SQL text
 * instead of on every query: knex writes the same text for every query of a shape, and SQLite
 * parses and plans a statement at each prepare (a write job of a POST runs six statements).
 */
class PreparedOnceClient extends BetterSqlite3Client {
  async _query(connection: BetterSqlite3.Database, query: KnexQuery): Promise<KnexQuery> {
    if (!query.sql) throw new Error('The query is empty');
    const statement = statementsOf(connection).get(query.sql);
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

  async destroyRawConnection(connection: BetterSqlite3.Database): Promise<void> {
    releaseFunctions(connection);
    connection.close();
  }
}

export const preparedOnceClient = PreparedOnceClient as unknown as typeof Knex.Client;
