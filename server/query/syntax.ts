/**
 * The query language's syntax tree: what a query string says, before the fields' types are
 * known (typing.ts gives each value its type and each field its place).
 */

import type { QueryOperator, ValueType } from '../../generated/rest/contract.js';

export type { ValueType };
/**
 * `eq` is plain equality (`a=v`); the others are the operators `a=<prefix>=v` of the contract
 * table's grammar (generator/model/http.ts, rest-contract §5): `lt`, `lte`, `gt`, `gte`, and
 * UNIS's `numeq` (its `eq=`, numeric equality), `not` case-insensitive inequality, `reg` a
 * regular expression (case-insensitive), `null` null or absent, `recfind` a folder's subtree of
 * exnodes, `exists` present or absent (its one value a boolean).
 */
export type Operator = 'eq' | QueryOperator;

export interface QueryValue {
  readonly value: string | number | boolean;
  /** The type a `number:`/`integer:`/`boolean:`/`string:` prefix asked for; absent when untyped. */
  readonly type?: ValueType;
}

/** One comparison: `field operator value`, or `field IN values` when there are several. */
export interface Term {
  readonly field: readonly string[];
  readonly operator: Operator;
  readonly values: readonly QueryValue[];
  /** The query parameter the term came from, for error messages. */
  readonly parameter: string;
}

/** Terms ORed together (`a=v|b=w`); the conditions of a query are ANDed. */
export interface Condition {
  readonly terms: readonly Term[];
}

export interface SortKey {
  readonly field: readonly string[];
  readonly descending: boolean;
}

/**
 * `fields=a,b`: only those fields; `fields=neg=a,b` (`except`): every field but those (UNIS
 * HEAD, rest-contract §5 revised 2026-11-29). Dot notation reaches nested fields.
 */
export interface Projection {
  readonly paths: readonly (readonly string[])[];
  readonly except: boolean;
}

export interface ParsedQuery {
  readonly conditions: readonly Condition[];
  readonly fields?: Projection;
  /** At most this many; absent: no limit (also for `limit=0`, as MongoDB and UNIS read it). */
  readonly limit?: number;
  readonly skip?: number;
  readonly sort: readonly SortKey[];
  /** `unique=true`: one entry per resource id. */
  readonly unique: boolean;
  /**
   * `inline`, as UNIS HEAD reads it (rest-contract §5, revised 2026-11-26): on `/exnodes`, each
   * file gets its `extents`; elsewhere it changes nothing.
   */
  readonly inline: boolean;
  /** `expand` (ours): references to this service's resources are replaced by those resources. */
  readonly expand: boolean;
  /**
   * `ts` of a single resource (`GET /<c>/<id>?ts=T`): the version it selects. `null` when the
   * value is an integer no version can have (beyond 2^53), so nothing matches.
   */
  readonly version?: number | null;
  /** `at=T` (µs, the unit of `ts`): the answer as it was at instant T (docs/time.md). */
  readonly at?: number;
  /** `since=T1` and/or `until=T2`: what changed in (T1, T2] instead of the resources (docs/time.md). */
  readonly changes?: { readonly since: number; readonly until?: number };
}

/** Where a query is asked: of a collection, or of one resource (where `ts` selects a version). */
export type QueryScope = 'collection' | 'resource';
