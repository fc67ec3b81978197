/**
 * Catalog query conditions as storage understands them: no XML, no SOAP names. The catalog
 * translates requests into these; query-sql.ts compiles them into SQL.
 */

/** A comparison operand, typed the way values.ts types element text. */
export interface Operand {
  readonly text: string;
  readonly number: number | undefined;
  readonly time: number | undefined;
}

export type Comparator = '=' | '<>' | '<' | '<=' | '>' | '>=';

export type ValueTest =
  /** Case-sensitive equality of the text. */
  | { readonly kind: 'exact'; readonly text: string }
  /** Case-insensitive prefix or substring of the text. */
  | { readonly kind: 'prefix' | 'substring'; readonly text: string }
  | { readonly kind: 'compare'; readonly comparator: Comparator; readonly operand: Operand }
  /** start ≤ value ≤ end. */
  | { readonly kind: 'range'; readonly start: Operand; readonly end: Operand };

/** OR (`any`) or AND (`all`) of conditions, optionally negated. */
export interface ConditionSet<T> {
  readonly kind: 'any' | 'all';
  readonly negate: boolean;
  readonly items: readonly T[];
}

/** Some element (name, source) of the property instance passes `test` (exists, without one). */
export interface ElementTest {
  readonly kind: 'element';
  readonly negate: boolean;
  readonly name: string;
  readonly source: string;
  readonly test: ValueTest | undefined;
}

export type ElementCondition = ElementTest | ConditionSet<ElementCondition>;

/** Some instance of (name, source) meets every element and sub-property condition. */
export interface PropertyTest {
  readonly kind: 'property';
  readonly negate: boolean;
  readonly name: string;
  readonly source: string;
  readonly elements: readonly ElementCondition[];
  readonly properties: readonly PropertyCondition[];
}

export type PropertyCondition = PropertyTest | ConditionSet<PropertyCondition>;

/** What one object must be; `negate` inverts the whole match. */
export interface ObjectCondition {
  readonly negate: boolean;
  readonly objectClass: string;
  readonly guid: string | undefined;
  /** Inclusive bounds on the creation time, epoch ms. */
  readonly createdFrom: number | undefined;
  readonly createdTo: number | undefined;
  /** ANDed. */
  readonly properties: readonly PropertyCondition[];
}

export type Relation = 'parent' | 'ancestor' | 'child' | 'descendant';

/** Some object in `relation` to the anchor matches `object`, and `context` holds for it. */
export interface RelatedTest {
  readonly kind: 'related';
  readonly relation: Relation;
  readonly object: ObjectCondition;
  /** ANDed, with the related object as their anchor. */
  readonly context: readonly ContextCondition[];
}

export type ContextCondition = RelatedTest | ConditionSet<ContextCondition>;

/** A context query: which objects, seen by whom, in which page. */
export interface TargetQuery {
  /** Owners whose objects may be targets or context objects. */
  readonly visibleTo: readonly string[];
  readonly target: ObjectCondition;
  /** ANDed with the target match; undefined when the request has no contextQuery. */
  readonly context: ConditionSet<ContextCondition> | undefined;
  readonly offset: number;
  /** Undefined: no limit. */
  readonly limit: number | undefined;
}
