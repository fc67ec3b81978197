import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { nextTs } from './clock.js';
import type { Database } from './database.js';
import type { WriteJob } from './dialect.js';
import { PreconditionFailed, ResourceConflict, ResourceMissing, StorageUnavailable } from './errors.js';
import { Pacer } from './pace.js';
import { QueryCompiler, type FieldTable } from './query-sql.js';
import type { ParsedQuery } from './query-language.js';

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

/** One resource to insert: a client-chosen id (or none), and how to build the stored document. */
export interface NewResource {
  readonly id?: string;
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

/** A read selection: the conditions, order and paging of a parsed query, with the kind's fields. */
export interface Selection {
  readonly query: ParsedQuery;
  readonly fields: FieldTable;
}

interface CurrentRow {
  ts: number | string;
  doc: string;
}

/**
 * Versioned documents (rest-contract §3–5). Every write appends to `resource_history` and
 * replaces the row in `resource_current`, in one transaction, under a per-resource lock that
 * the dialect provides, so `ts` is strictly increasing per resource even across processes.
 * Nothing is ever updated in place in the history.
 */
export class ResourceStore {
  private readonly compiler: QueryCompiler;
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

  /** Insert resources, all or nothing. A live id (or one repeated in the batch) is a conflict. */
  async insert(kind: string, resources: readonly NewResource[]): Promise<Representation[]> {
    const ids = resources.map((r) => r.id ?? randomUUID());
    const firstIndex = new Map<string, number>();
    ids.forEach((id, index) => {
      if (firstIndex.has(id)) throw new ResourceConflict(`id "${id}" appears twice in the batch`, index);
      firstIndex.set(id, index);
    });
    const chosen = resources.flatMap((r, i) => (r.id === undefined ? [] : [ids[i]!]));

    return this.write(async (trx) => {
      await this.db.dialect.locking.lockResources(trx, kind, chosen);
      const previous = new Map<string, number>();
      for (const part of chunks(chosen, INSERT_CHUNK)) {
        const live = await trx(CURRENT).select('id').where('kind', kind).whereIn('id', part);
        if (live.length > 0) {
          const id = String((live[0] as { id: string }).id);
          throw new ResourceConflict(`a ${kind} resource with id "${id}" exists already`, firstIndex.get(id));
        }
        // A deleted resource's id may be reused; its new versions continue after the old ones.
        const rows = await trx(HISTORY).select('id').max({ ts: 'ts' }).where('kind', kind).whereIn('id', part).groupBy('id');
        for (const row of rows as { id: string; ts: number | string }[]) previous.set(row.id, Number(row.ts));
      }
      const stored = ids.map((id, i): Representation => {
        const ts = nextTs(previous.get(id));
        return { id, ts, doc: JSON.stringify(resources[i]!.build(id, ts)) };
      });
      const pacer = new Pacer();
      for (const part of chunks(stored, INSERT_CHUNK)) {
        await trx(HISTORY).insert(part.map((r) => ({ kind, id: r.id, ts: r.ts, doc: this.db.dialect.columns.documentValue(trx, r.doc), deleted: false })));
        await trx(CURRENT).insert(part.map((r) => ({ kind, id: r.id, ts: r.ts, doc: this.db.dialect.columns.documentValue(trx, r.doc) })));
        await pacer.breathe();
      }
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
      return { id, ts, doc };
    });
  }

  /** Delete a resource: a tombstone joins the history, and the resource leaves every list. */
  async remove(kind: string, id: string, options: WriteOptions = {}): Promise<void> {
    await this.write(async (trx) => {
      const current = await this.lockedCurrent(trx, kind, id, options.expect);
      await trx(HISTORY).insert({ kind, id, ts: nextTs(current.ts), doc: null, deleted: true });
      await trx(CURRENT).where({ kind, id }).delete();
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
    const { query, fields } = selection;
    this.compiler.where(builder, query, fields);
    this.compiler.orderBy(builder, query, newestFirst);
    if (query.limit !== undefined) builder.limit(query.limit);
    if (query.skip !== undefined) builder.offset(query.skip);
    const rows = this.db.stream(builder, query.limit);
    const errors = this.db.dialect.errors;
    return {
      async *[Symbol.asyncIterator]() {
        try {
          for await (const row of rows) yield { id: String(row.id), ts: Number(row.ts), doc: String(row.doc) };
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

  /** One write job (SQLite: committed with the jobs that arrive beside it; see Pools.write). */
  private async write<T>(job: WriteJob<T>): Promise<T> {
    try {
      return await this.db.write(job);
    } catch (error) {
      throw this.db.dialect.errors.isUnavailable(error) ? new StorageUnavailable(error) : error;
    }
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
