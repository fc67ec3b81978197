import type { Knex } from 'knex';
import { nextTs } from './clock.js';
import type { Database } from './database.js';
import type { WriteJob } from './dialect.js';
import { PreconditionFailed, ResourceConflict, ResourceMissing, StorageUnavailable } from './errors.js';
import { recordChanges, type Change } from './events.js';
import { Pacer } from './pace.js';
import type { SortKey } from '../query/syntax.js';
import type { Condition } from '../query/tree.js';
import { QueryCompiler } from './query-sql.js';

const HISTORY = 'resource_history';
const CURRENT = 'resource_current';
/** Rows per INSERT statement in a batch; well under every dialect's bind-parameter limit. */
const INSERT_CHUNK = 200;

/** A stored representation: its `doc` is the JSON text exactly as stored. */
export interface Representation {
  readonly id: string;
  readonly ts: number;
  readonly doc: string;
}

/** What an insert stored: a new resource, or a new version of a live one (a re-POST). */
export interface Inserted extends Representation {
  readonly kind: string;
  readonly replaced: boolean;
}

/**
 * One resource to insert: its kind, its id, and how to build the stored document. An id the
 * client chose may exist already: if a live resource has it, a new version of that resource is
 * stored, unless `createOnly`; a `replayedTs` that a stored version of it has is a conflict (a
 * replayed insert). An id the server made (`clientId` false) is new by construction.
 */
export interface NewResource {
  readonly kind: string;
  readonly id: string;
  readonly clientId: boolean;
  readonly replayedTs?: number;
  readonly createOnly?: boolean;
  build(id: string, ts: number): object;
}

/** What a conditional write expects of the newest version: any (`*`) or one of these `ts`. */
export type Expectation = 'any' | readonly number[];

export interface WriteOptions {
  /** Fail with PreconditionFailed unless the newest version meets this (If-Match). */
  readonly expect?: Expectation;
}

export interface ReplaceOptions extends WriteOptions {
  /** A `ts` the client sent; a version with that `ts` already stored is a conflict (a replayed PUT). */
  readonly replayedTs?: number;
}

/** A read selection: typed conditions, order, paging, and one entry per id (`unique`). */
export interface Selection {
  readonly conditions: readonly Condition[];
  readonly sort: readonly SortKey[];
  readonly limit?: number;
  readonly skip?: number;
  readonly unique?: boolean;
}

interface CurrentRow {
  ts: number | string;
  doc: string;
}

/**
 * Versioned documents (docs/rest-interface.md). Every write appends to `resource_history` and
 * replaces the row in `resource_current`, in one transaction, under a per-resource lock that
 * the dialect provides, so `ts` is strictly increasing per resource even across processes, and
 * numbers its changes in the event log (events.ts). Nothing is ever updated in place in the
 * history.
 */
export class ResourceStore {
  private readonly compiler: QueryCompiler;
  private readonly committed: (() => void)[] = [];
  /** The key reads every GET makes, as SQL for the key reader. */
  private readonly sql: { readonly current: string; readonly version: string; readonly known: string };

  constructor(private readonly db: Database) {
    this.compiler = new QueryCompiler(db.dialect);
    const doc = this.docColumn(db.reader).toString();
    this.sql = {
      current: `SELECT ts, ${doc} FROM ${CURRENT} WHERE kind = ? AND id = ?`,
      version: `SELECT ts, ${doc} FROM ${HISTORY} WHERE kind = ? AND id = ? AND ts = ? AND NOT deleted`,
      known: `SELECT 1 FROM ${HISTORY} WHERE kind = ? AND id = ? LIMIT 1`,
    };
  }

  /**
   * Insert resources of any kinds, all or nothing, in one transaction. An id that is live (or
   * that an earlier item of the same call inserts) gets a new version; a deleted resource's id
   * continues after its old versions.
   */
  async insert(resources: readonly NewResource[]): Promise<Inserted[]> {
    /** Client-chosen ids per kind: only those can already exist. */
    const chosen = new Map<string, Set<string>>();
    for (const r of resources) if (r.clientId) (chosen.get(r.kind) ?? chosen.set(r.kind, new Set()).get(r.kind)!).add(r.id);

    return this.write(async (trx) => {
      /** The newest stored ts per `kind/id`, and whether that resource is live now. */
      const newest = new Map<string, { ts: number; live: boolean }>();
      for (const [kind, set] of chosen) {
        const keys = [...set];
        await this.db.dialect.locking.lockResources(trx, kind, keys);
        for (const part of chunks(keys, INSERT_CHUNK)) {
          const live = new Set((await trx(CURRENT).select('id').where('kind', kind).whereIn('id', part)).map((row: { id: unknown }) => String(row.id)));
          const rows = (await trx(HISTORY).select('id').max({ ts: 'ts' }).where('kind', kind).whereIn('id', part).groupBy('id')) as { id: unknown; ts: number | string }[];
          for (const row of rows) newest.set(`${kind}/${String(row.id)}`, { ts: Number(row.ts), live: live.has(String(row.id)) });
        }
      }
      /** Current rows to replace: resources live before this insert. */
      const replacedRows = new Map<string, string[]>();
      for (const [key, { live }] of newest) {
        if (!live) continue;
        const kind = key.slice(0, key.indexOf('/'));
        (replacedRows.get(kind) ?? replacedRows.set(kind, []).get(kind)!).push(key.slice(kind.length + 1));
      }
      const stored: Inserted[] = [];
      for (let i = 0; i < resources.length; i++) {
        const resource = resources[i]!;
        const id = resource.id;
        const key = `${resource.kind}/${id}`;
        const before = newest.get(key);
        if (before?.live && resource.createOnly) throw new PreconditionFailed(`a ${resource.kind} resource with id "${id}" exists already`, i);
        // A replay is of a live resource's version; an id whose resource was deleted starts anew
        // (BLiPP re-registers a deleted measurement by posting the representation it kept).
        if (resource.replayedTs !== undefined && before?.live) {
          const replay = await trx(HISTORY).first('ts').where({ kind: resource.kind, id, ts: resource.replayedTs, deleted: false });
          if (replay) throw new ResourceConflict(`a representation of "${id}" with ts ${resource.replayedTs} exists already`, i);
        }
        const ts = nextTs(before?.ts);
        newest.set(key, { ts, live: true });
        stored.push({ kind: resource.kind, id, ts, doc: JSON.stringify(resource.build(id, ts)), replaced: before?.live === true });
      }
      const byKind = new Map<string, Inserted[]>();
      for (const r of stored) (byKind.get(r.kind) ?? byKind.set(r.kind, []).get(r.kind)!).push(r);
      const pacer = new Pacer();
      for (const [kind, list] of byKind) {
        for (const part of chunks(list, INSERT_CHUNK)) {
          await trx(HISTORY).insert(part.map((r) => ({ kind, id: r.id, ts: r.ts, doc: this.db.dialect.columns.documentValue(trx, r.doc), deleted: false })));
          await pacer.breathe();
        }
        for (const part of chunks(replacedRows.get(kind) ?? [], INSERT_CHUNK)) await trx(CURRENT).where('kind', kind).whereIn('id', part).delete();
        // An id inserted twice in one call: its last version is the current one.
        const last = [...new Map(list.map((r) => [r.id, r])).values()];
        for (const part of chunks(last, INSERT_CHUNK)) {
          await trx(CURRENT).insert(part.map((r) => ({ kind, id: r.id, ts: r.ts, doc: this.db.dialect.columns.documentValue(trx, r.doc) })));
          await pacer.breathe();
        }
      }
      await recordChanges(trx, this.db.dialect, stored.map((r): Change => ({ kind: r.kind, id: r.id, ts: r.ts, action: r.replaced ? 'PUT' : 'POST' })));
      return stored;
    });
  }

  /**
   * Store a new version built from the newest one. `change` runs inside the transaction, while
   * the resource is locked, so concurrent changes each apply to the version before them and
   * none is lost; if it throws, nothing is stored.
   */
  async update(kind: string, id: string, change: (current: unknown, ts: number) => object, options: ReplaceOptions = {}): Promise<Representation> {
    return this.write(async (trx) => {
      const current = await this.lockedCurrent(trx, kind, id, options.expect);
      if (options.replayedTs !== undefined) {
        const replay = await trx(HISTORY).first('ts').where({ kind, id, ts: options.replayedTs });
        if (replay) throw new ResourceConflict(`a representation with ts ${options.replayedTs} exists already`);
      }
      const ts = nextTs(current.ts);
      const doc = JSON.stringify(change(JSON.parse(current.doc), ts));
      await trx(HISTORY).insert({ kind, id, ts, doc: this.db.dialect.columns.documentValue(trx, doc), deleted: false });
      await trx(CURRENT).where({ kind, id }).update({ ts, doc: this.db.dialect.columns.documentValue(trx, doc) });
      await recordChanges(trx, this.db.dialect, [{ kind, id, ts, action: 'PUT' }]);
      return { id, ts, doc };
    });
  }

  /** Delete a resource: a tombstone joins the history, and the resource leaves every list. */
  async remove(kind: string, id: string, options: WriteOptions = {}): Promise<void> {
    await this.write(async (trx) => {
      const current = await this.lockedCurrent(trx, kind, id, options.expect);
      const ts = nextTs(current.ts);
      await trx(HISTORY).insert({ kind, id, ts, doc: null, deleted: true });
      await trx(CURRENT).where({ kind, id }).delete();
      await recordChanges(trx, this.db.dialect, [{ kind, id, ts, action: 'DELETE' }]);
    });
  }

  /** The newest live representation. */
  async current(kind: string, id: string): Promise<Representation | undefined> {
    const row = (await this.read(() => this.db.keys.one(this.sql.current, [kind, id]))) as CurrentRow | undefined;
    return row ? { id, ts: Number(row.ts), doc: row.doc } : undefined;
  }

  /** The representation with timestamp `ts`, even if the resource was deleted since. */
  async version(kind: string, id: string, ts: number): Promise<Representation | undefined> {
    const row = (await this.read(() => this.db.keys.one(this.sql.version, [kind, id, ts]))) as CurrentRow | undefined;
    return row ? { id, ts: Number(row.ts), doc: row.doc } : undefined;
  }

  /** True when the resource has ever been stored. */
  async known(kind: string, id: string): Promise<boolean> {
    return (await this.read(() => this.db.keys.one(this.sql.known, [kind, id]))) !== undefined;
  }

  /** Versions of one resource that match, newest first. */
  versions(kind: string, id: string, selection: Selection): AsyncIterable<Representation> {
    const builder = this.db.reader(HISTORY).select('id', 'ts', this.docColumn(this.db.reader)).where({ kind, id, deleted: false });
    return this.select(builder, selection, true);
  }

  /** The newest representation of every live resource of a kind that matches, streamed. */
  list(kind: string, selection: Selection): AsyncIterable<Representation> {
    const builder = this.db.reader(CURRENT).select('id', 'ts', this.docColumn(this.db.reader)).where({ kind });
    return this.select(builder, selection, false);
  }

  /** Answers when the database answers. */
  async ping(): Promise<void> {
    await this.read(() => this.db.keys.one('SELECT 1', []));
  }

  private select(builder: Knex.QueryBuilder, selection: Selection, newestFirst: boolean): AsyncIterable<Representation> {
    this.compiler.where(builder, selection.conditions);
    this.compiler.orderBy(builder, selection.sort, newestFirst);
    if (selection.limit !== undefined) builder.limit(selection.limit);
    if (selection.skip !== undefined) builder.offset(selection.skip);
    const rows = this.db.stream(builder, selection.limit);
    const errors = this.db.dialect.errors;
    // `unique`: one entry per id, the first in the answer's order (lists hold one per id anyway).
    const seen = selection.unique && newestFirst ? new Set<string>() : undefined;
    return {
      async *[Symbol.asyncIterator]() {
        try {
          for await (const row of rows) {
            const id = String(row.id);
            if (seen?.has(id)) continue;
            seen?.add(id);
            yield { id, ts: Number(row.ts), doc: String(row.doc) };
          }
        } catch (error) {
          throw errors.isUnavailable(error) ? new StorageUnavailable(error) : error;
        }
      },
    };
  }

  private docColumn(knex: Knex): Knex.Raw | string {
    return this.db.dialect.columns.documentText(knex, 'doc');
  }

  private async lockedCurrent(trx: Knex.Transaction, kind: string, id: string, expect: Expectation | undefined): Promise<{ ts: number; doc: string }> {
    await this.db.dialect.locking.lockResources(trx, kind, [id]);
    const row = (await trx(CURRENT).first('ts', this.docColumn(trx)).where({ kind, id })) as CurrentRow | undefined;
    if (!row) throw new ResourceMissing();
    const ts = Number(row.ts);
    if (expect !== undefined && expect !== 'any' && !expect.includes(ts)) throw new PreconditionFailed();
    return { ts, doc: row.doc };
  }

  /** Call `listener` after each committed write (the change feed reads the event log then). */
  onCommitted(listener: () => void): void {
    this.committed.push(listener);
  }

  /** Tell the listeners of onCommitted that a write of this process committed (also the measurement store's). */
  announceCommitted(): void {
    for (const listener of this.committed) listener();
  }

  /** One write job (SQLite: committed with the jobs that arrive beside it; see Pools.write). */
  private async write<T>(job: WriteJob<T>): Promise<T> {
    let result: T;
    try {
      result = await this.db.write(job);
    } catch (error) {
      throw this.db.dialect.errors.isUnavailable(error) ? new StorageUnavailable(error) : error;
    }
    this.announceCommitted();
    return result;
  }

  private async read<T>(work: () => Promise<T> | Knex.QueryBuilder): Promise<T> {
    try {
      return (await work()) as T;
    } catch (error) {
      throw this.db.dialect.errors.isUnavailable(error) ? new StorageUnavailable(error) : error;
    }
  }
}

function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}
