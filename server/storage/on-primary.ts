import type { Standbys } from './contract/standbys.js';

/** `work` with its reads on the primary where there are standbys (Standbys.onPrimary); as it is without. */
export function onPrimary<T>(standbys: Standbys | undefined, work: () => T): T {
  return standbys ? standbys.onPrimary(work) : work();
}
