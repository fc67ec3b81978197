import type { Uses } from '../contract/database.js';
import type { WriteJob } from '../contract/driver.js';
import type { ChangeAction, VersionRow } from '../contract/events.js';
import { chunks, rowsOf } from '../contract/rows.js';
import { markOutsideWrite } from '../outside-writes.js';
import type { Commits } from './commits.js';
import { idsByKind, readLocked } from './locked-keys.js';
import { CURRENT, HISTORY, jobSql } from './statements.js';
import type { ImportedBatch, ImportedVersion } from './types.js';

/** Ids per lookup statement: well under every dialect's bind-parameter limit. */
const LOOKUP_CHUNK = 500;

/** What imports use of the database. */
export type ImportsDatabase = Uses<'write', { driver: 'statements'; adapter: 'locking'; features: 'history' }>;

/** What is stored of one resource: its versions' ts, and its newest version. */
interface Known {
  readonly versions: Set<number>;
  newest: number;
  live: boolean;
}

/**
 * Versions stored with the `ts` they had elsewhere (`npm run import`: docs/moving-from-unis.md),
 * through the same writer as every write of the store (Commits: its events, its current rows,
 * its announcements) and the same history writer (HistorySql.storeVersions), under the same
 * per-resource locks as an insert (locked-keys.ts).
 */
export class Imports {
  constructor(
    private readonly db: ImportsDatabase,
    private readonly commits: Commits,
  ) {}

  /**
   * Store `batch` in one write job (one transaction). A version whose kind, id and ts are stored
   * already is skipped, so an import can be repeated or resumed. Versions are written in each
   * resource's `ts` order; one older than what the resource has by then joins its history only
   * (VersionRow.past), so the newest version stays the current one whatever order the versions
   * arrive in. The event log hears of the others as a write would have said them: the first
   * version of a resource as its insert, the next as updates, the deletion of a live resource as
   * one. A dry run reads what is stored, under the same locks, and writes nothing.
   */
  async store(batch: readonly ImportedVersion[], options: { readonly dryRun?: boolean } = {}): Promise<ImportedBatch> {
    const byKind = idsByKind(batch);
    const order = batch.map((_, i) => i).sort((a, b) => compare(batch[a]!, batch[b]!));
    const stored = new Array<boolean>(batch.length).fill(false);
    const write = <T>(job: WriteJob<T>): Promise<T> => (options.dryRun ? this.db.write(job) : this.commits.write(job));
    await write(async (trx) => {
      const sql = jobSql(this.db, trx);
      const known = new Map<string, Known>();
      // Each resource's newest version: a live one's is its current row (one key lookup); only
      // the others (new, or deleted) are looked for in the history. A lookup of every id's newest
      // version in the history took 14 ms per 500 ids on PostgreSQL, 28 µs a version imported.
      await readLocked(this.db, trx, byKind, LOOKUP_CHUNK, async (kind, part) => {
        const rows = await sql.rows(`SELECT id, ts FROM ${CURRENT} WHERE kind = ? AND id IN (${rowsOf('?', part.length)})`, [kind, ...part]);
        for (const row of rows) known.set(`${kind}/${String(row.id)}`, { versions: new Set([Number(row.ts)]), newest: Number(row.ts), live: true });
        const others = part.filter((id) => !known.has(`${kind}/${id}`));
        if (others.length === 0) return;
        const gone = await sql.rows(newestSql(others.length), [kind, ...others]);
        for (const row of gone) known.set(`${kind}/${String(row.id)}`, { versions: new Set([Number(row.ts)]), newest: Number(row.ts), live: Number(row.live) === 1 });
      });
      // Versions older than their resource's newest may be stored already: looked up by key.
      const older = batch.filter((v) => {
        const entry = known.get(`${v.kind}/${v.id}`);
        return entry !== undefined && v.ts < entry.newest;
      });
      for (const part of chunks(older, LOOKUP_CHUNK)) {
        const rows = await sql.rows(storedSql(part.length), part.flatMap((v) => [v.kind, v.id, v.ts]));
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
        await this.db.dialect.features.history.storeVersions(trx, rows);
        // A server that keeps what it read in memory (SQLite) learns of it within a second.
        await markOutsideWrite(this.db.dialect.driver.statements, trx);
      }
    });
    return { stored };
  }
}

/**
 * The newest stored version (`id`, `ts`, and whether it is `live`, 1 or 0) of each of `n` ids of
 * one kind that has any; bindings: the kind, then the ids. `live` is a number on every engine
 * (as inserts.ts reads it), where the boolean column itself comes back as 0/1 from SQLite and as
 * true/false from PostgreSQL.
 */
function newestSql(n: number): string {
  return `SELECT h.id, h.ts, CASE WHEN h.deleted THEN 0 ELSE 1 END AS live FROM ${HISTORY} h WHERE h.kind = ? AND h.id IN (${rowsOf('?', n)})
    AND NOT EXISTS (SELECT 1 FROM ${HISTORY} y WHERE y.kind = h.kind AND y.id = h.id AND y.ts > h.ts)`;
}

/** Which of `n` versions (kind, id, ts) are stored; bindings: kind, id and ts of each. */
function storedSql(n: number): string {
  return `WITH v(kind, id, ts) AS (VALUES ${rowsOf('(?, ?, CAST(? AS BIGINT))', n)})
    SELECT v.kind, v.id, v.ts FROM v JOIN ${HISTORY} h ON h.kind = v.kind AND h.id = v.id AND h.ts = v.ts`;
}

function compare(a: ImportedVersion, b: ImportedVersion): number {
  if (a.kind !== b.kind) return a.kind < b.kind ? -1 : 1;
  if (a.id !== b.id) return a.id < b.id ? -1 : 1;
  return a.ts - b.ts;
}
