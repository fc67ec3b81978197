// The event log's vocabulary (storage/events.ts reads and writes the log): its tables, what a
// change is, the order of delivery (Position, Floor), and the versions the writes store. Part of
// storage's contract: it imports nothing else of storage but the contract.

/** One row per change of any resource, in commit order (migration 0005). */
export const EVENTS = 'resource_events';
/** SQLite: the last event id handed out; its one row, updated in each write (its one writer at a time), numbers the events. */
export const EVENT_COUNTER = 'topocat_event_counter';

/** What a change did, as UNIS named it: a new resource, a new version of one, or its deletion. */
export type ChangeAction = 'POST' | 'PUT' | 'DELETE';

/**
 * What the event log records: a ChangeAction, or `REPOST`, a new version of a live resource
 * stored by a POST of its id. Read back it is a `PUT` that was `reposted` (see ChangeEvent): the
 * event streams name it PUT, UNIS's WebSocket POST (rest-contract §11, revised 2026-11-28).
 * Events recorded before REPOST existed say PUT.
 */
export type RecordedAction = ChangeAction | 'REPOST';

/** A change as the event log records it. */
export interface Change {
  readonly kind: string;
  readonly id: string;
  readonly ts: number;
  readonly action: RecordedAction;
}

/** A change read back with its event id, its position, and the stored document (null for a deletion). */
export interface ChangeEvent extends Change {
  readonly action: ChangeAction;
  /** A PUT that a POST of a live id made (recorded as REPOST). */
  readonly reposted: boolean;
  readonly event: number;
  readonly position: Position;
  /** The id of the transaction that wrote it (PostgreSQL; 0 on SQLite), for Floor. */
  readonly writer: number;
  readonly doc: string | null;
}

/**
 * Where an event stands in the order of delivery: its transaction's place (`k`: 0 on SQLite,
 * where ids alone order events) and its id, as one number that compares as that pair does.
 */
export type Position = bigint;

const SHIFT = 64n;

export function positionOf(k: number, event: number): Position {
  return (BigInt(k) << SHIFT) | BigInt(event);
}

/** The (k, event) pair of a position. */
export function positionParts(position: Position): [k: number, event: number] {
  return [Number(position >> SHIFT), Number(position & ((1n << SHIFT) - 1n))];
}

/** Before every event. */
export const START: Position = 0n;

/**
 * The changes a new subscriber is not sent: those it has (up to a position, after a resume), or
 * those committed before it asked. On SQLite a position says both. On PostgreSQL a change
 * committed before may still stand after the horizon (an older transaction was running), so
 * what was committed before is the snapshot taken when the subscriber asked: its writer's
 * transaction is visible in it.
 */
export interface Floor {
  covers(event: ChangeEvent): boolean;
}

/** Every change up to `position`. */
export function upTo(position: Position): Floor {
  return { covers: (event) => event.position <= position };
}

/** A version to store: a new representation of a resource, or its deletion (`doc` null). */
export interface VersionRow extends Change {
  /** The stored document as JSON text; null for a deletion. */
  readonly doc: string | null;
  /** An id made for this very insert: nothing stored has it (no earlier event to order after). */
  readonly fresh?: boolean;
  /**
   * An imported version older than the resource's newest (a UNIS history read out of order): it
   * joins the history only; the current row and the event log (what subscribers hear) are left
   * as they are.
   */
  readonly past?: boolean;
}

/** A version for CompareAndSetWrites.insertIf. */
export interface Insertion {
  readonly kind: string;
  readonly id: string;
  readonly ts: number;
  /** The stored document as JSON text. */
  readonly doc: string;
  /** Store nothing if a live resource has this id. */
  readonly createOnly: boolean;
}

/** What CompareAndSetWrites.insertIf stored of one version: its event, and whether it replaced a live resource. */
export interface InsertedEvent {
  readonly event: number;
  readonly replaced: boolean;
}
