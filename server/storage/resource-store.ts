import type { Uses } from './contract/database.js';
import type { WriteJob } from './contract/driver.js';
import type { Representation } from './contract/representation.js';
import type { TextRun } from './contract/rows.js';
import type { CurrentCache } from './current-cache.js';
import { CacheUpkeep } from './resources/cache-upkeep.js';
import { Commits } from './resources/commits.js';
import { Imports } from './resources/imports.js';
import { Inserts } from './resources/inserts.js';
import { KeyReads } from './resources/key-reads.js';
import { Lists } from './resources/lists.js';
import { ListPositions } from './list-positions.js';
import { Replacements } from './resources/replacements.js';
import { keySql } from './resources/statements.js';
import type { ChangeEntry, ImportedBatch, ImportedVersion, Inserted, NewResource, ReplaceOptions, Selection, WriteOptions } from './resources/types.js';

export type { ChangeEntry, ChangeKind, Expectation, ImportedBatch, ImportedVersion, Inserted, NewResource, ReplaceOptions, Selection, WriteOptions } from './resources/types.js';

/** What the resource store uses of the database. */
export type ResourceStoreDatabase = Uses<'reader' | 'keys' | 'write' | 'append' | 'compareAndSet' | 'lease' | 'stream' | 'streamTexts' | 'standbys', { sql: 'json' | 'columns'; driver: 'errors' | 'statements' | 'limits'; adapter: 'locking' | 'announcements'; features: 'history' | 'time' }>;

/**
 * Versioned documents (docs/rest-interface.md). Every write appends to `resource_history` and
 * replaces the row in `resource_current`, in one transaction, under a per-resource lock that
 * the dialect provides, so `ts` is strictly increasing per resource even across processes, and
 * numbers its changes in the event log (events.ts). Nothing is ever updated in place in the
 * history.
 *
 * One façade over the parts in `storage/resources/`: the writer (commits.ts), inserts
 * (inserts.ts), writes of one live resource (replacements.ts), versions imported with their own
 * `ts` (imports.ts), the locks and lookups a write takes first (locked-keys.ts), reads by key
 * (key-reads.ts), lists and changes (lists.ts), what the writes tell the read cache
 * (cache-upkeep.ts), and the SQL they share (statements.ts).
 */
export class ResourceStore {
  private readonly commits: Commits;
  private readonly inserts: Inserts;
  private readonly imports: Imports;
  private readonly replacements: Replacements;
  private readonly reads: KeyReads;
  private readonly lists: Lists;
  /** See ListPositions: where a list stands, for its ETag. */
  readonly positions: ListPositions;

  /**
   * @param cache the newest representations in memory; only for a process that is its
   *   database's only writer (see CurrentCache).
   */
  constructor(db: ResourceStoreDatabase, cache?: CurrentCache) {
    const sql = keySql(db);
    const upkeep = new CacheUpkeep(db, cache);
    this.commits = new Commits(db, cache);
    this.reads = new KeyReads(db, sql, cache);
    this.lists = new Lists(db);
    this.positions = new ListPositions(db, cache);
    this.inserts = new Inserts(db, sql, this.commits, upkeep);
    this.imports = new Imports(db, this.commits);
    this.replacements = new Replacements(db, sql, this.commits, upkeep, this.reads);
  }

  /** See Inserts.insert: resources of any kinds, all or nothing. */
  insert(resources: readonly NewResource[]): Promise<Inserted[]> {
    return this.inserts.insert(resources);
  }

  /** See Imports.store: versions another service stored, with their own `ts` (`npm run import`). */
  importVersions(batch: readonly ImportedVersion[], options: { readonly dryRun?: boolean } = {}): Promise<ImportedBatch> {
    return this.imports.store(batch, options);
  }

  /** See Replacements.update: a new version built from the newest one, under the resource's lock. */
  update(kind: string, id: string, change: (current: unknown, ts: number) => object, options: ReplaceOptions = {}): Promise<Representation> {
    return this.replacements.update(kind, id, change, options);
  }

  /** Delete a resource: a tombstone joins the history, and the resource leaves every list. */
  remove(kind: string, id: string, options: WriteOptions = {}): Promise<void> {
    return this.replacements.remove(kind, id, options);
  }

  /** The newest live representation. */
  current(kind: string, id: string): Promise<Representation | undefined> {
    return this.reads.current(kind, id);
  }

  /** See KeyReads.currentNow: the newest live representation if it can be had without waiting. */
  currentNow(kind: string, id: string): Representation | undefined {
    return this.reads.currentNow(kind, id);
  }

  /** See KeyReads.currentSoon: what the hot read asks (rest/operations/hot-read.ts). */
  currentSoon(kind: string, id: string): Representation | undefined | Promise<Representation | undefined> {
    return this.reads.currentSoon(kind, id);
  }

  /** The representation with timestamp `ts`, even if the resource was deleted since. */
  version(kind: string, id: string, ts: number): Promise<Representation | undefined> {
    return this.reads.version(kind, id, ts);
  }

  /** The representation the resource had at instant `at` (µs): none before it existed, or once it was deleted at or before `at`. */
  at(kind: string, id: string, at: number): Promise<Representation | undefined> {
    return this.reads.at(kind, id, at);
  }

  /** True when the resource has ever been stored (up to instant `at`, when given). */
  known(kind: string, id: string, at?: number): Promise<boolean> {
    return this.reads.known(kind, id, at);
  }

  /** Answers when the database answers. */
  ping(): Promise<void> {
    return this.reads.ping();
  }

  /** Versions of one resource that match (up to `selection.at`), newest first. */
  versions(kind: string, id: string, selection: Selection): AsyncIterable<Representation> {
    return this.lists.versions(kind, id, selection);
  }

  /** The newest representation of every live resource of a kind that matches (as of `selection.at`), streamed. */
  list(kind: string, selection: Selection): AsyncIterable<Representation> {
    return this.lists.list(kind, selection);
  }

  /** See Lists.listTexts: the same list as runs of JSON texts (TextRun). */
  listTexts(kind: string, selection: Selection, run: TextRun): AsyncIterable<string> {
    return this.lists.listTexts(kind, selection, run);
  }

  /** See Lists.changes: the resources of a kind that changed in `(since, until]` and match. */
  changes(kind: string, since: number, until: number, selection: Selection): AsyncIterable<ChangeEntry> {
    return this.lists.changes(kind, since, until, selection);
  }

  /** Call `listener` after each committed write (the change feed reads the event log then). */
  onCommitted(listener: () => void): void {
    this.commits.onCommitted(listener);
  }

  /**
   * One write job (see Commits.write), the listeners of onCommitted told once it has committed.
   * The measurement store writes through it too, so the change feed hears of its appends.
   */
  write<T>(job: WriteJob<T>): Promise<T> {
    return this.commits.write(job);
  }
}
