import type { Uses } from '../contract/database.js';
import { classified } from '../errors.js';
import { objectsWithContent, visibleObjects } from './content.js';
import { CatalogReads } from './reads.js';
import { CHUNK } from './records.js';
import type { ObjectContent, ObjectRecord } from './rows.js';
import { COUNTS } from './tables.js';
import { CatalogWrites } from './writes.js';

export { CatalogReads } from './reads.js';
export { CatalogWrites } from './writes.js';
export type { NewObject } from './graph-writes.js';

/** What the catalog store uses of the database. */
export type CatalogDatabase = Uses<'reader' | 'keys' | 'write', { sql: 'columns'; driver: 'errors' | 'statements'; adapter: 'locking' }>;

/** Most objectIds CatalogStore.objectsWithContent reads in its one statement. */
export const OBJECTS_AT_ONCE = CHUNK;
/** Lock scope of a user's trees: every structural change of them holds it (see write()). */
const OWNER_LOCK = 'catalog-owner';

/**
 * The catalog's storage: typed calls in, records out. Reads run in one transaction on the
 * reading pool; writes in one transaction on the writing pool that starts with the dialect's
 * beginWrite and then takes one lock per owner whose trees it may change. Each call has the
 * database's errors classified (classified(): StorageUnavailable and the like).
 *
 * Why per owner: every object has its parent's owner (creation needs the parent's owner to be
 * the caller; a move with newUserId re-owns the whole subtree and needs the new parent to be
 * the new owner's), so each tree belongs to one owner, and a cycle check plus a move, or a
 * closure update under a parent, only races with writers holding that owner's lock.
 */
export class CatalogStore {
  constructor(private readonly db: CatalogDatabase) {}

  /**
   * How many users and objects there are: the counter rows the triggers keep (migration 0003),
   * read by the key reader, since a status probe is called often.
   */
  async counts(): Promise<{ users: number; objects: number }> {
    const row = (await this.classified(() => this.db.keys.one(`SELECT COALESCE(SUM(users), 0) AS users, COALESCE(SUM(objects), 0) AS objects FROM ${COUNTS}`, []))) as { users: number | string; objects: number | string };
    return { users: Number(row.users), objects: Number(row.objects) };
  }

  /**
   * The objects with these objectIds (at most OBJECTS_AT_ONCE) that `owners` own, in no
   * particular order, with everything they hold, in one statement (see content.ts).
   */
  async objectsWithContent(guids: readonly string[], owners: readonly string[]): Promise<{ objects: ObjectRecord[]; content: ObjectContent }> {
    if (guids.length > OBJECTS_AT_ONCE) throw new RangeError(`objectsWithContent: at most ${OBJECTS_AT_ONCE} objectIds`);
    return this.classified(() => objectsWithContent(this.db, guids, owners));
  }

  /**
   * The objects with these objectIds (at most OBJECTS_AT_ONCE) that `owners` own, in no
   * particular order, without what they hold, in one statement (see content.ts).
   */
  async visibleObjects(guids: readonly string[], owners: readonly string[]): Promise<ObjectRecord[]> {
    if (guids.length > OBJECTS_AT_ONCE) throw new RangeError(`visibleObjects: at most ${OBJECTS_AT_ONCE} objectIds`);
    return this.classified(() => visibleObjects(this.db, guids, owners));
  }

  read<T>(work: (reads: CatalogReads) => Promise<T>): Promise<T> {
    return this.classified(() => this.db.reader.transaction((trx) => work(new CatalogReads(trx, this.db.dialect))));
  }

  /**
   * Run `work` in one write transaction holding the locks of `owners` (sorted: no deadlocks).
   * A commit that cannot be confirmed is logged with the owners and what `work` wrote.
   */
  write<T>(owners: readonly string[], work: (writes: CatalogWrites) => Promise<T>): Promise<T> {
    const locked = [...new Set(owners)];
    let writes: CatalogWrites | undefined;
    const written = (): string[] => [...locked.map((dn) => `owner ${dn}`), ...(writes?.written ?? [])];
    return this.classified(() => this.db.write(async (trx) => {
      await this.db.dialect.adapter.locking.lockResources(trx, OWNER_LOCK, locked);
      writes = new CatalogWrites(trx, this.db.dialect);
      return work(writes);
    }, written));
  }

  private classified<T>(work: () => Promise<T>): Promise<T> {
    return classified(this.db.dialect.driver.errors, work);
  }
}
