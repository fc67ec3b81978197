import type { Dialect } from './dialect.js';
import type { Pools } from './driver.js';

// What every store is handed: an open database. Opening one (storage/database.ts) is the only
// place that knows every engine and every migration; this file knows neither.

/**
 * An open database: the dialect that knows how to talk to it, and its pools (a reader, a writer,
 * key reads, write transactions and streams; see Pools).
 */
export interface Database extends Pools {
  readonly dialect: Dialect;
}
