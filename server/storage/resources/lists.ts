import type { Knex } from 'knex';
import type { Uses } from '../contract/database.js';
import type { TextRun } from '../contract/rows.js';
import { classifiedItems } from '../errors.js';
import { QueryCompiler, type DefaultOrder } from '../query-sql.js';
import type { Representation } from '../contract/representation.js';
import { CURRENT, docColumn, HISTORY } from './statements.js';
import type { ChangeEntry, ChangeKind, Selection } from './types.js';

/** What the lists use of the database. */
export type ListsDatabase = Uses<'reader' | 'stream' | 'streamTexts', { sql: 'json' | 'columns'; driver: 'errors' | 'limits'; features: 'time' }>;

/**
 * Reads of many resources: a kind's list (now or at an instant), one resource's versions, the
 * changes between two instants. They go through knex and the query compiler, streamed from the
 * reader pool (SQLite: worker threads), with the database's outages as StorageUnavailable and a
 * refused size as QueryTooLarge.
 */
export class Lists {
  private readonly compiler: QueryCompiler;

  constructor(private readonly db: ListsDatabase) {
    this.compiler = new QueryCompiler(db.dialect);
  }

  /** Versions of one resource that match (up to `selection.at`), newest first. */
  versions(kind: string, id: string, selection: Selection): AsyncIterable<Representation> {
    const builder = this.db.reader(HISTORY).select('id', 'ts', docColumn(this.db, this.db.reader)).where({ kind, id, deleted: false });
    if (selection.at !== undefined) builder.where('ts', '<=', selection.at);
    return this.select(builder, selection, true);
  }

  /**
   * The newest representation of every live resource of a kind that matches (as of
   * `selection.at`), streamed; newest first unless sorted (rest-contract §5, revised 2026-11-29).
   */
  list(kind: string, selection: Selection): AsyncIterable<Representation> {
    return this.select(this.resources(kind, selection.at).select('id', 'ts', docColumn(this.db, this.db.reader)), selection, false);
  }

  /**
   * The same list as runs of JSON texts (see TextRun): what a plain list answers, with no
   * object per resource on the event loop.
   */
  listTexts(kind: string, selection: Selection, run: TextRun): AsyncIterable<string> {
    const builder = this.resources(kind, selection.at).select('id', docColumn(this.db, this.db.reader));
    this.order(builder, selection, 'newest first');
    return classifiedItems(this.db.dialect.driver.errors, this.db.streamTexts(builder, run));
  }

  /**
   * The resources of a kind that changed in `(since, until]` and match `selection` (its
   * conditions hold for the representation at `until`, or at `since` for a deletion), streamed,
   * in the order of their last change in the interval, oldest first (a record of what happened,
   * read as it happened; §12 gives the changes no order of its own, and §5's newest first is
   * UNIS's order of resources), unless sorted otherwise. One that was created and deleted within
   * the interval is not among them.
   */
  changes(kind: string, since: number, until: number, selection: Selection): AsyncIterable<ChangeEntry> {
    const knex = this.db.reader;
    const columns = this.db.dialect.sql.columns;
    const { sql, bindings } = this.db.dialect.features.time.changes(kind, since, until);
    const builder = knex.from(knex.raw(`(${sql}) AS s`, bindings as Knex.RawBinding[])).select('id', 'ts', 'bts', columns.documentText(knex, 'bdoc'), columns.documentText(knex, 'adoc'));
    this.order(builder, selection, 'oldest first');
    const rows = this.db.stream(builder, selection.limit);
    return classifiedItems(this.db.dialect.driver.errors, {
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

  /** Rows of `builder`, newest first unless sorted; `versions`: of one resource, where `unique` has work. */
  private select(builder: Knex.QueryBuilder, selection: Selection, versions: boolean): AsyncIterable<Representation> {
    this.order(builder, selection, 'newest first');
    const rows = this.db.stream(builder, selection.limit);
    // `unique`: one entry per id, the first in the answer's order (lists hold one per id anyway).
    const seen = selection.unique && versions ? new Set<string>() : undefined;
    return classifiedItems(this.db.dialect.driver.errors, {
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

  /** The selection's conditions, order (`sort`, then `order` as the tie-breaker) and paging on `builder`. */
  private order(builder: Knex.QueryBuilder, selection: Selection, order: DefaultOrder): void {
    this.compiler.where(builder, selection.conditions);
    this.compiler.orderBy(builder, selection.sort, order);
    if (selection.limit !== undefined) builder.limit(selection.limit);
    if (selection.skip !== undefined) builder.offset(selection.skip);
  }
}
