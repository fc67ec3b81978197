import type { Uses } from './contract/database.js';
import { onPrimary } from './on-primary.js';
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
  /** The commit mark (KeyReader.commits) the positions in `known` were read after. */
  private mark: number | string | undefined;
  /** Positions read since the mark last moved, by kind ('' for every kind). */
  private readonly known = new Map<string, string>();

  constructor(private readonly db: ListPositionsDatabase) {}

  /**
   * The position of the lists of `kind`, or of every kind (undefined: lists that show other
   * kinds' resources too). Where the key reader has a commit mark that moves with every commit
   * of any process (SQLite's WAL-index header), a position read after the mark stands until it
   * moves: one pread instead of a statement's read transaction (23 µs of the ~800 µs of CPU a
   * `?name=X` list cost, a profile of 12,000 of them, 2026-11-29). The mark is read before the
   * position, so a commit between the two moves it and the next list reads again. A mark that
   * cannot be read keeps nothing: the statement runs, and meets the failure as any read would.
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
    if (mark !== undefined) this.known.set(key, position);
    return position;
  }

  /** KeyReader.commits, or undefined where the key reader has none or it cannot be read (nothing is then kept). */
  private commitMark(): number | string | undefined {
    try {
      return this.db.keys.commits?.();
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
