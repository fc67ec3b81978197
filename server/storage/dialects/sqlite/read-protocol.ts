import type { TextRun } from '../../contract/rows.js';

/** Messages between a reader connection's worker thread (read-worker.ts) and its handle (read-client.ts). */

export type ReadRequest =
  | { readonly id: number; readonly op: 'query'; readonly sql: string; readonly bindings: readonly unknown[] }
  /** Start stepping a statement: the first `batch` rows come back (with `text`, as one run of JSON texts per batch). */
  | { readonly id: number; readonly op: 'iterate'; readonly sql: string; readonly bindings: readonly unknown[]; readonly batch: number; readonly text?: TextRun }
  | { readonly id: number; readonly op: 'next'; readonly batch: number }
  /** Stop stepping early. */
  | { readonly id: number; readonly op: 'end' }
  | { readonly id: number; readonly op: 'close' };

export type ReadReply =
  | { readonly id: number; readonly ready: true }
  | { readonly id: number; readonly text: string; readonly count: number; readonly done: boolean }
  | { readonly id: number; readonly rows: readonly unknown[]; readonly done?: boolean }
  | { readonly id: number; readonly changes: number; readonly lastInsertRowid: number }
  | { readonly id: number; readonly error: { readonly message: string; readonly code?: string; readonly name?: string } };
