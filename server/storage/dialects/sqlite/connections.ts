import { statSync } from 'node:fs';
import type BetterSqlite3 from 'better-sqlite3';
import { registerFunctions } from './functions.js';
import knexFactory, { type Knex } from 'knex';
import type { Connections, PoolOptions, Pools } from '../../contract/driver.js';
import { knexLog } from '../../knex-log.js';
import { Checkpoints } from './checkpoints.js';
import { GroupCommit } from './group-commit.js';
import { sqliteHistory } from './history.js';
import { preparedOnceClient } from './knex-client.js';
import { workerReadClient } from './read-client.js';
import { SqliteKeyReader } from './key-reader.js';
import { streamRows, streamTexts } from './stream.js';
import { WalSync } from './wal-sync.js';

/** Settings of every connection: WAL, so readers never wait for the writer, and foreign keys. */
const COMMON = ['journal_mode = WAL', 'foreign_keys = ON'];
/**
 * The writer: NORMAL, so a COMMIT does not wait for the disk on the event loop; the group
 * commit flushes the WAL on the thread pool before it acknowledges anything (see WalSync), so a
 * write that got a 2xx survives a crash of the process or of the machine. No busy timeout: the
 * group commit waits for another process's write lock itself, without stalling the event loop.
 * No checkpoints in its commits (see Checkpoints). Temporary storage in memory: each job of a
 * group runs in a savepoint, whose journal (the pages it changes, as they were) SQLite otherwise
 * writes to a temporary file; with it in memory the statements of a POST's job took 95 µs
 * instead of 200 µs (a scratch loop of groups of 8 jobs on the bench's file).
 */
const WRITER = [...COMMON, 'synchronous = NORMAL', 'busy_timeout = 0', 'wal_autocheckpoint = 0', 'temp_store = MEMORY'];
/** Readers never write; they wait (rarely, and briefly) only while a crashed writer's WAL is recovered. */
const READER = [...COMMON, 'busy_timeout = 10000', 'query_only = 1'];

/**
 * SQLite through better-sqlite3, the one SQLite driver of the process (two copies of SQLite on
 * one file can corrupt it): knex's `better-sqlite3` client (statements prepared once, see
 * knex-client.ts) for the reader pool and the writer,
 * and the same driver directly for key reads. One writer connection per process: in-process
 * writes meet in the group commit instead of polling the file lock.
 */
export class SqliteConnections implements Connections {
  /** A file belongs to one server process, or to one cluster whose workers say when they commit. */
  readonly aloneMeansSoleWriter = true;

  constructor(private readonly filename: string) {}

  /** `onThread`: the connections live on worker threads, which set themselves up (read-worker.ts). */
  private config(client: typeof Knex.Client, poolMax: number, pragmas: readonly string[], onThread = false): Knex.Config {
    return {
      client,
      connection: { filename: this.filename },
      useNullAsDefault: true,
      acquireConnectionTimeout: 10_000,
      pool: {
        min: 1,
        max: poolMax,
        afterCreate(connection: BetterSqlite3.Database, done: (error: Error | null, connection: BetterSqlite3.Database) => void) {
          try {
            for (const pragma of pragmas) connection.pragma(pragma);
            if (!onThread) registerFunctions(connection);
            done(null, connection);
          } catch (error) {
            done(error as Error, connection);
          }
        },
      },
    };
  }

  open({ poolMax, logger }: PoolOptions): Pools {
    // The readers' connections live on worker threads and apply their settings there.
    const reader = knexFactory({ ...this.config(workerReadClient(READER), poolMax, [], true), ...knexLog(logger) });
    const writer = knexFactory({ ...this.config(preparedOnceClient, 1, WRITER), ...knexLog(logger) });
    const keys = new SqliteKeyReader(this.filename);
    const wal = new WalSync(this.filename);
    const commits = new GroupCommit(writer, wal);
    const checkpoints = new Checkpoints(this.filename);
    return {
      reader,
      writer,
      keys,
      write: (job) => commits.run(job),
      append: (versions) => commits.run((trx) => sqliteHistory.storeVersions(trx, versions)),
      stream: (query) => streamRows(reader, query),
      streamTexts: (query, run) => streamTexts(reader, query, run),
      gauges: () => ({
        writesWaiting: commits.waiting,
        groupsCommitted: commits.groups,
        jobsCommitted: commits.jobs,
        walBytes: statSync(`${this.filename}-wal`, { throwIfNoEntry: false })?.size ?? 0,
      }),
      async close() {
        await commits.idle();
        await wal.close();
        await checkpoints.stop();
        await keys.close();
        await writer.destroy();
        await reader.destroy();
      },
    };
  }
}
