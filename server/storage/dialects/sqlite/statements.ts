import type BetterSqlite3 from 'better-sqlite3';

/** Most statements kept prepared per connection: every shape the stores run, with room. */
const MAX_STATEMENTS = 500;

/**
 * A connection's prepared statements by SQL text. SQLite parses and plans a statement when it is
 * prepared; knex writes the same text for every query of a shape, so each is prepared once.
 * The oldest goes when the cache is full (a Map iterates in insertion order).
 */
export class Statements {
  private readonly bySql = new Map<string, BetterSqlite3.Statement>();

  constructor(private readonly database: BetterSqlite3.Database) {}

  get(sql: string): BetterSqlite3.Statement {
    let statement = this.bySql.get(sql);
    if (!statement) {
      statement = this.database.prepare(sql);
      if (this.bySql.size >= MAX_STATEMENTS) this.bySql.delete(this.bySql.keys().next().value!);
      this.bySql.set(sql, statement);
    }
    return statement;
  }
}
