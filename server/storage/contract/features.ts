import type { Knex } from 'knex';
import type { Change, Floor, Position, VersionRow } from './events.js';
import type { Row } from './rows.js';
import type { SqlFragment } from './sql.js';

// The Dialect's features: the statements of the project's own features that differ between
// engines (the history and its event log, reads of the past, manifests, measurement points).
// Part of storage's contract: it imports nothing else of storage but the contract.

/** The project's features that each engine stores its own way: one of the Dialect's four groups. */
export interface Features {
  /** Versions and their events: how they are written, numbered, and read back in order. */
  readonly history: HistorySql;
  /** Reads of the past: the stored history as it stood at an instant, and what changed between two. */
  readonly time: TimeSql;
  /** The triggers that keep each collection's manifest as writes happen (storage/manifests.ts). */
  readonly manifests: ManifestSql;
  /** The data points of the measurement store (storage/measurements/). */
  readonly points: PointSql;
}

/** The manifests' upkeep (storage/manifest-upkeep.ts): its triggers, and what builds the sets of stored documents. */
export interface ManifestSql {
  /**
   * The triggers on `resource_current` (and what they call) that add each written document's
   * values, for the upkeep's `generation` (storage/manifest-upkeep.ts; undefined: migration
   * 0014's, before any generation).
   */
  create(generation: string | undefined): readonly string[];
  readonly drop: readonly string[];
  /** Add the values of stored documents to the sets, as the triggers would have (the scan that builds them). */
  add(trx: Knex.Transaction, documents: readonly { readonly kind: string; readonly doc: string }[]): Promise<void>;
}

/**
 * The history read as of an instant (docs/time.md), answered by the database from the index on
 * `(kind, id, ts)` (one resource: one lookup) and the one on `(kind, ts, id)` (migration 0010).
 * Each engine has its own shape of the same query because each planner needs it told differently
 * how to join the newest version of each resource back to its document.
 */
export interface TimeSql {
  /**
   * A derived table of columns `id`, `ts`, `doc` (the stored document): each resource of `kind`
   * as it was at instant `at`, its newest version with `ts ≤ at`, none when that is a deletion.
   */
  stateAt(kind: string, at: number): SqlFragment;
  /**
   * A derived table of the resources of `kind` that changed in `(since, until]`, one row each:
   * `id`, `ts` (of its last change in the interval), `doc` (the document as of `until`, or as of
   * `since` when it was deleted), `bts`/`bdoc` (its version at `since`, null when it had none)
   * and `adoc` (at `until`, null when deleted). One that had no version at either instant is
   * left out.
   */
  changes(kind: string, since: number, until: number): SqlFragment;
}

/**
 * The history and the event log (storage/events.ts): every version appended with the event that
 * announces it, and the order in which readers of the log take events. Each event has an id
 * (`event`, unique) and a position (`Position`): the order of delivery. On SQLite one writer
 * numbers events as it commits them, so positions follow ids. On PostgreSQL many transactions
 * commit at once and none may wait for another's commit: an event's position is the id of its
 * transaction, then its own id, and a reader takes only the events of transactions older than
 * every transaction still running (docs/internals.md, "The event log on PostgreSQL").
 */
export interface HistorySql {
  /** Migration step 0008, after the columns `k` and `xid` are added: what this engine's event log needs for its order, and its undoing. */
  readonly migration: { up(knex: Knex): Promise<void>; down(knex: Knex): Promise<void> };
  /** Migration step 0016: what this engine's CompareAndSetWrites.insertIf needs in the schema (PostgreSQL: a function), and its undoing. */
  readonly insertIfMigration: { up(knex: Knex): Promise<void>; down(knex: Knex): Promise<void> };
  /** Migration step 0018: the index `listPosition.kind` reads (PostgreSQL: events by kind in positions' order), and its undoing. */
  readonly listPositionMigration: { up(knex: Knex): Promise<void>; down(knex: Knex): Promise<void> };
  /**
   * Append `versions` to the history, make the last version of each resource that is not `past`
   * its current row (or remove the row for a deletion), and add their events, as part of `trx`.
   * The caller holds the resources' locks. Returns the event ids of the versions that are not
   * `past`, in the order of `versions`.
   */
  storeVersions(trx: Knex.Transaction, versions: readonly VersionRow[]): Promise<number[]>;
  /** Add events of changes that are not versions (measurement appends), as part of `trx`: their ids, in order. */
  record(trx: Knex.Transaction, changes: readonly Change[]): Promise<number[]>;
  /** SQL of one row (`k`, `event`): a position after every event final now, before any other. */
  readonly horizon: string;
  /**
   * SQL of the session whose open transaction has held back the delivery of changes for over ten
   * seconds, if any (`pid`, `application`, `state`, `seconds`); absent where none can (SQLite).
   */
  readonly heldBy?: string;
  /** SQL of one row, and the Floor it means: the changes committed before now. */
  readonly now: { readonly sql: string; floor(row: Row): Floor };
  /** SQL of the row (`k`) of the event whose id is bound, none for an unknown id. */
  readonly positionOf: string;
  /**
   * SQL of one row (`position`, text) that changes with every committed event of one kind
   * (`kind`; bindings: the kind, `kindBindings` times) or of any kind (`all`; no bindings),
   * read by index without a pass over the rows: the position of a list (storage/list-positions.ts).
   */
  readonly listPosition: { readonly kind: string; readonly kindBindings: number; readonly all: string };
  /**
   * A condition on events aliased `alias`: after `position`, and final (no event can come before
   * it any more). `horizon`: where the statement runs on a standby, the horizon the primary gave
   * (Standbys.belowHorizon), in place of the statement's own snapshot's.
   */
  after(alias: string, position: Position, horizon?: number): SqlFragment;
  /** ORDER BY of events aliased `alias`, in positions' order. */
  order(alias: string): string;
}

/** The measurement store's one statement that differs: a batch of points inserted as a set. */
export interface PointSql {
  /**
   * INSERT of one series' points from the JSON text of an array of point objects (each with a
   * numeric `ts`), in one statement whatever the batch's size; bindings: mid, event id, the
   * JSON text. A (mid, ts) stored already is skipped (a client re-sending a batch).
   */
  readonly insertFromJson: string;
}
