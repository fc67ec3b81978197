import type BetterSqlite3 from 'better-sqlite3';
import knexFactory, { type Knex } from 'knex';
import type { Connections, PoolOptions, Pools } from '../../dialect.js';
import { knexLog } from '../../knex-log.js';
import { GroupCommit } from './group-commit.js';
import { SqliteKeyReader } from './key-reader.js';
import { streamRows } from './stream.js';

/** Settings of every connection: WAL, so readers never wait for the writer, and foreign keys. */
const COMMON = ['journal_mode = WAL', 'foreign_keys = ON'];
/**
 * The writer: FULL, so a write that got a 2xx survives a crash of the process or of the
 * machine; no busy timeout, since the group commit waits for another process's write lock
 * itself, without stalling the event loop.
 */
const WRITER = [...COMMON, 'synchronous = FULL', 'busy_timeout = 0'];
/** Readers never write; they wait (rarely, and briefly) only while a crashed writer's WAL is recovered. */
const READER = [...COMMON, 'busy_timeout = 10000', 'query_only = 1'];

/**
 * SQLite through better-sqlite3, the one SQLite driver of the process (two copies of SQLite on
 * one file can corrupt it): knex's `better-sqlite3` client for the reader pool and the writer,
 * and the same driver directly for key reads. One writer connection per process: in-process
 * writes meet in the group commit instead of polling the file lock.
 */
export class SqliteConnections implements Connections {
  constructor(private readonly filename: string) {}

  private config(poolMax: number, pragmas: readonly string[]): Knex.Config {
    return {
      client: 'better-sqlite3',
      connection: { filename: this.filename },
      useNullAsDefault: true,
      acquireConnectionTimeout: 10_000,
      pool: {
        min: 1,
        max: poolMax,
        afterCreate(connection: BetterSqlite3.Database, done: (error: Error | null, connection: BetterSqlite3.Database) => void) {
          try {
            for (const pragma of pragmas) connection.pragma(pragma);
            done(null, connection);
          } catch (error) {
            done(error as Error, connection);
          }
        },
      },
    };
  }

  open({ poolMax, logger }: PoolOptions): Pools {
    const reader = knexFactory({ ...this.config(poolMax, READER), ...knexLog(logger) });
    const writer = knexFactory({ ...this.config(1, WRITER), ...knexLog(logger) });
    const keys = new SqliteKeyReader(this.filename);
    const commits = new GroupCommit(writer);
    return {
      reader,
      writer,
      keys,
      write: (job) => commits.run(job),
      stream: (query) => streamRows(reader, query),
      async close() {
        await commits.idle();
        await keys.close();
        await writer.destroy();
        await reader.destroy();
      },
    };
  }
}
