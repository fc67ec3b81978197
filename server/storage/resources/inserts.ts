import { nextTs } from '../clock.js';
import type { Uses } from '../contract/database.js';
import { PreconditionFailed, ResourceConflict } from '../errors.js';
import { rowsOf } from '../contract/rows.js';
import type { CacheUpkeep } from './cache-upkeep.js';
import type { Commits } from './commits.js';
import { idsByKind, readLocked } from './locked-keys.js';
import { CURRENT, HISTORY, jobSql, type KeySql } from './statements.js';
import type { Inserted, NewResource } from './types.js';

/** Rows per INSERT statement in a batch; well under every dialect's bind-parameter limit. */
const INSERT_CHUNK = 200;

/** What the inserts use of the database. */
export type InsertsDatabase = Uses<'append' | 'compareAndSet', { driver: 'statements'; adapter: 'locking'; features: 'history' }>;

/**
 * Inserts of resources of any kinds, all or nothing: appended where the server made every id, in
 * one statement where the engine can check and store at once (CompareAndSetWrites.insertIf), else
 * in one transaction under the resources' locks.
 */
export class Inserts {
  constructor(
    private readonly db: InsertsDatabase,
    private readonly sql: KeySql,
    private readonly commits: Commits,
    private readonly upkeep: CacheUpkeep,
  ) {}

  /**
   * Insert resources of any kinds, all or nothing, in one transaction. An id that is live (or
   * that an earlier item of the same call inserts) gets a new version; a deleted resource's id
   * continues after its old versions. Resources whose ids were all made for them need no lock
   * and no read: they are appended (Pools.append), together with the appends that arrive beside.
   */
  async insert(resources: readonly NewResource[]): Promise<Inserted[]> {
    /** Client-chosen ids per kind: only those can already exist. */
    const chosen = idsByKind(resources.filter((r) => r.clientId));

    const inserted = await this.upkeep.cached(resources, async () => {
      if (chosen.size === 0) {
        const stored = resources.map((r): Inserted => {
          const ts = nextTs(undefined);
          return { kind: r.kind, id: r.id, ts, doc: JSON.stringify(r.build(r.id, ts)), replaced: false };
        });
        await this.commits.committed(() => this.db.append(stored.map((r) => ({ kind: r.kind, id: r.id, ts: r.ts, doc: r.doc, action: 'POST' as const, fresh: true }))));
        return stored;
      }
      const unlocked = await this.insertIf(resources);
      if (unlocked) return unlocked;
      return this.commits.write(async (trx) => {
        const sql = jobSql(this.db, trx);
        /** The newest stored ts per `kind/id`, and whether that resource is live now. */
        const newest = new Map<string, { ts: number; live: boolean }>();
        await readLocked(this.db, trx, chosen, INSERT_CHUNK, async (kind, part) => {
          const rows = await sql.rows(
            `SELECT h.id, MAX(h.ts) AS ts, MAX(CASE WHEN c.id IS NULL THEN 0 ELSE 1 END) AS live FROM ${HISTORY} h LEFT JOIN ${CURRENT} c ON c.kind = h.kind AND c.id = h.id WHERE h.kind = ? AND h.id IN (${rowsOf('?', part.length)}) GROUP BY h.id`,
            [kind, ...part],
          );
          for (const row of rows) newest.set(`${kind}/${String(row.id)}`, { ts: Number(row.ts), live: Number(row.live) === 1 });
        });
        const stored: Inserted[] = [];
        /** Versions of ids nothing stored has: no earlier event to order after. */
        const fresh = new Set<Inserted>();
        for (let i = 0; i < resources.length; i++) {
          const resource = resources[i]!;
          const id = resource.id;
          const key = `${resource.kind}/${id}`;
          const before = newest.get(key);
          if (before?.live && resource.createOnly) throw new PreconditionFailed(`a ${resource.kind} resource with id "${id}" exists already`, i);
          // A replay is of a live resource's version; an id whose resource was deleted starts anew
          // (BLiPP re-registers a deleted measurement by posting the representation it kept).
          if (resource.replayedTs !== undefined && before?.live) {
            const replay = await sql.rows(this.sql.liveVersion, [resource.kind, id, resource.replayedTs]);
            if (replay.length > 0) throw new ResourceConflict(`a representation of "${id}" with ts ${resource.replayedTs} exists already`, i);
          }
          const ts = nextTs(before?.ts);
          newest.set(key, { ts, live: true });
          const version: Inserted = { kind: resource.kind, id, ts, doc: JSON.stringify(resource.build(id, ts)), replaced: before?.live === true };
          stored.push(version);
          if (before === undefined) fresh.add(version);
        }
        await this.db.dialect.features.history.storeVersions(
          trx,
          // A new version of a live resource; a POST made it, which UNIS's WebSocket says (events.ts).
          stored.map((r) => ({ kind: r.kind, id: r.id, ts: r.ts, doc: r.doc, action: r.replaced ? 'REPOST' : 'POST', fresh: fresh.has(r) })),
        );
        return stored;
      });
    });
    // In order: an id inserted twice in one call ends with its last version.
    for (const r of inserted) this.upkeep.stored(r.kind, { id: r.id, ts: r.ts, doc: r.doc });
    return inserted;
  }

  /**
   * Where the engine has it (CompareAndSetWrites.insertIf), an insert without a transaction: every
   * version built with a new `ts` and stored in one round trip if each is newer than what its
   * resource has. Undefined when nothing was stored, or where the engine or the insert cannot (a
   * replayed `ts` to look up, an id twice in one call): the caller then inserts the locked way,
   * which builds again and finds out why. Mixed writes on PostgreSQL, 300 writes/s: a POST with the
   * client's id cost 3.70 ms of CPU (topocat + PostgreSQL) the locked way, against 2.21 ms for one
   * whose id the server made (scratch, 2026-11-28).
   */
  private async insertIf(resources: readonly NewResource[]): Promise<Inserted[] | undefined> {
    const compareAndSet = this.db.compareAndSet;
    if (!compareAndSet || resources.some((r) => r.replayedTs !== undefined)) return undefined;
    if (new Set(resources.map((r) => `${r.kind}/${r.id}`)).size !== resources.length) return undefined;
    const versions = resources.map((r) => {
      const ts = nextTs(undefined);
      return { kind: r.kind, id: r.id, ts, doc: JSON.stringify(r.build(r.id, ts)), createOnly: r.createOnly === true };
    });
    const events = await this.commits.committed(() => compareAndSet.insertIf(versions));
    return events && versions.map((v, i): Inserted => ({ kind: v.kind, id: v.id, ts: v.ts, doc: v.doc, replaced: events[i]!.replaced }));
  }
}
