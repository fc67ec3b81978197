import type { Knex } from 'knex';
import { nextTs } from './clock.js';
import type { Uses } from './contract/database.js';
import type { ReadLease, WriteJob } from './contract/driver.js';
import type { CurrentCache } from './current-cache.js';
import { classified, classify, PreconditionFailed, ResourceConflict, ResourceMissing } from './errors.js';
import { chunks, rowsOf, type Row, type TextRun } from './contract/rows.js';
import type { Representation } from './contract/representation.js';
import type { SortKey } from '../query/syntax.js';
import type { Condition } from '../query/tree.js';
import { QueryCompiler } from './query-sql.js';

/** What the resource store uses of the database. */
export type ResourceStoreDatabase = Uses<'reader' | 'keys' | 'write' | 'append' | 'replaceIf' | 'insertIf' | 'lease' | 'stream' | 'streamTexts', { sql: 'json' | 'columns'; driver: 'errors' | 'statements' | 'limits'; adapter: 'locking' | 'announcements'; features: 'history' | 'time' }>;

const HISTORY = 'resource_history';
const CURRENT = 'resource_current';
/** Rows per INSERT statement in a batch; well under every dialect's bind-parameter limit. */
const INSERT_CHUNK = 200;

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
  /** The instant (µs) whose state is read (docs/time.md); absent: now. */
  readonly at?: number;
}

/** How a resource changed between two instants (docs/time.md). */
export type ChangeKind = 'created' | 'updated' | 'deleted';

/** One resource that changed between two instants: its representation at each (none where it had none). */
export interface ChangeEntry {
  readonly id: string;
  readonly change: ChangeKind;
  readonly before?: Representation;
  readonly after?: Representation;
}

/** The statements of a write job, with `?` placeholders (see WriteStatements). */
interface JobSql {
  rows(sql: string, bindings: readonly unknown[]): Promise<readonly Row[]>;
  run(sql: string, bindings: readonly unknown[]): Promise<void>;
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
  private readonly commitListeners: (() => void)[] = [];
  /** The listeners will be told on the next turn (see write). */
  private telling = false;
  /** The key reads every GET makes, as SQL for the key reader. */
  private readonly sql: {
    readonly current: string;
    readonly version: string;
    readonly known: string;
    readonly liveVersion: string;
    readonly anyVersion: string;
    readonly at: string;
    readonly knownAt: string;
  };

  /**
   * @param cache the newest representations in memory; only for a process that is its
   *   database's only writer (see CurrentCache).
   */
  constructor(
    private readonly db: ResourceStoreDatabase,
    private readonly cache?: CurrentCache,
  ) {
    this.compiler = new QueryCompiler(db.dialect);
    const doc = this.docColumn(db.reader).toString();
    this.sql = {
      current: `SELECT ts, ${doc} FROM ${CURRENT} WHERE kind = ? AND id = ?`,
      version: `SELECT ts, ${doc} FROM ${HISTORY} WHERE kind = ? AND id = ? AND ts = ? AND NOT deleted`,
      known: `SELECT 1 FROM ${HISTORY} WHERE kind = ? AND id = ? LIMIT 1`,
      liveVersion: `SELECT ts FROM ${HISTORY} WHERE kind = ? AND id = ? AND ts = ? AND NOT deleted LIMIT 1`,
      anyVersion: `SELECT ts FROM ${HISTORY} WHERE kind = ? AND id = ? AND ts = ? LIMIT 1`,
      // One lookup in the primary key (kind, id, ts): the newest version up to the instant.
      at: `SELECT ts, ${doc} FROM (SELECT ts, doc, deleted FROM ${HISTORY} WHERE kind = ? AND id = ? AND ts <= ? ORDER BY ts DESC LIMIT 1) n WHERE NOT deleted`,
      knownAt: `SELECT 1 FROM ${HISTORY} WHERE kind = ? AND id = ? AND ts <= ? LIMIT 1`,
    };
  }

  /**
   * Insert resources of any kinds, all or nothing, in one transaction. An id that is live (or
   * that an earlier item of the same call inserts) gets a new version; a deleted resource's id
   * continues after its old versions. Resources whose ids were all made for them need no lock
   * and no read: they are appended (Pools.append), together with the appends that arrive beside.
   */
  async insert(resources: readonly NewResource[]): Promise<Inserted[]> {
    /** Client-chosen ids per kind: only those can already exist. */
    const chosen = new Map<string, Set<string>>();
    for (const r of resources) if (r.clientId) (chosen.get(r.kind) ?? chosen.set(r.kind, new Set()).get(r.kind)!).add(r.id);

    const inserted = await this.cached(resources, async () => {
      if (chosen.size === 0) {
        const stored = resources.map((r): Inserted => {
          const ts = nextTs(undefined);
          return { kind: r.kind, id: r.id, ts, doc: JSON.stringify(r.build(r.id, ts)), replaced: false };
        });
        await this.committed(() => this.db.append(stored.map((r) => ({ kind: r.kind, id: r.id, ts: r.ts, doc: r.doc, action: 'POST' as const, fresh: true }))));
        return stored;
      }
      const unlocked = await this.insertIf(resources);
      if (unlocked) return unlocked;
      return this.write(async (trx) => {
        const sql = this.statements(trx);
        /** The newest stored ts per `kind/id`, and whether that resource is live now. */
        const newest = new Map<string, { ts: number; live: boolean }>();
        for (const [kind, set] of chosen) {
          const keys = [...set];
          await this.db.dialect.adapter.locking.lockResources(trx, kind, keys);
          for (const part of chunks(keys, INSERT_CHUNK)) {
            const rows = await sql.rows(
              `SELECT h.id, MAX(h.ts) AS ts, MAX(CASE WHEN c.id IS NULL THEN 0 ELSE 1 END) AS live FROM ${HISTORY} h LEFT JOIN ${CURRENT} c ON c.kind = h.kind AND c.id = h.id WHERE h.kind = ? AND h.id IN (${rowsOf('?', part.length)}) GROUP BY h.id`,
              [kind, ...part],
            );
            for (const row of rows) newest.set(`${kind}/${String(row.id)}`, { ts: Number(row.ts), live: Number(row.live) === 1 });
          }
        }
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
    for (const r of inserted) this.stored(r.kind, { id: r.id, ts: r.ts, doc: r.doc });
    return inserted;
  }

  /**
   * Store a new version built from the newest one. `change` runs inside the transaction, while
   * the resource is locked, so concurrent changes each apply to the version before them and
   * none is lost; if it throws, nothing is stored.
   */
  async update(kind: string, id: string, change: (current: unknown, ts: number) => object, options: ReplaceOptions = {}): Promise<Representation> {
    const replaced = options.replayedTs === undefined ? await this.replaceIf(kind, id, options.expect, (current, ts) => JSON.stringify(change(JSON.parse(current.doc), ts))) : undefined;
    if (replaced) return replaced;
    const updated = await this.cached([{ kind, id }], () => this.write(async (trx) => {
      const sql = this.statements(trx);
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
    this.stored(kind, updated);
    return updated;
  }

  /** Delete a resource: a tombstone joins the history, and the resource leaves every list. */
  async remove(kind: string, id: string, options: WriteOptions = {}): Promise<void> {
    if (await this.replaceIf(kind, id, options.expect, () => null)) return;
    await this.cached([{ kind, id }], () => this.write(async (trx) => {
      const sql = this.statements(trx);
      const current = await this.lockedCurrent(trx, sql, kind, id, options.expect);
      await this.db.dialect.features.history.storeVersions(trx, [{ kind, id, ts: nextTs(current.ts), doc: null, action: 'DELETE' }]);
    }));
    this.cache?.forget(kind, id);
  }

  /**
   * Where the engine has it (Pools.insertIf), an insert without a transaction: every version
   * built with a new `ts` and stored in one round trip if each is newer than what its resource
   * has. Undefined when nothing was stored, or where the engine or the insert cannot (a replayed
   * `ts` to look up, an id twice in one call): the caller then inserts the locked way, which
   * builds again and finds out why. Mixed writes on PostgreSQL, 300 writes/s: a POST with the
   * client's id cost 3.70 ms of CPU (topocat + PostgreSQL) the locked way, against 2.21 ms for
   * one whose id the server made (scratch, 2026-11-28).
   */
  private async insertIf(resources: readonly NewResource[]): Promise<Inserted[] | undefined> {
    if (!this.db.insertIf || resources.some((r) => r.replayedTs !== undefined)) return undefined;
    if (new Set(resources.map((r) => `${r.kind}/${r.id}`)).size !== resources.length) return undefined;
    const versions = resources.map((r) => {
      const ts = nextTs(undefined);
      return { kind: r.kind, id: r.id, ts, doc: JSON.stringify(r.build(r.id, ts)), createOnly: r.createOnly === true };
    });
    const events = await this.committed(() => this.db.insertIf!(versions));
    return events && versions.map((v, i): Inserted => ({ kind: v.kind, id: v.id, ts: v.ts, doc: v.doc, replaced: events[i]!.replaced }));
  }

  /**
   * Where the engine has it (Pools.replaceIf), a write of a live resource without a transaction:
   * read the newest version, build the next one (`next`: its JSON text, null for a deletion), and
   * store it if the newest is still that one. Undefined when it was not stored, or where the
   * engine has no such write: the caller then writes the locked way, which reads again, so
   * `next` may run twice. A missing resource or an unmet expectation fails as the locked way would.
   */
  private async replaceIf(kind: string, id: string, expect: Expectation | undefined, next: (current: Representation, ts: number) => string | null): Promise<Representation | undefined> {
    if (!this.db.replaceIf) return undefined;
    const current = await this.current(kind, id);
    if (!current) throw new ResourceMissing();
    if (expect !== undefined && expect !== 'any' && !expect.includes(current.ts)) throw new PreconditionFailed();
    const ts = nextTs(current.ts);
    const doc = next(current, ts);
    const event = await this.cached([{ kind, id }], () => this.committed(() => this.db.replaceIf!({ kind, id, ts, doc, action: doc === null ? 'DELETE' : 'PUT' }, current.ts)));
    if (event === undefined) return undefined;
    const stored = { id, ts, doc: doc ?? '' };
    if (doc === null) this.cache?.forget(kind, id);
    else this.stored(kind, stored);
    return stored;
  }

  /** The newest live representation. */
  async current(kind: string, id: string): Promise<Representation | undefined> {
    return this.cache?.get(kind, id) ?? this.lookup(kind, id);
  }

  /** The newest live representation as the database has it, kept in memory where there is a cache. */
  private async lookup(kind: string, id: string): Promise<Representation | undefined> {
    const writes = this.cache?.writes;
    const row = (await this.read(() => this.db.keys.one(this.sql.current, [kind, id]))) as CurrentRow | undefined;
    return this.kept(kind, id, row, writes);
  }

  /**
   * What a write stored, for the cache: kept in place of what it held where the database answers
   * the text as written (ColumnSql.keepsText); elsewhere (PostgreSQL's jsonb) forgotten, so that
   * the next read keeps the database's own text and every answer of a version is the same bytes.
   */
  private stored(kind: string, representation: Representation): void {
    if (!this.cache) return;
    if (this.db.dialect.sql.columns.keepsText) this.cache.put(kind, representation);
    else this.cache.forget(kind, representation.id);
  }

  /** The representation a current row holds, kept in memory unless a write was done since `writes` (it may have committed after the lookup). */
  private kept(kind: string, id: string, row: CurrentRow | undefined, writes: number | undefined): Representation | undefined {
    if (!row) return undefined;
    const representation = { id, ts: Number(row.ts), doc: row.doc };
    if (writes !== undefined) this.cache?.remember(kind, representation, writes);
    return representation;
  }

  /**
   * A write of the resources `keys`: when it fails they leave the cache, since a write whose
   * flush failed after its commit may have changed them.
   */
  private async cached<T>(keys: readonly { readonly kind: string; readonly id: string }[], write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (this.cache) for (const { kind, id } of keys) this.cache.forget(kind, id);
      throw error;
    }
  }

  /**
   * The newest live representation if it can be had without waiting (for the hot read): from
   * memory (see CurrentCache), else, where there is a cache and the key reader answers on the
   * calling thread (SQLite), read at once and kept. Undefined otherwise: another engine, no such
   * resource, or a failed read, which the full path then meets and reports.
   */
  currentNow(kind: string, id: string): Representation | undefined {
    const cached = this.cache?.get(kind, id);
    if (cached || !this.cache || !this.db.keys.oneNow) return cached;
    const writes = this.cache.writes;
    let row: CurrentRow | undefined;
    try {
      row = this.db.keys.oneNow(this.sql.current, [kind, id]) as CurrentRow | undefined;
    } catch {
      return undefined;
    }
    return this.kept(kind, id, row, writes);
  }

  /**
   * What the hot read asks (rest/operations/hot-read.ts): the newest live representation at once where it can
   * be had without waiting (currentNow, SQLite), else, where key reads need a round trip
   * (PostgreSQL), from memory when kept (while this process holds the read lease: ReadLease) or
   * the read itself, which rejects as current() does. Undefined: no such resource, or none to be
   * had without the full path (which then reads and reports).
   */
  currentSoon(kind: string, id: string): Representation | undefined | Promise<Representation | undefined> {
    if (this.db.keys.oneNow) return this.currentNow(kind, id);
    return this.cache?.get(kind, id) ?? this.lookup(kind, id);
  }

  /** The representation with timestamp `ts`, even if the resource was deleted since. */
  async version(kind: string, id: string, ts: number): Promise<Representation | undefined> {
    const row = (await this.read(() => this.db.keys.one(this.sql.version, [kind, id, ts]))) as CurrentRow | undefined;
    return row ? { id, ts: Number(row.ts), doc: row.doc } : undefined;
  }

  /** The representation the resource had at instant `at` (µs): none before it existed, or once it was deleted at or before `at`. */
  async at(kind: string, id: string, at: number): Promise<Representation | undefined> {
    const row = (await this.read(() => this.db.keys.one(this.sql.at, [kind, id, at]))) as CurrentRow | undefined;
    return row ? { id, ts: Number(row.ts), doc: row.doc } : undefined;
  }

  /** True when the resource has ever been stored (up to instant `at`, when given). */
  async known(kind: string, id: string, at?: number): Promise<boolean> {
    return (await this.read(() => this.db.keys.one(at === undefined ? this.sql.known : this.sql.knownAt, at === undefined ? [kind, id] : [kind, id, at]))) !== undefined;
  }

  /** Versions of one resource that match (up to `selection.at`), newest first. */
  versions(kind: string, id: string, selection: Selection): AsyncIterable<Representation> {
    const builder = this.db.reader(HISTORY).select('id', 'ts', this.docColumn(this.db.reader)).where({ kind, id, deleted: false });
    if (selection.at !== undefined) builder.where('ts', '<=', selection.at);
    return this.select(builder, selection, true);
  }

  /** The newest representation of every live resource of a kind that matches (as of `selection.at`), streamed. */
  list(kind: string, selection: Selection): AsyncIterable<Representation> {
    return this.select(this.resources(kind, selection.at).select('id', 'ts', this.docColumn(this.db.reader)), selection, false);
  }

  /**
   * The same list as runs of JSON texts (see TextRun): what a plain list answers, with no
   * object per resource on the event loop.
   */
  listTexts(kind: string, selection: Selection, run: TextRun): AsyncIterable<string> {
    const builder = this.resources(kind, selection.at).select('id', this.docColumn(this.db.reader));
    this.order(builder, selection, false);
    return this.unavailableAs(this.db.streamTexts(builder, run));
  }

  /**
   * The resources of a kind that changed in `(since, until]` and match `selection` (its
   * conditions hold for the representation at `until`, or at `since` for a deletion), streamed,
   * in the order of their last change in the interval unless sorted otherwise. One that was
   * created and deleted within the interval is not among them.
   */
  changes(kind: string, since: number, until: number, selection: Selection): AsyncIterable<ChangeEntry> {
    const knex = this.db.reader;
    const columns = this.db.dialect.sql.columns;
    const { sql, bindings } = this.db.dialect.features.time.changes(kind, since, until);
    const builder = knex.from(knex.raw(`(${sql}) AS s`, bindings as Knex.RawBinding[])).select('id', 'ts', 'bts', columns.documentText(knex, 'bdoc'), columns.documentText(knex, 'adoc'));
    this.order(builder, selection, false);
    const rows = this.db.stream(builder, selection.limit);
    return this.unavailableAs({
      async *[Symbol.asyncIterator]() {
        for await (const row of rows) {
          const id = String(row.id);
          const before = row.bdoc === null || row.bdoc === undefined ? undefined : { id, ts: Number(row.bts), doc: String(row.bdoc) };
          const after = row.adoc === null || row.adoc === undefined ? undefined : { id, ts: Number(row.ts), doc: String(row.adoc) };
          const change: ChangeKind = before === undefined ? 'created' : after === undefined ? 'deleted' : 'updated';
          yield { id, change, ...(before ? { before } : {}), ...(after ? { after } : {}) };
        }
      },
    });
  }

  /** Rows (`id`, `ts`, `doc`) of the kind's live resources: now (the current rows), or at instant `at`, from the history. */
  private resources(kind: string, at: number | undefined): Knex.QueryBuilder {
    const knex = this.db.reader;
    if (at === undefined) return knex(CURRENT).where({ kind });
    const { sql, bindings } = this.db.dialect.features.time.stateAt(kind, at);
    return knex.from(knex.raw(`(${sql}) AS s`, bindings as Knex.RawBinding[]));
  }

  /** Answers when the database answers. */
  async ping(): Promise<void> {
    await this.read(() => this.db.keys.one('SELECT 1', []));
  }

  private select(builder: Knex.QueryBuilder, selection: Selection, newestFirst: boolean): AsyncIterable<Representation> {
    this.order(builder, selection, newestFirst);
    const rows = this.db.stream(builder, selection.limit);
    // `unique`: one entry per id, the first in the answer's order (lists hold one per id anyway).
    const seen = selection.unique && newestFirst ? new Set<string>() : undefined;
    return this.unavailableAs({
      async *[Symbol.asyncIterator]() {
        for await (const row of rows) {
          const id = String(row.id);
          if (seen?.has(id)) continue;
          seen?.add(id);
          yield { id, ts: Number(row.ts), doc: String(row.doc) };
        }
      },
    });
  }

  /** The selection's conditions, order and paging on `builder`. */
  private order(builder: Knex.QueryBuilder, selection: Selection, newestFirst: boolean): void {
    this.compiler.where(builder, selection.conditions);
    this.compiler.orderBy(builder, selection.sort, newestFirst);
    if (selection.limit !== undefined) builder.limit(selection.limit);
    if (selection.skip !== undefined) builder.offset(selection.skip);
  }

  /** `items`, with the database's outages as StorageUnavailable, a refused size as QueryTooLarge. */
  private unavailableAs<T>(items: AsyncIterable<T>): AsyncIterable<T> {
    const errors = this.db.dialect.driver.errors;
    return {
      async *[Symbol.asyncIterator]() {
        try {
          yield* items;
        } catch (error) {
          throw classify(errors, error);
        }
      },
    };
  }

  private docColumn(knex: Knex): Knex.Raw | string {
    return this.db.dialect.sql.columns.documentText(knex, 'doc');
  }

  private async lockedCurrent(trx: Knex.Transaction, sql: JobSql, kind: string, id: string, expect: Expectation | undefined): Promise<{ ts: number; doc: string }> {
    await this.db.dialect.adapter.locking.lockResources(trx, kind, [id]);
    const [row] = (await sql.rows(this.sql.current, [kind, id])) as unknown as CurrentRow[];
    if (!row) throw new ResourceMissing();
    const ts = Number(row.ts);
    if (expect !== undefined && expect !== 'any' && !expect.includes(ts)) throw new PreconditionFailed();
    return { ts, doc: row.doc };
  }

  /** A job's plain SQL: the dialect's prepared write statements (SQLite: no query builder). */
  private statements(trx: Knex.Transaction): JobSql {
    const statements = this.db.dialect.driver.statements;
    return {
      rows: async (sql, bindings) => (await statements.run(trx, sql, bindings)).rows,
      run: async (sql, bindings) => {
        await statements.run(trx, sql, bindings);
      },
    };
  }

  /** Call `listener` after each committed write (the change feed reads the event log then). */
  onCommitted(listener: () => void): void {
    this.commitListeners.push(listener);
  }

  /**
   * One write job (SQLite: committed with the jobs that arrive beside it; see Pools.write), and
   * the listeners of onCommitted told once it has committed. The measurement store writes
   * through it too, so the change feed hears of its appends.
   */
  write<T>(job: WriteJob<T>): Promise<T> {
    return this.committed(() => this.db.write(job));
  }

  /**
   * `work`, a write, with the database's errors classified, and once it has committed: the
   * listeners of onCommitted, and the other processes on the same database (an announcement),
   * told on the next turn of the event loop, after the writer's answer is on its way. The
   * change feed reads the new events at once (a prepared statement on SQLite) and sends every
   * subscriber its frame: told in the same turn, it did so before the write's 2xx was written
   * (1,000 subscribers: all 200,000 frames of the bench's latency row arrived before their
   * writes' answers). The writes of one turn share one read, and one announcement.
   */
  private async committed<T>(work: () => Promise<T>): Promise<T> {
    const result = await classified(this.db.dialect.driver.errors, this.db.lease ? () => this.leased(this.db.lease!, work) : work);
    if (!this.telling) {
      this.telling = true;
      setImmediate(() => {
        this.telling = false;
        for (const listener of this.commitListeners) listener();
        this.db.dialect.adapter.announcements.announce();
      });
    }
    return result;
  }

  /** `work` once this process may write (ReadLease.writing), the lease told when it is over. */
  private async leased<T>(lease: ReadLease, work: () => Promise<T>): Promise<T> {
    const asked = lease.writing();
    const done = asked instanceof Promise ? await asked : asked;
    try {
      return await work();
    } finally {
      await done();
    }
  }

  private read<T>(work: () => Promise<T> | Knex.QueryBuilder): Promise<T> {
    return classified(this.db.dialect.driver.errors, work) as Promise<T>;
  }
}
