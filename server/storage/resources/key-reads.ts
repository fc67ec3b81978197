import type { CurrentCache } from '../current-cache.js';
import type { Uses } from '../contract/database.js';
import { classified } from '../errors.js';
import type { Representation } from '../contract/representation.js';
import type { CurrentRow, KeySql } from './statements.js';

/** What the key reads use of the database. */
export type KeyReadsDatabase = Uses<'keys' | 'writable', { driver: 'errors' }>;

/**
 * Reads by key: the newest live representation (from the read cache where there is one), one
 * version, the state at an instant, whether a resource was ever stored. Each is one statement
 * prepared once for the key reader (the dialects' key-reader.ts), no query builder.
 */
export class KeyReads {
  /**
   * @param cache the newest representations in memory; only for a process that is its
   *   database's only writer (see CurrentCache).
   */
  constructor(
    private readonly db: KeyReadsDatabase,
    private readonly sql: KeySql,
    private readonly cache?: CurrentCache,
  ) {}

  /** The newest live representation. */
  async current(kind: string, id: string): Promise<Representation | undefined> {
    return this.cache?.get(kind, id) ?? this.lookup(kind, id);
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

  /** Answers when the database answers. */
  async ping(): Promise<void> {
    await this.read(() => this.db.keys.one('SELECT 1', []));
    // Readiness: a database that answers but takes no writes (no host is the primary) is not ready (rest-contract §16).
    const writable = this.db.writable?.bind(this.db);
    if (writable) await this.read(writable);
  }

  /** The newest live representation as the database has it, kept in memory where there is a cache. */
  private async lookup(kind: string, id: string): Promise<Representation | undefined> {
    const writes = this.cache?.writes;
    const row = (await this.read(() => this.db.keys.one(this.sql.current, [kind, id]))) as CurrentRow | undefined;
    return this.kept(kind, id, row, writes);
  }

  /** The representation a current row holds, kept in memory unless a write was done since `writes` (it may have committed after the lookup). */
  private kept(kind: string, id: string, row: CurrentRow | undefined, writes: number | undefined): Representation | undefined {
    if (!row) return undefined;
    const representation = { id, ts: Number(row.ts), doc: row.doc };
    if (writes !== undefined) this.cache?.remember(kind, representation, writes);
    return representation;
  }

  private read<T>(work: () => Promise<T>): Promise<T> {
    return classified(this.db.dialect.driver.errors, work);
  }
}
