/**
 * The grace past `ts + ttl` before a registration expires, as a share of its `ttl` (rest-contract
 * §13, revised 2026-11-29). UNIS reports with `ttl` equal to its period
 * (`summary_collection_period`), so a registration that expired at `ts + ttl` would lapse
 * whenever its next report came a little late; topocat reports with twice its period, so one
 * lost report does not expire it, and the grace adds half of that.
 */
export const GRACE = 0.5;

/** Until when a registration stored at `ts` (µs, the unit of `ts`) with `ttl` (s) counts: `ts + ttl + ttl / 2`, in µs. */
export function expiresAt(ts: number, ttlSeconds: number): number {
  return ts + ttlSeconds * (1 + GRACE) * 1_000_000;
}
