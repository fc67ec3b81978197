import { Worker } from 'node:worker_threads';
import type { Knex } from 'knex';
import type { Row } from '../../contract/rows.js';
import { BetterSqlite3Client, type KnexQuery } from './knex-base.js';
import type { TextRun } from '../../contract/rows.js';
import type { ReadReply, ReadRequest } from './read-protocol.js';

/** Rows per message of a streamed result: about 100–200 KB of documents. */
const STREAM_BATCH = 256;

/** The reply to `iterate` and `next`: rows, or a run of texts. */
type BatchReply = Extract<ReadReply, { done?: boolean }>;

/** Everything a request carries but its id. */
type Request = ReadRequest extends infer R ? (R extends ReadRequest ? Omit<R, 'id'> : never) : never;

/** A driver error as the worker saw it, with its SQLite code, so the stores classify it alike. */
function driverError(error: { message: string; code?: string; name?: string }): Error {
  return Object.assign(new Error(error.message), { ...(error.code !== undefined ? { code: error.code } : {}), name: error.name ?? 'SqliteError' });
}

/**
 * One reader connection, living on a worker thread (read-worker.ts): statements are sent to it
 * and rows come back, so a long read costs the event loop only the hand-over of its rows.
 */
export class WorkerConnection {
  private readonly pending = new Map<number, { resolve(reply: ReadReply): void; reject(error: Error): void }>();
  private nextId = 1;
  alive = true;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: ReadReply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if (!waiting) return;
      if ('error' in reply) waiting.reject(driverError(reply.error));
      else waiting.resolve(reply);
    });
    const gone = (error: Error): void => {
      this.alive = false;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on('error', (error) => gone(Object.assign(error, { code: 'SQLITE_CANTOPEN' })));
    worker.on('exit', () => gone(Object.assign(new Error('the reader connection closed'), { code: 'SQLITE_CANTOPEN' })));
  }

  static open(filename: string, pragmas: readonly string[]): Promise<WorkerConnection> {
    const worker = new Worker(new URL('./read-worker.js', import.meta.url), { workerData: { filename, pragmas } });
    const connection = new WorkerConnection(worker);
    // Referenced while an answer is awaited, so the process waits for it; an idle reader must
    // not keep the process alive.
    return new Promise((resolve, reject) => {
      connection.pending.set(0, { resolve: () => resolve(connection), reject });
    });
  }

  request(request: Request): Promise<ReadReply> {
    if (!this.alive) return Promise.reject(Object.assign(new Error('the reader connection closed'), { code: 'SQLITE_CANTOPEN' }));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...request, id });
    });
  }

  /** The rows of `sql`, stepped on the worker in batches, each asked for when the last is used up. */
  async *iterate(sql: string, bindings: readonly unknown[]): AsyncIterable<Row> {
    for await (const reply of this.batches(sql, bindings)) if ('rows' in reply) yield* reply.rows as readonly Row[];
  }

  /** The rows (`id`, `doc`) of `sql` as runs of JSON texts, rendered on the worker (see TextRun). */
  async *iterateText(sql: string, bindings: readonly unknown[], run: TextRun): AsyncIterable<string> {
    for await (const reply of this.batches(sql, bindings, run)) if ('text' in reply && reply.count > 0) yield reply.text;
  }

  /**
   * The batches of `sql`. The next batch is asked for as soon as one arrives, so the thread steps
   * it while this one is used: a list of 100,000 nodes took 0.87 s with the two taking turns,
   * each busy about 0.37 s. At most one batch waits beyond the one in use.
   */
  private async *batches(sql: string, bindings: readonly unknown[], text?: TextRun): AsyncIterable<BatchReply> {
    let reply = (await this.request({ op: 'iterate', sql, bindings, batch: STREAM_BATCH, ...(text ? { text } : {}) })) as BatchReply;
    let ahead: Promise<ReadReply> | undefined;
    try {
      for (;;) {
        if (reply.done) {
          yield reply;
          return;
        }
        ahead = this.request({ op: 'next', batch: STREAM_BATCH });
        // Handled where it is awaited; until then a failure must not count as unhandled.
        ahead.catch(() => undefined);
        yield reply;
        reply = (await ahead) as BatchReply;
        ahead = undefined;
      }
    } finally {
      if (ahead) reply = (await ahead.catch(() => ({ done: true }))) as BatchReply;
      if (!reply.done && this.alive) await this.request({ op: 'end' });
    }
  }

  async close(): Promise<void> {
    if (this.alive) await this.request({ op: 'close' }).catch(() => undefined);
    await this.worker.terminate();
  }
}

/**
 * knex's `better-sqlite3` client with its connections on worker threads, each set up with
 * `pragmas`: knex builds the SQL and runs transactions as ever, and each statement runs on the
 * connection's own thread.
 */
export function workerReadClient(pragmas: readonly string[]): typeof Knex.Client {
  class WorkerReadClient extends BetterSqlite3Client {
    async acquireRawConnection(): Promise<WorkerConnection> {
      return WorkerConnection.open(this.connectionSettings.filename, pragmas);
    }

    async destroyRawConnection(connection: WorkerConnection): Promise<void> {
      await connection.close();
    }

    validateConnection(connection: WorkerConnection): boolean {
      return connection.alive;
    }

    async _query(connection: WorkerConnection, query: KnexQuery): Promise<KnexQuery> {
      if (!query.sql) throw new Error('The query is empty');
      const reply = await connection.request({ op: 'query', sql: query.sql, bindings: this._formatBindings(query.bindings) });
      if ('rows' in reply) query.response = reply.rows;
      else if ('changes' in reply) {
        query.response = reply;
        query.context = { lastID: reply.lastInsertRowid, changes: reply.changes };
      }
      return query;
    }
  }
  return WorkerReadClient as unknown as typeof Knex.Client;
}
