import type { Uses } from './contract/database.js';
import type { VersionRow } from './contract/events.js';
import { rowsOf } from './contract/rows.js';
import type { ResourceStore } from './resource-store.js';
import type { ChangeAction } from './contract/events.js';
import { markOutsideWrite } from './outside-writes.js';

/** What an import uses of the database. */
export type ImportDatabase = Uses<'write', { driver: 'statements'; adapter: 'locking'; features: 'history' }>;

/** Ids per lookup statement: well under every dialect's bind-parameter limit. */
const LOOKUP_CHUNK = 500;

/** A version that another service stored (a UNIS registry), with the `ts` it had there. */
export interface ImportedVersion {
  /** The collection (`nodes`), as storage names kinds. */
  readonly kind: string;
  readonly id: string;
  /** Microseconds, as stored where it comes from. */
  readonly ts: number;
  /** The document as JSON text; null for a deletion at `ts`. */
  readonly doc: string | null;
}

/** What one batch did: for each version, in the order given, whether it was stored (false: a version with that kind, id and ts is stored already). */
export interface ImportedBatch {
  readonly stored: readonly boolean[];
}

/** What is stored of one resource: its versions' ts, and its newest version. */
interface Known {
  readonly versions: Set<number>;
  newest: number;
  live: boolean;
}

/**
 * Store versions with the `ts` they had elsewhere, in one write job (one transaction), through
 * the same history writer as every write (its events, its current rows, its announcements):
 * docs/moving-from-unis.md. A version whose kind, id and ts are stored already is skipped, so an
 * import can be repeated or resumed. Versions are written in each resource's `ts` order; one older
 * than what the resource has by then joins its history only (VersionRow.past), so the newest
 * version stays the current one whatever order the versions arrive in. The event log hears of the
 * others as a write would have said them: the first version of a resource as its insert, the
 * next as updates, the deletion of a live resource as one.
 */
export async function importVersions(db: ImportDatabase, resources: ResourceStore, batch: readonly ImportedVersion[], options: { readonly dryRun?: boolean } = {}): Promise<ImportedBatch> {
  const byKind = new Map<string, Set<string>>();
  for (const v of batch) (byKind.get(v.kind) ?? byKind.set(v.kind, new Set()).get(v.kind)!).add(v.id);
  const order = batch.map((_, i) => i).sort((a, b) => compare(batch[a]!, batch[b]!));
  const stored = new Array<boolean>(batch.length).fill(false);
  // A dry run reads what is stored, under the same locks, and writes nothing.
  await (options.dryRun ? db.write.bind(db) : resources.write.bind(resources))(async (trx) => {
    const statements = db.dialect.driver.statements;
    const known = new Map<string, Known>();
    for (const [kind, ids] of byKind) {
      const keys = [...ids];
      await db.dialect.adapter.locking.lockResources(trx, kind, keys);
      // Each resource's newest version: a live one's is its current row (one key lookup); only
      // the others (new, or deleted) are looked for in the history. A lookup of every id's newest
      // version in the history took 14 ms per 500 ids on PostgreSQL, 28 µs a version imported.
      for (let i = 0; i < keys.length; i += LOOKUP_CHUNK) {
        const part = keys.slice(i, i + LOOKUP_CHUNK);
        const { rows } = await statements.run(trx, `SELECT id, ts FROM resource_current WHERE kind = ? AND id IN (${rowsOf('?', part.length)})`, [kind, ...part]);
        for (const row of rows) known.set(`${kind}/${String(row.id)}`, { versions: new Set([Number(row.ts)]), newest: Number(row.ts), live: true });
        const others = part.filter((id) => !known.has(`${kind}/${id}`));
        if (others.length === 0) continue;
        const { rows: gone } = await statements.run(trx, newestSql(others.length), [kind, ...others]);
        for (const row of gone) known.set(`${kind}/${String(row.id)}`, { versions: new Set([Number(row.ts)]), newest: Number(row.ts), live: !isTrue(row.deleted) });
      }
    }
    // Versions older than their resource's newest may be stored already: looked up by key.
    const older = batch.filter((v) => {
      const entry = known.get(`${v.kind}/${v.id}`);
      return entry !== undefined && v.ts < entry.newest;
    });
    for (let i = 0; i < older.length; i += LOOKUP_CHUNK) {
      const part = older.slice(i, i + LOOKUP_CHUNK);
      const { rows } = await statements.run(trx, storedSql(part.length), part.flatMap((v) => [v.kind, v.id, v.ts]));
      for (const row of rows) known.get(`${String(row.kind)}/${String(row.id)}`)!.versions.add(Number(row.ts));
    }
    const rows: VersionRow[] = [];
    let previous: ImportedVersion | undefined;
    for (const i of order) {
      const v = batch[i]!;
      // The same version twice in one batch is stored once.
      if (previous && compare(previous, v) === 0) continue;
      previous = v;
      const key = `${v.kind}/${v.id}`;
      const entry = known.get(key);
      if (entry?.versions.has(v.ts)) continue;
      stored[i] = true;
      if (entry && v.ts < entry.newest) {
        entry.versions.add(v.ts);
        rows.push({ kind: v.kind, id: v.id, ts: v.ts, doc: v.doc, action: 'PUT', past: true });
        continue;
      }
      // A deletion of a resource that is not live (UNIS marks every version of a deleted
      // resource deleted) changes no current row and tells nobody anything: history only.
      const silent = v.doc === null && !entry?.live;
      const action: ChangeAction = v.doc === null ? 'DELETE' : entry?.live ? 'PUT' : 'POST';
      rows.push({ kind: v.kind, id: v.id, ts: v.ts, doc: v.doc, action, ...(silent ? { past: true } : { fresh: entry === undefined }) });
      known.set(key, { versions: entry?.versions.add(v.ts) ?? new Set([v.ts]), newest: v.ts, live: v.doc !== null });
    }
    if (rows.length > 0 && !options.dryRun) {
      await db.dialect.features.history.storeVersions(trx, rows);
      // A server that keeps what it read in memory (SQLite) learns of it within a second.
      await markOutsideWrite(statements, trx);
    }
  });
  return { stored };
}

/** The newest stored version (`id`, `ts`, `deleted`) of each of `n` ids of one kind that has any; bindings: the kind, then the ids. */
function newestSql(n: number): string {
  return `SELECT h.id, h.ts, h.deleted FROM resource_history h WHERE h.kind = ? AND h.id IN (${rowsOf('?', n)})
    AND NOT EXISTS (SELECT 1 FROM resource_history y WHERE y.kind = h.kind AND y.id = h.id AND y.ts > h.ts)`;
}

/** Which of `n` versions (kind, id, ts) are stored; bindings: kind, id and ts of each. */
function storedSql(n: number): string {
  return `WITH v(kind, id, ts) AS (VALUES ${rowsOf('(?, ?, CAST(? AS BIGINT))', n)})
    SELECT v.kind, v.id, v.ts FROM v JOIN resource_history h ON h.kind = v.kind AND h.id = v.id AND h.ts = v.ts`;
}

function compare(a: ImportedVersion, b: ImportedVersion): number {
  if (a.kind !== b.kind) return a.kind < b.kind ? -1 : 1;
  if (a.id !== b.id) return a.id < b.id ? -1 : 1;
  return a.ts - b.ts;
}

/** A boolean column as each engine returns it (SQLite: 0/1). */
function isTrue(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 't';
}
