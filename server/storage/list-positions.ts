import type { Uses } from './contract/database.js';
import { onPrimary } from './on-primary.js';
import type { CurrentCache } from './current-cache.js';
import { classified } from './errors.js';

/** What the list positions use of the database. */
export type ListPositionsDatabase = Uses<'keys' | 'standbys', { driver: 'errors'; features: 'history' }>;

/**
 * Where a list stands in the event log (rest-contract §5, added 2026-11-29): a text that changes
 * with every committed write of any process that could change what the list shows, read by
 * index without a pass over the rows (HistorySql.listPosition). Every write that changes a
 * current row records an event of its kind in the same transaction (a delete, a PUT, a PATCH,
 * a touch, an import, a write of another process); what changes no current row records none (a
 * version an import adds to the past) and changes no list of the present either.
 *
 * Where standbys serve reads, the position is read on the primary: a standby's snapshot does not
 * know the transactions that have not written WAL yet, so its horizon is not one
 * (Standbys.belowHorizon). The rows of the list then follow it (`follow`), so they are never
 * older than the position: a tag newer than its rows would later turn a changed list into a
 * wrong 304.
 */
export class ListPositions {
  /** The commit mark (see commitMark) the positions in `known` were read after. */
  private mark: number | string | undefined;
  /** Positions read since the mark last moved, by kind ('' for every kind). */
  private readonly known = new Map<string, string>();

  /** @param cache where the key reader has no commit mark, the read cache's (CurrentCache.mark). */
  constructor(
    private readonly db: ListPositionsDatabase,
    private readonly cache?: CurrentCache,
  ) {}

  /**
   * The position of the lists of `kind`, or of every kind (undefined: lists that show other
   * kinds' resources too). A position read after a commit mark stands until the mark moves:
   * - SQLite: the key reader's (KeyReader.commits), the WAL-index header that every commit of
   *   any process moves. One pread instead of a statement's read transaction (23 µs of the ~800
   *   µs of CPU a `?name=X` list cost, a profile of 12,000 of them, 2026-11-29).
   * - PostgreSQL: the read cache's (CurrentCache.mark), which stands while this process holds
   *   the read lease (no other process writes) and none of its own writes began; an outside
   *   write moves it within the second, as it empties the read cache (outside-writes.ts).
   *   No statement instead of one: with it, the backends' CPU of a `?name=X` list of 20,000
   *   nodes was 580 µs against the build before list ETags' 400 µs, kept 440 (scratch, 6
   *   alternating rounds of 2,000 lists, 2026-11-29), besides the process's round trip.
   * The mark is read before the position, so a commit between the two moves it and the next
   * list reads again; a position read while the mark moved is not kept. A mark that cannot be
   * read keeps nothing: the statement runs, and meets the failure as any read would.
   */
  async of(kind: string | undefined): Promise<string> {
    const key = kind ?? '';
    const mark = this.commitMark();
    if (mark !== this.mark) {
      this.known.clear();
      this.mark = mark;
    }
    const known = this.known.get(key);
    if (known !== undefined) return known;
    const { listPosition } = this.db.dialect.features.history;
    const [sql, bindings] = kind === undefined ? [listPosition.all, []] : [listPosition.kind, new Array<string>(listPosition.kindBindings).fill(kind)];
    const row = await classified(this.db.dialect.driver.errors, () => onPrimary(this.db.standbys, () => this.db.keys.one(sql, bindings)));
    const position = String(row?.position ?? 0);
    if (mark !== undefined && mark === this.mark) this.known.set(key, position);
    return position;
  }

  /** KeyReader.commits, else the read cache's mark; undefined where there is none or it cannot be read (nothing is then kept). */
  private commitMark(): number | string | undefined {
    try {
      const { keys } = this.db;
      return keys.commits ? keys.commits() : this.cache?.mark();
    } catch {
      return undefined;
    }
  }

  /**
   * Make the reads of this request that follow find everything committed before a position read
   * before this call (with standbys: where the primary's position now has been replayed; without,
   * every later read finds it already).
   */
  async follow(): Promise<void> {
    const standbys = this.db.standbys;
    if (!standbys) return;
    standbys.atLeast(await classified(this.db.dialect.driver.errors, () => standbys.token()));
  }
}
