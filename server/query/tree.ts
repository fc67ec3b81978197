/**
 * The typed condition tree: a query's meaning, the one input of both evaluators (the SQL
 * compiler of storage, and match.ts for events). Typing (typing.ts) has decided, for every
 * value, the type it compares as, and for every field, where it is looked up.
 */

/** The JSON type a predicate compares; a value of another JSON type never satisfies it. */
export type ScalarType = 'string' | 'number' | 'boolean';
export type Scalar = string | number | boolean;
/** `IN` is `=` against any of several values. */
export type Comparison = '=' | '<' | '<=' | '>' | '>=' | 'IN';

/** Where a predicate looks for its value. */
export type Target =
  /** `id` or `ts`: the resource's key members, kept in columns of their own too. */
  | { readonly kind: 'column'; readonly column: 'id' | 'ts' }
  /**
   * A field the schema names. Each position in `arrays` is a segment whose value the schema
   * declares a list: its elements are searched (UNIS's Mongo semantics), the rest of the path
   * continuing in each element.
   */
  | { readonly kind: 'field'; readonly segments: readonly string[]; readonly arrays: readonly number[] }
  /** A field the schema does not name (kinds are open): its value, or any element of a list there. */
  | { readonly kind: 'open'; readonly segments: readonly string[] };

export interface Predicate {
  readonly target: Target;
  readonly comparison: Comparison;
  readonly type: ScalarType;
  /** One value, or several for `IN`; all of `type`. */
  readonly values: readonly Scalar[];
  /** Strings equal without regard to the case of ASCII letters (`not=`; only with `=`). */
  readonly fold?: boolean;
}

/**
 * A regular expression a string value must contain a match of: `reg=` (case-insensitive,
 * rest-contract §5) and UNIS subscriptions' `reg` (case-sensitive, as UNIS's `re.search`). Both
 * evaluators run it in time linear in the text: RE2 here, the same expression as an ARE without
 * back-references in PostgreSQL (`posix`, see regex.ts).
 */
export interface Pattern {
  readonly target: Target;
  readonly comparison: 'MATCHES';
  readonly source: string;
  /** PostgreSQL's form, matched with `~*`; absent for subscription patterns (matcher only). */
  readonly posix?: string;
  test(text: string): boolean;
}

/** `a=null=`: the value at the field is null or absent (never for `id` or `ts`). */
export interface Absent {
  readonly target: Target;
  readonly comparison: 'NULL';
}

/**
 * `a=exists=true` / `exists=false` (UNIS HEAD's `$exists`, rest-contract §5 revised 2026-11-29):
 * a value is at the field, JSON null included (as MongoDB's `$exists`), or none is. The lists the
 * schema declares before the last segment are searched, as MongoDB searches them (`a.b` is
 * present when an element of the list `a` has `b`); the field itself is present when it holds a
 * list, even an empty one. `id` and `ts` are always present.
 */
export interface Presence {
  readonly target: Target;
  readonly comparison: 'EXISTS';
  /** `exists=true`; false: the field must be absent. */
  readonly present: boolean;
}

/** `a=not=v`: no value the field reaches is equal to `v` (strings without regard to case). */
export interface Negation {
  readonly target: Target;
  readonly comparison: 'NOT';
  /** What must not hold; absent when nothing could (then the negation always holds). */
  readonly of?: Predicate;
}

/**
 * `parent=recfind=<id>` on exnodes: the parent reference names the directory `root` or any
 * directory beneath it. Only the SQL compiler evaluates it (it reads other resources).
 */
export interface Descent {
  readonly target: Target;
  readonly comparison: 'RECFIND';
  readonly collection: string;
  readonly root: string;
}

/** Anything a condition may test. */
export type Test = Predicate | Pattern | Absent | Presence | Negation | Descent;

/** Tests ORed together; none at all never holds. The conditions of a query are ANDed. */
export interface Condition {
  readonly anyOf: readonly Test[];
}

/** A condition of a subscription: the same tests, checked in memory. */
export type EventCondition = Condition;

/** Strings compare by code point (UTF-8 byte order, as SQLite's BINARY and PostgreSQL's "C"). */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done || y.done) return x.done ? (y.done ? 0 : -1) : 1;
    const cx = x.value.codePointAt(0)!;
    const cy = y.value.codePointAt(0)!;
    if (cx !== cy) return cx < cy ? -1 : 1;
  }
}
