// Compiled from generated/client/rest-query.ts by npm run generate; do not edit. source 5bb0b2f4fd9d7b634f34e6ba1501931c9129adf9243eeb309dcd1c56692e8d62 output 4a5f39b3c065f2c23ac6284fa5cf73bd22a324b8a5ad4c454f9f3ee904d58b8f
import { QUERY_OPERATORS, type QueryOperator } from '../rest/contract.js';
type Scalar = string | number | boolean;
/** One term: a field equal to any of the values (no operator), or an operator of the contract table and what it takes. */
interface Term {
    readonly field: string;
    readonly operator?: QueryOperator;
    readonly values: readonly Scalar[];
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
export declare abstract class Conditions<F> {
    /** @internal */
    protected abstract add(term: Term): this;
    /** Field equals the value, or (given an array) any of the values. */
    eq<K extends keyof F & string>(field: K, value: F[K] | readonly F[K][]): this;
    /**
     * The operator `operator` of the contract table on `field` (rest-contract §5: `field=<prefix>=value`),
     * with what it takes: `where('ts', 'gt', since)`, `where('name', 'reg', '^depot')`,
     * `where('urn', 'exists', false)`, `where('description', 'null')`.
     */
    where<K extends FieldPath<F>, O extends QueryOperator>(field: K, operator: O, ...operand: Operand<ValueAt<F, K>, O>): this;
    /** Less than. */
    lt<K extends keyof F & string>(field: K, value: F[K]): this;
    /** Less than or equal. */
    lte<K extends keyof F & string>(field: K, value: F[K]): this;
    /** Greater than. */
    gt<K extends keyof F & string>(field: K, value: F[K]): this;
    /** Greater than or equal. */
    gte<K extends keyof F & string>(field: K, value: F[K]): this;
    /** A string that matches a regular expression (RE2), whatever its letter case (UNIS's `reg=`). */
    reg<K extends keyof F & string>(field: K, pattern: string): this;
    /** Not equal; strings compared whatever their letter case (UNIS's `not=`). */
    not<K extends keyof F & string>(field: K, value: F[K]): this;
    /** Numerically equal: the value read as a number (UNIS's `eq=`). */
    numeq<K extends keyof F & string>(field: K, value: F[K]): this;
    /** The field is JSON null or absent (UNIS's `null=`). */
    null(field: FieldPath<F>): this;
    /** On /exnodes, `parent`: the exnodes in the subtree of a directory, given by its id or address (UNIS's `recfind=`). */
    recfind<K extends FieldPath<F>>(field: K, directory: string): this;
    /** The field is present (JSON null counts), or with `false` absent: UNIS HEAD's `$exists`. */
    exists(field: FieldPath<F>, present?: boolean): this;
}
/** Builds alternatives for `Query.anyOf`: each call adds one term to an OR. */
export declare class Alternatives<F> extends Conditions<F> {
    /** @internal */
    readonly terms: Term[];
    /** @internal */
    protected add(term: Term): this;
}
/**
 * A query in the service's query language, typed by the kind's fields `F` (path → value type).
 * Conditions added one after another are ANDed; `anyOf` makes an OR.
 *
 *     client.nodes.list((q) => q.eq('location.institution', 'IU').gt('ts', since).limit(100))
 */
export declare class Query<F> extends Conditions<F> {
    private readonly groups;
    private readonly options;
    /** @internal */
    protected add(term: Term): this;
    /** At least one of the terms built by `build` holds. */
    anyOf(build: (alternatives: Alternatives<F>) => Alternatives<F>): this;
    /** Return only these fields (dot notation reaches nested ones). */
    fields(...paths: readonly ((keyof F & string) | (string & {}))[]): this;
    /** Return every field except these (`fields=neg=…`, UNIS HEAD); instead of `fields`. */
    fieldsExcept(...paths: readonly ((keyof F & string) | (string & {}))[]): this;
    /** At most this many; 0 is no limit (as MongoDB and UNIS read it). */
    limit(count: number): this;
    skip(count: number): this;
    /** Order by fields; 1 ascending, -1 descending. Without it, newest first (`ts`, then `id`, descending), also the tie-breaker. */
    sort(...keys: readonly (readonly [keyof F & string, 1 | -1])[]): this;
    /** True when the query has conditions (not just paging or projection). */
    get hasConditions(): boolean;
    /** The query string, without the leading `?`. */
    toString(): string;
}
export type QueryInput<F> = Query<F> | ((query: Query<F>) => Query<F>);
/** @internal The query `input` makes: none, a query, or a function that builds one. */
export declare function toQuery<F>(input: QueryInput<F> | undefined): Query<F>;
/** @internal `query`'s string after `?`, or nothing when it is empty. */
export declare function suffix<F>(query: Query<F>): string;
/** @internal `query`'s string with `name=value` added, after `?`. */
export declare function withParameters<F>(query: Query<F>, parameters: Readonly<Record<string, number | undefined>>): string;
export {};
