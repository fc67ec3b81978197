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

/** Names of the Dialect's parts, by group: `{ sql: 'json' | 'columns'; driver: 'errors' }`. */
export type DialectParts = { readonly [G in keyof Dialect]?: keyof Dialect[G] };

/** The Dialect with only the parts `U` names: what a module that uses those parts takes. */
export type DialectUses<U extends DialectParts> = { readonly [G in keyof U & keyof Dialect]: Pick<Dialect[G], U[G] & keyof Dialect[G]> };

/**
 * What a store takes of an open database: the members `P` of its pools and the Dialect's parts
 * `U`. Any Database is one; the type says, and the compiler holds the store to, what it uses.
 */
export type Uses<P extends keyof Pools, U extends DialectParts> = Pick<Pools, P> & { readonly dialect: DialectUses<U> };
