import { closeSync, openSync, readSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import type { Row } from '../../contract/rows.js';
import type { KeyReader } from '../../contract/driver.js';
import { Statements } from './statements.js';

/** Bytes of one copy of the WAL-index header, and the version SQLite writes in it (native byte order). */
const WAL_INDEX_HEADER = 48;
const WAL_INDEX_VERSION = 3007000;
const IS_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

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
  /** The WAL-index file (`<file>-shm`), open for reading; null where it cannot serve (see commits). */
  private shm: number | null | undefined;
  private readonly header = Buffer.alloc(WAL_INDEX_HEADER);

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

  /**
   * The first copy of the WAL-index header (https://www.sqlite.org/walformat.html, §2.2.1), read
   * from the `-shm` file: every commit rewrites it (its change counter, last frame and checksum)
   * before the commit returns, and a reader learns of a commit from nothing else, so it moves
   * exactly when a commit became visible. One pread instead of `PRAGMA data_version`, a read
   * transaction with its file locks (4 fcntl calls): 4 µs against 10–15 µs on the bench's
   * loaded 2-core machine. The header's version must be the one SQLite has written since 3.7.0,
   * and the file stays the same while this connection is open (SQLite deletes or truncates it
   * only when closing the last connection, which holds it exclusively). Otherwise, or if the
   * file cannot be read, `PRAGMA data_version` answers (a number; the header is a string).
   */
  commits(): number | string {
    const fd = this.shmFile();
    if (fd !== null) {
      try {
        if (readSync(fd, this.header, 0, WAL_INDEX_HEADER, 0) === WAL_INDEX_HEADER && this.header.readUInt32LE(0) === WAL_INDEX_VERSION && this.header[12] === 1) {
          return this.header.toString('latin1');
        }
      } catch {
        // Fall back below.
      }
    }
    return this.dataVersion();
  }

  private dataVersion(): number {
    return (this.statement('PRAGMA data_version').get() as { data_version: number }).data_version;
  }

  /** The `-shm` file, opened once the connection has mapped it (its first read transaction). */
  private shmFile(): number | null {
    if (this.shm !== undefined) return this.shm;
    this.dataVersion();
    try {
      this.shm = this.open().pragma('journal_mode', { simple: true }) === 'wal' && IS_LITTLE_ENDIAN ? openSync(`${this.filename}-shm`, 'r') : null;
    } catch {
      this.shm = null;
    }
    return this.shm;
  }

  private statement(sql: string): BetterSqlite3.Statement {
    this.statements ??= new Statements(this.open());
    return this.statements.get(sql);
  }

  async close(): Promise<void> {
    if (typeof this.shm === 'number') closeSync(this.shm);
    this.shm = undefined;
    this.statements = undefined;
    this.database?.close();
    this.database = undefined;
  }
}
