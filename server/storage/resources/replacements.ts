import type { Knex } from 'knex';
import { nextTs } from '../clock.js';
import type { Uses } from '../contract/database.js';
import { PreconditionFailed, ResourceConflict, ResourceMissing } from '../errors.js';
import type { Representation } from '../contract/representation.js';
import type { CacheUpkeep } from './cache-upkeep.js';
import type { Commits } from './commits.js';
import type { KeyReads } from './key-reads.js';
import { type CurrentRow, type JobSql, jobSql, type KeySql } from './statements.js';
import type { Expectation, ReplaceOptions, WriteOptions } from './types.js';

/** What the writes of one live resource use of the database. */
export type ReplacementsDatabase = Uses<'compareAndSet', { driver: 'statements'; adapter: 'locking'; features: 'history' }>;

/**
 * Writes of one live resource: a new version built from the newest one, or its deletion. Where the
 * engine has it (CompareAndSetWrites.replaceIf) a compare-and-set on its current row first, else
 * one transaction under the resource's lock.
 */
export class Replacements {
  constructor(
    private readonly db: ReplacementsDatabase,
    private readonly sql: KeySql,
    private readonly commits: Commits,
    private readonly upkeep: CacheUpkeep,
    private readonly reads: KeyReads,
  ) {}

  /**
   * Store a new version built from the newest one. `change` runs inside the transaction, while
   * the resource is locked, so concurrent changes each apply to the version before them and
   * none is lost; if it throws, nothing is stored.
   */
  async update(kind: string, id: string, change: (current: unknown, ts: number) => object, options: ReplaceOptions = {}): Promise<Representation> {
    const replaced = options.replayedTs === undefined ? await this.replaceIf(kind, id, options.expect, (current, ts) => JSON.stringify(change(JSON.parse(current.doc), ts))) : undefined;
    if (replaced) return replaced;
    const updated = await this.upkeep.cached([{ kind, id }], () => this.commits.write(async (trx) => {
      const sql = jobSql(this.db, trx);
      const current = await this.lockedCurrent(trx, sql, kind, id, options.expect);
      if (options.replayedTs !== undefined) {
        const replay = await sql.rows(this.sql.anyVersion, [kind, id, options.replayedTs]);
        if (replay.length > 0) throw new ResourceConflict(`a representation with ts ${options.replayedTs} exists already`);
      }
      const ts = nextTs(current.ts);
      const doc = JSON.stringify(change(JSON.parse(current.doc), ts));
      await this.db.dialect.features.history.storeVersions(trx, [{ kind, id, ts, doc, action: 'PUT' }]);
      return { id, ts, doc };
    }));
    this.upkeep.stored(kind, updated);
    return updated;
  }

  /** Delete a resource: a tombstone joins the history, and the resource leaves every list. */
  async remove(kind: string, id: string, options: WriteOptions = {}): Promise<void> {
    if (await this.replaceIf(kind, id, options.expect, () => null)) return;
    await this.upkeep.cached([{ kind, id }], () => this.commits.write(async (trx) => {
      const sql = jobSql(this.db, trx);
      const current = await this.lockedCurrent(trx, sql, kind, id, options.expect);
      await this.db.dialect.features.history.storeVersions(trx, [{ kind, id, ts: nextTs(current.ts), doc: null, action: 'DELETE' }]);
    }));
    this.upkeep.forget(kind, id);
  }

  /**
   * Where the engine has it (CompareAndSetWrites.replaceIf), a write of a live resource without a
   * transaction: read the newest version, build the next one (`next`: its JSON text, null for a
   * deletion), and store it if the newest is still that one. Undefined when it was not stored, or
   * where the engine has no such write: the caller then writes the locked way, which reads again,
   * so `next` may run twice. A missing resource or an unmet expectation fails as the locked way
   * would.
   */
  private async replaceIf(kind: string, id: string, expect: Expectation | undefined, next: (current: Representation, ts: number) => string | null): Promise<Representation | undefined> {
    const compareAndSet = this.db.compareAndSet;
    if (!compareAndSet) return undefined;
    const current = await this.reads.current(kind, id);
    if (!current) throw new ResourceMissing();
    if (expect !== undefined && expect !== 'any' && !expect.includes(current.ts)) throw new PreconditionFailed();
    const ts = nextTs(current.ts);
    const doc = next(current, ts);
    const event = await this.upkeep.cached([{ kind, id }], () => this.commits.committed(() => compareAndSet.replaceIf({ kind, id, ts, doc, action: doc === null ? 'DELETE' : 'PUT' }, current.ts)));
    if (event === undefined) return undefined;
    const stored = { id, ts, doc: doc ?? '' };
    if (doc === null) this.upkeep.forget(kind, id);
    else this.upkeep.stored(kind, stored);
    return stored;
  }

  /** The newest live version, once the resource is locked; ResourceMissing or PreconditionFailed as `expect` says. */
  private async lockedCurrent(trx: Knex.Transaction, sql: JobSql, kind: string, id: string, expect: Expectation | undefined): Promise<{ ts: number; doc: string }> {
    await this.db.dialect.adapter.locking.lockResources(trx, kind, [id]);
    const [row] = (await sql.rows(this.sql.current, [kind, id])) as unknown as CurrentRow[];
    if (!row) throw new ResourceMissing();
    const ts = Number(row.ts);
    if (expect !== undefined && expect !== 'any' && !expect.includes(ts)) throw new PreconditionFailed();
    return { ts, doc: row.doc };
  }
}
