import type { CurrentCache } from '../current-cache.js';
import type { Uses } from '../contract/database.js';
import type { Representation } from '../contract/representation.js';

/** A resource, by its key. */
export interface ResourceKey {
  readonly kind: string;
  readonly id: string;
}

/**
 * What the writes tell the read cache (CurrentCache), before they are acknowledged, so that a
 * read never answers older than a write it follows. Without a cache (another process writes the
 * same database) there is nothing to tell.
 */
export class CacheUpkeep {
  constructor(
    private readonly db: Uses<never, { sql: 'columns' }>,
    private readonly cache?: CurrentCache,
  ) {}

  /**
   * What a write stored, for the cache: kept in place of what it held where the database answers
   * the text as written (ColumnSql.keepsText); elsewhere (PostgreSQL's jsonb) forgotten, so that
   * the next read keeps the database's own text and every answer of a version is the same bytes.
   */
  stored(kind: string, representation: Representation): void {
    if (!this.cache) return;
    if (this.db.dialect.sql.columns.keepsText) this.cache.put(kind, representation);
    else this.cache.forget(kind, representation.id);
  }

  /** A deleted resource leaves the cache. */
  forget(kind: string, id: string): void {
    this.cache?.forget(kind, id);
  }

  /**
   * A write of the resources `keys`: when it fails they leave the cache, since a write whose
   * flush failed after its commit may have changed them.
   */
  async cached<T>(keys: readonly ResourceKey[], write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (this.cache) for (const { kind, id } of keys) this.cache.forget(kind, id);
      throw error;
    }
  }
}
