import type { Knex } from 'knex';
import type { Uses } from '../contract/database.js';
import { chunks } from '../contract/rows.js';

/** The ids of `items`, each once, by kind, kinds in the order met. */
export function idsByKind(items: readonly { readonly kind: string; readonly id: string }[]): Map<string, Set<string>> {
  const byKind = new Map<string, Set<string>>();
  for (const item of items) (byKind.get(item.kind) ?? byKind.set(item.kind, new Set()).get(item.kind)!).add(item.id);
  return byKind;
}

/**
 * Lock the resources `byKind` names, kind by kind (the dialect's per-resource lock: SQLite's one
 * writer, PostgreSQL's advisory locks), and after each kind's lock call `read` for its ids in
 * parts of at most `size`: what a write that may meet stored resources does first, in `trx`,
 * before it decides their `ts` (inserts.ts, imports.ts).
 */
export async function readLocked(
  db: Uses<never, { adapter: 'locking' }>,
  trx: Knex.Transaction,
  byKind: ReadonlyMap<string, ReadonlySet<string>>,
  size: number,
  read: (kind: string, ids: readonly string[]) => Promise<void>,
): Promise<void> {
  for (const [kind, set] of byKind) {
    const keys = [...set];
    await db.dialect.adapter.locking.lockResources(trx, kind, keys);
    for (const part of chunks(keys, size)) await read(kind, part);
  }
}
