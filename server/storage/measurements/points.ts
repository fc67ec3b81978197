import type { Condition } from '../../query/tree.js';
import type { SortKey } from '../../query/syntax.js';

// Data points as they are written and read: the shapes the measurement store's callers pass in
// and get back (server/measurements/, the importer).

/** The most points newest() answers: beyond, a read holds the event loop too long (see PointReads.newest). */
export const NEWEST_MAX = 1_000;
/** The most points a page() answers; larger reads stream. */
export const PAGE_MAX = 10_000;

/** A data point as posted: a numeric `ts` and whatever else the datum holds. */
export type DataPoint = { readonly ts: number } & Readonly<Record<string, unknown>>;

export interface PointBatch {
  readonly mid: string;
  readonly points: readonly DataPoint[];
}

/** What an append did to one series. */
export interface Appended {
  readonly mid: string;
  /** New points stored. */
  readonly stored: number;
  /** Points whose (mid, ts) was stored already: ignored. */
  readonly duplicates: number;
  /** Points older than the ttl when they arrived: not stored. */
  readonly expired: number;
  /** Older points deleted to keep the series within its cap (and expired ones pruned). */
  readonly dropped: number;
}

/** Counts over a range of `ts`. */
export interface SeriesSummary {
  readonly count: number;
  readonly first: number | null;
  readonly last: number | null;
}

export interface PointSelection {
  readonly conditions: readonly Condition[];
  readonly sort: readonly SortKey[];
  readonly limit: number;
  readonly skip?: number;
  /**
   * The points selected (without `sort`: the newest that match) answered oldest first, as
   * UNIS answered its points (rest-contract §14: a UNIS-form read without `sort`).
   */
  readonly oldestFirst?: boolean;
}
