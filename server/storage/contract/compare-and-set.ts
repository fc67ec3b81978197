import type { InsertedEvent, Insertion, VersionRow } from './events.js';

// A capability of the Dialect's driver (Pools.compareAndSet): writes that check and store in one
// statement outside any transaction. Part of storage's contract: it imports nothing else of
// storage but the contract.

/**
 * Where a write can check what it expects and store in one round trip instead of a locked
 * transaction's five (PostgreSQL). Such writes that arrive together are written together. Absent
 * where a locked write costs no round trips (SQLite: its one writer is in the process); the
 * stores then write the locked way.
 */
export interface CompareAndSetWrites {
  /**
   * A write of one live resource as a compare-and-set: store `version` in place of the
   * resource's current version if that is still the one with ts `expected` and nobody holds the
   * resource's lock; its event id, or undefined when it did not (the caller then writes it the
   * locked way).
   */
  replaceIf(version: VersionRow, expected: number): Promise<number | undefined>;
  /**
   * An insert of client-chosen ids: lock the resources, then store every version if each is
   * newer than everything its resource stored and no `createOnly` one finds its resource live.
   * Per version its event id and whether a live resource had the id (a re-POST); undefined when
   * nothing was stored (the caller then writes the locked way, which finds out why).
   */
  insertIf(versions: readonly Insertion[]): Promise<readonly InsertedEvent[] | undefined>;
}
