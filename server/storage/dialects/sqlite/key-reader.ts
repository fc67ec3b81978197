import BetterSqlite3 from 'better-sqlite3';
import type { Row } from '../../dialect.js';
import type { KeyReader } from '../../key-reader.js';
import { Statements } from './statements.js';

/**
 * Key lookups on a connection of their own, each SQL text prepared once. better-sqlite3 runs a
 * statement on the calling thread, so one connection serves every lookup of the process in turn
 * (a lookup by key takes microseconds, less than a hand-off to another thread would), and WAL
 * lets it read while the writer writes. `get()` reads one row and resets the statement, so no
 * read transaction stays open to pin an old snapshot.
 */
export class SqliteKeyReader implements KeyReader {
  private database: BetterSqlite3.Database | undefined;
  private statements: Statements | undefined;

  constructor(private readonly filename: string) {}

  private open(): BetterSqlite3.Database {
    if (!this.database) {
      // fileMustExist: a missing file is an outage here, not an empty database to create.
      const database = new BetterSqlite3(this.filename, { fileMustExist: true });
      // query_only: this connection never writes, whatever SQL reaches it.
      database.pragma('busy_timeout = 10000');
      database.pragma('query_only = 1');
      this.database = database;
    }
    return this.database;
  }

  async one(sql: string, bindings: readonly unknown[]): Promise<Row | undefined> {
    return this.oneNow(sql, bindings);
  }

  oneNow(sql: string, bindings: readonly unknown[]): Row | undefined {
    return this.statement(sql).get(...bindings) as Row | undefined;
  }

  async all(sql: string, bindings: readonly unknown[]): Promise<Row[]> {
    return this.statement(sql).all(...bindings) as Row[];
  }

  commits(): number {
    return (this.statement('PRAGMA data_version').get() as { data_version: number }).data_version;
  }

  private statement(sql: string): BetterSqlite3.Statement {
    this.statements ??= new Statements(this.open());
    return this.statements.get(sql);
  }

  async close(): Promise<void> {
    this.statements = undefined;
    this.database?.close();
    this.database = undefined;
  }
}
