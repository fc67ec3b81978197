import type { SortKey } from '../../query/syntax.js';
import type { Condition } from '../../query/tree.js';
import type { Representation } from '../contract/representation.js';

/** What an insert stored: a new resource, or a new version of a live one (a re-POST). */
export interface Inserted extends Representation {
  readonly kind: string;
  readonly replaced: boolean;
}

/**
 * One resource to insert: its kind, its id, and how to build the stored document. An id the
 * client chose may exist already: if a live resource has it, a new version of that resource is
 * stored, unless `createOnly`; a `replayedTs` that a stored version of it has is a conflict (a
 * replayed insert). An id the server made (`clientId` false) is new by construction.
 */
export interface NewResource {
  readonly kind: string;
  readonly id: string;
  readonly clientId: boolean;
  readonly replayedTs?: number;
  readonly createOnly?: boolean;
  build(id: string, ts: number): object;
}

/** What a conditional write expects of the newest version: any (`*`) or one of these `ts`. */
export type Expectation = 'any' | readonly number[];

export interface WriteOptions {
  /** Fail with PreconditionFailed unless the newest version meets this (If-Match). */
  readonly expect?: Expectation;
}

export interface ReplaceOptions extends WriteOptions {
  /** A `ts` the client sent; a version with that `ts` already stored is a conflict (a replayed PUT). */
  readonly replayedTs?: number;
}

/** A read selection: typed conditions, order, paging, and one entry per id (`unique`). */
export interface Selection {
  readonly conditions: readonly Condition[];
  readonly sort: readonly SortKey[];
  readonly limit?: number;
  readonly skip?: number;
  readonly unique?: boolean;
  /** The instant (µs) whose state is read (docs/time.md); absent: now. */
  readonly at?: number;
}

/** How a resource changed between two instants (docs/time.md). */
export type ChangeKind = 'created' | 'updated' | 'deleted';

/** One resource that changed between two instants: its representation at each (none where it had none). */
export interface ChangeEntry {
  readonly id: string;
  readonly change: ChangeKind;
  readonly before?: Representation;
  readonly after?: Representation;
}

/** A version that another service stored (a UNIS registry), with the `ts` it had there. */
export interface ImportedVersion {
  /** The collection (`nodes`), as storage names kinds. */
  readonly kind: string;
  readonly id: string;
  /** Microseconds, as stored where it comes from. */
  readonly ts: number;
  /** The document as JSON text; null for a deletion at `ts`. */
  readonly doc: string | null;
}

/** What one batch of imported versions did: for each version, in the order given, whether it was stored (false: a version with that kind, id and ts is stored already). */
export interface ImportedBatch {
  readonly stored: readonly boolean[];
}
