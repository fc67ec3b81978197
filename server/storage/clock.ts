/**
 * Microseconds since the Unix epoch (UNIS's unit for `ts`). Built on the monotonic clock, so it
 * never runs backwards inside one process even if the wall clock is adjusted.
 */
export function nowMicros(): number {
  return Math.floor((performance.timeOrigin + performance.now()) * 1000);
}

/** The next version timestamp after `previous`: now, or one microsecond later if now is not later. */
export function nextTs(previous: number | undefined): number {
  const now = nowMicros();
  return previous === undefined || now > previous ? now : previous + 1;
}
