/*
 * The REST client's query builder: the conditions of the query language (rest-contract §5),
 * typed by a kind's fields, and how they are written in a query string. Every operator is read
 * from the contract table (generated/rest/contract.ts), so a new row of it reaches `where` with
 * no edit here.
 */

import { QUERY_OPERATORS, VALUE_TYPES, type QueryOperator } from '../../generated/rest/contract.js';

type Scalar = string | number | boolean;

/** What an operator takes after its `<prefix>=`, by its row of the contract table. */
type Takes = (typeof QUERY_OPERATORS)[QueryOperator]['takes'];

/** One term: a field equal to any of the values (no operator), or an operator of the contract table and what it takes. */
interface Term {
  readonly field: string;
  readonly operator?: QueryOperator;
  readonly values: readonly Scalar[];
}

/**
 * The starts of a value that the service reads as grammar, from the contract table (rest-contract
 * §5): every operator's `<prefix>=` (`reg=x` alone would be a regular expression, `null=` a test
 * for absence) and every typed value's `<type>:`. A string value that starts so is sent as
 * `string:<value>`, which the service reads as that very string.
 */
const PREFIXED = new RegExp(`^(?:(?:${Object.values(QUERY_OPERATORS).map((o) => o.prefix).join('|')})=|(?:${VALUE_TYPES.join('|')}):)`, 'i');

/** One value in the query grammar, as its operator takes it: typed where the type is not a string, escaped where needed. */
function encodeValue(value: Scalar, takes: Takes): string {
  // `exists=` takes a bare switch (rest-contract §5).
  if (takes === 'switch') return String(value);
  if (typeof value === 'boolean') return `boolean:${value}`;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`cannot query for ${value}`);
    return Number.isInteger(value) ? `integer:${value}` : `number:${value}`;
  }
  // The service decodes before it parses (as UNIS did), so `|` separates terms, and `,` values
  // (but in a text taken whole, `reg=a{1,3}`), however they are written: a value holding one
  // cannot be asked for.
  if (takes === 'text' ? value.includes('|') : /[,|]/.test(value)) throw new RangeError(`cannot query for ${JSON.stringify(value)}: the query grammar has no escape for ${takes === 'text' ? '| in a pattern' : ', and |'}`);
  return encodeURIComponent(PREFIXED.test(value) ? `string:${value}` : value);
}

function encodeTerm(term: Term, withField: boolean): string {
  const head = withField ? `${encodeURIComponent(term.field)}=` : '';
  if (term.operator === undefined) return head + term.values.map((value) => encodeValue(value, 'value')).join(',');
  const { prefix, takes } = QUERY_OPERATORS[term.operator];
  return `${head}${prefix}=${term.values.map((value) => encodeValue(value, takes)).join(',')}`;
}

/** A field of `F` (path → value type), or any other dotted path (an exnode's `parent`, a member no schema lists). */
export type FieldPath<F> = (keyof F & string) | (string & {});

/** The type of the values at path `K` of `F`: its field's, or any scalar where `F` lists no such field. */
export type ValueAt<F, K extends string> = K extends keyof F ? F[K] : Scalar;

/**
 * What `where` takes after an operator, by what its row of the contract table says it takes
 * (rest-contract §5): one value of the field's type `V`, a pattern's text, a switch, or nothing.
 * A row that takes something new fails to compile here until it is said.
 */
export interface Operands<V> {
  readonly value: [value: V];
  readonly text: [pattern: string];
  readonly switch: [present: boolean];
  readonly nothing: [];
}

/** What `where` takes after the operator `O` on a field of values `V`. */
export type Operand<V, O extends QueryOperator> = Operands<V>[(typeof QUERY_OPERATORS)[O]['takes']];

/**
 * The conditions of the query language, typed by the kind's fields `F`: `where` for every
 * operator of the contract table (a new row of it is asked with no change here), the named
 * builders one line over it. `Query` ANDs what they add, `Alternatives` ORs it.
 */
export abstract class Conditions<F> {
  /** @internal */
  protected abstract add(term: Term): this;

  /** Field equals the value, or (given an array) any of the values. */
  eq<K extends keyof F & string>(field: K, value: F[K] | readonly F[K][]): this {
    return this.add({ field, values: Array.isArray(value) ? (value as Scalar[]) : [value as Scalar] });
  }

  /**
   * The operator `operator` of the contract table on `field` (rest-contract §5: `field=<prefix>=value`),
   * with what it takes: `where('ts', 'gt', since)`, `where('name', 'reg', '^depot')`,
   * `where('urn', 'exists', false)`, `where('description', 'null')`.
   */
  where<K extends FieldPath<F>, O extends QueryOperator>(field: K, operator: O, ...operand: Operand<ValueAt<F, K>, O>): this {
    return this.add({ field, operator, values: operand as readonly Scalar[] });
  }

  /** Less than. */
  lt<K extends keyof F & string>(field: K, value: F[K]): this {
    return this.where(field, 'lt', value as ValueAt<F, K>);
  }
  /** Less than or equal. */
  lte<K extends keyof F & string>(field: K, value: F[K]): this {
    return this.where(field, 'lte', value as ValueAt<F, K>);
  }
  /** Greater than. */
  gt<K extends keyof F & string>(field: K, value: F[K]): this {
    return this.where(field, 'gt', value as ValueAt<F, K>);
  }
  /** Greater than or equal. */
  gte<K extends keyof F & string>(field: K, value: F[K]): this {
    return this.where(field, 'gte', value as ValueAt<F, K>);
  }
  /** A string that matches a regular expression (RE2), whatever its letter case (UNIS's `reg=`). */
  reg<K extends keyof F & string>(field: K, pattern: string): this {
    return this.where(field, 'reg', pattern);
  }
  /** Not equal; strings compared whatever their letter case (UNIS's `not=`). */
  not<K extends keyof F & string>(field: K, value: F[K]): this {
    return this.where(field, 'not', value as ValueAt<F, K>);
  }
  /** Numerically equal: the value read as a number (UNIS's `eq=`). */
  numeq<K extends keyof F & string>(field: K, value: F[K]): this {
    return this.where(field, 'numeq', value as ValueAt<F, K>);
  }
  /** The field is JSON null or absent (UNIS's `null=`). */
  null(field: FieldPath<F>): this {
    return this.where(field, 'null');
  }
  /** On /exnodes, `parent`: the exnodes in the subtree of a directory, given by its id or address (UNIS's `recfind=`). */
  recfind<K extends FieldPath<F>>(field: K, directory: string): this {
    return this.where(field, 'recfind', directory as ValueAt<F, K>);
  }
  /** The field is present (JSON null counts), or with `false` absent: UNIS HEAD's `$exists`. */
  exists(field: FieldPath<F>, present = true): this {
    return this.where(field, 'exists', present);
  }
}

/** Builds alternatives for `Query.anyOf`: each call adds one term to an OR. */
export class Alternatives<F> extends Conditions<F> {
  /** @internal */
  readonly terms: Term[] = [];
  /** @internal */
  protected override add(term: Term): this {
    this.terms.push(term);
    return this;
  }
}

/**
 * A query in the service's query language, typed by the kind's fields `F` (path → value type).
 * Conditions added one after another are ANDed; `anyOf` makes an OR.
 *
 *     client.nodes.list((q) => q.eq('location.institution', 'IU').gt('ts', since).limit(100))
 */
export class Query<F> extends Conditions<F> {
  private readonly groups: Term[][] = [];
  private readonly options = new Map<string, string>();

  /** @internal */
  protected override add(term: Term): this {
    this.groups.push([term]);
    return this;
  }
  /** At least one of the terms built by `build` holds. */
  anyOf(build: (alternatives: Alternatives<F>) => Alternatives<F>): this {
    const { terms } = build(new Alternatives<F>());
    if (terms.length === 0) throw new RangeError('anyOf needs at least one term');
    this.groups.push(terms);
    return this;
  }
  /** Return only these fields (dot notation reaches nested ones). */
  fields(...paths: readonly ((keyof F & string) | (string & {}))[]): this {
    this.options.set('fields', paths.map((p) => encodeURIComponent(p)).join(','));
    return this;
  }
  /** Return every field except these (`fields=neg=…`, UNIS HEAD); instead of `fields`. */
  fieldsExcept(...paths: readonly ((keyof F & string) | (string & {}))[]): this {
    this.options.set('fields', `neg=${paths.map((p) => encodeURIComponent(p)).join(',')}`);
    return this;
  }
  /** At most this many; 0 is no limit (as MongoDB and UNIS read it). */
  limit(count: number): this {
    this.options.set('limit', String(nonNegative(count)));
    return this;
  }
  skip(count: number): this {
    this.options.set('skip', String(nonNegative(count)));
    return this;
  }
  /** Order by fields; 1 ascending, -1 descending. Without it, newest first (`ts`, then `id`, descending), also the tie-breaker. */
  sort(...keys: readonly (readonly [keyof F & string, 1 | -1])[]): this {
    this.options.set('sort', keys.map(([field, direction]) => `${encodeURIComponent(field)}:${direction}`).join(','));
    return this;
  }
  /** True when the query has conditions (not just paging or projection). */
  get hasConditions(): boolean {
    return this.groups.length > 0;
  }
  /** The query string, without the leading `?`. */
  override toString(): string {
    const parts = this.groups.map((terms) =>
      `${encodeURIComponent(terms[0]!.field)}=` + terms.map((term, i) => encodeTerm(term, i > 0)).join('|'),
    );
    for (const [name, value] of this.options) parts.push(`${name}=${value}`);
    return parts.join('&');
  }
}

function nonNegative(count: number): number {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`expected a non-negative integer, got ${count}`);
  return count;
}

export type QueryInput<F> = Query<F> | ((query: Query<F>) => Query<F>);

/** @internal The query `input` makes: none, a query, or a function that builds one. */
export function toQuery<F>(input: QueryInput<F> | undefined): Query<F> {
  if (input === undefined) return new Query<F>();
  return typeof input === 'function' ? input(new Query<F>()) : input;
}

/** @internal `query`'s string after `?`, or nothing when it is empty. */
export function suffix<F>(query: Query<F>): string {
  const text = query.toString();
  return text === '' ? '' : `?${text}`;
}

/** @internal `query`'s string with `name=value` added, after `?`. */
export function withParameters<F>(query: Query<F>, parameters: Readonly<Record<string, number | undefined>>): string {
  const parts = [query.toString(), ...Object.entries(parameters).flatMap(([name, value]) => (value === undefined ? [] : [`${name}=${value}`]))].filter((p) => p !== '');
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}
