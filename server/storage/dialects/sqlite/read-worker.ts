/**
 * One reader connection on a worker thread of its own (see read-client.ts): it runs the SQL it is
 * sent and posts the rows back, so long reads (catalog queries, lists) never hold the event loop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import { documentText } from '../../document-text.js';
import type { TextRun } from '../../contract/rows.js';
import { registerFunctions } from './functions.js';
import type { ReadReply, ReadRequest } from './read-protocol.js';
import { Statements } from './statements.js';

const { filename, pragmas } = workerData as { filename: string; pragmas: readonly string[] };

const port = parentPort!;
const reply = (message: ReadReply): void => port.postMessage(message);

let database: BetterSqlite3.Database;
try {
  database = new BetterSqlite3(filename, { fileMustExist: true });
  for (const pragma of pragmas) database.pragma(pragma);
  registerFunctions(database);
  reply({ id: 0, ready: true });
} catch (error) {
  reply({ id: 0, error: describe(error) });
  process.exit(0);
}

const statements = new Statements(database);
let rows: IterableIterator<unknown> | undefined;
/** How the open iteration's rows go back: as objects, or rendered into one text per batch. */
let run: TextRun | undefined;

function describe(error: unknown): { message: string; code?: string; name?: string } {
  const e = error as { message?: unknown; code?: unknown; name?: unknown };
  return { message: String(e?.message ?? error), ...(typeof e?.code === 'string' ? { code: e.code } : {}), ...(typeof e?.name === 'string' ? { name: e.name } : {}) };
}

/** Up to `size` rows of the open iteration (as a text run when asked so), and whether it ended. */
function batch(size: number): { rows: unknown[]; done: boolean } | { text: string; count: number; done: boolean } {
  if (run) return textBatch(size, run.head);
  const out: unknown[] = [];
  while (out.length < size) {
    const next = rows!.next();
    if (next.done) {
      rows = undefined;
      return { rows: out, done: true };
    }
    out.push(next.value);
  }
  return { rows: out, done: false };
}

/** Up to `size` rows of `id` and `doc` as one run of JSON texts (see TextRun). */
function textBatch(size: number, head: string): { text: string; count: number; done: boolean } {
  let text = '';
  let count = 0;
  while (count < size) {
    const next = rows!.next();
    if (next.done) {
      rows = undefined;
      return { text, count, done: true };
    }
    const row = next.value as { id: unknown; doc: unknown };
    text += `${count === 0 ? '' : ','}${documentText(head, String(row.id), String(row.doc))}`;
    count++;
  }
  return { text, count, done: false };
}

port.on('message', (request: ReadRequest) => {
  try {
    switch (request.op) {
      case 'query': {
        const statement = statements.get(request.sql);
        if (statement.reader) reply({ id: request.id, rows: statement.all(request.bindings) });
        else {
          const result = statement.run(request.bindings);
          reply({ id: request.id, changes: result.changes, lastInsertRowid: Number(result.lastInsertRowid) });
        }
        return;
      }
      case 'iterate':
        // Not a cached statement: an iterating statement can run nothing else meanwhile.
        rows = database.prepare(request.sql).iterate(request.bindings) as IterableIterator<unknown>;
        run = request.text;
        reply({ id: request.id, ...batch(request.batch) });
        return;
      case 'next':
        reply({ id: request.id, ...(rows ? batch(request.batch) : { rows: [], done: true }) });
        return;
      case 'end':
        rows?.return?.();
        rows = undefined;
        reply({ id: request.id, rows: [], done: true });
        return;
      case 'close':
        rows?.return?.();
        database.close();
        reply({ id: request.id, rows: [], done: true });
        port.close();
        return;
    }
  } catch (error) {
    reply({ id: request.id, error: describe(error) });
  }
});
