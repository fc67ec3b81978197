import { QueryError } from './errors.js';
import type { QueryValue, Term, Condition as SyntaxCondition } from './syntax.js';
import type { Comparison, Condition, Predicate, Scalar, ScalarType, Target } from './tree.js';

/** What the schema says about a field (from the generated kind descriptor). */
export interface FieldInfo {
  readonly type: string;
  readonly arrays: readonly number[];
}

export type FieldTable = Readonly<Record<string, FieldInfo>>;

/** Fields that live in their own columns as well as in the document. */
const COLUMNS: ReadonlyMap<string, { readonly column: 'id' | 'ts'; readonly type: ScalarType }> = new Map([
  ['id', { column: 'id', type: 'string' }],
  ['ts', { column: 'ts', type: 'number' }],
] as const);
/** UNIS compares these as numbers even when untyped (docs/rest-interface.md). */
const NUMERIC_BY_CONVENTION = new Set(['ts', 'ttl']);
const NUMBER = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

const COMPARISONS: Record<Term['operator'], Comparison> = { eq: '=', lt: '<', lte: '<=', gt: '>', gte: '>=' };

interface Typed {
  readonly type: ScalarType;
  readonly value: Scalar;
}

/**
 * The type a value compares as: its explicit prefix; else the number convention of `ts`/`ttl`;
 * else the schema's type for the field when the text fits it; else a string.
 */
function typeValue(term: Term, value: QueryValue, field: FieldInfo | undefined): Typed {
  const path = term.field.join('.');
  if (value.type !== undefined) return { type: value.type === 'integer' ? 'number' : value.type, value: value.value };
  const text = String(value.value);
  const declared = field?.type;
  if (NUMERIC_BY_CONVENTION.has(path) || declared === 'integer' || declared === 'number') {
    if (NUMBER.test(text)) return { type: 'number', value: Number(text) };
    if (NUMERIC_BY_CONVENTION.has(path)) throw new QueryError(term.parameter, `"${term.parameter}": ${path} compares as a number; "${text}" is not one`);
  }
  if (declared === 'boolean' && (text === 'true' || text === 'false')) return { type: 'boolean', value: text === 'true' };
  return { type: 'string', value: text };
}

/** Where a field is looked up. Own members only: `__proto__` is a field name like any other. */
export function targetOf(field: readonly string[], fields: FieldTable): Target {
  const path = field.join('.');
  const column = COLUMNS.get(path);
  if (column) return { kind: 'column', column: column.column };
  const info = Object.hasOwn(fields, path) ? fields[path] : undefined;
  return info ? { kind: 'field', segments: field, arrays: info.arrays } : { kind: 'open', segments: field };
}

/** How a query is typed beyond its fields. */
export interface TypingOptions {
  /** `ts` is an integer column (versions, µs), so comparisons are made integral; false: a real number (data points). */
  readonly integralTs?: boolean;
}

/** One term as a predicate, or none when it can never hold (`ts` compared with a string). */
function predicate(term: Term, fields: FieldTable, options: TypingOptions): Predicate | undefined {
  const path = term.field.join('.');
  const info = Object.hasOwn(fields, path) ? fields[path] : undefined;
  const typed = term.values.map((v) => typeValue(term, v, info));
  const type = typed[0]?.type ?? 'string';
  if (typed.some((t) => t.type !== type)) {
    throw new QueryError(term.parameter, `"${term.parameter}": the values of one list must have one type`);
  }
  if (type === 'boolean' && term.operator !== 'eq') {
    throw new QueryError(term.parameter, `"${term.parameter}": booleans can only be compared for equality`);
  }
  const target = targetOf(term.field, fields);
  if (target.kind === 'column' && COLUMNS.get(path)!.type !== type) return undefined;
  const comparison = term.operator === 'eq' && typed.length > 1 ? 'IN' : COMPARISONS[term.operator];
  const values = typed.map((t) => t.value);
  return target.kind === 'column' && target.column === 'ts' && options.integralTs !== false ? integral(target, comparison, values as number[]) : { target, comparison, type, values };
}

/**
 * A comparison of the integer `ts` column with integers only, the same relation: `ts < 0.5` is
 * `ts < 1`, `ts = 0.5` holds for none. (PostgreSQL would refuse "0.5" or "1e+300" as a bigint.)
 */
function integral(target: Target, comparison: Comparison, values: readonly number[]): Predicate | undefined {
  // Safe integers only: 1e+300 is an integer to JavaScript, but no ts, and no bigint either.
  const whole = values.filter(Number.isSafeInteger);
  const [value] = values;
  const round = comparison === '<' || comparison === '>=' ? Math.ceil : Math.floor;
  if (comparison === '=' || comparison === 'IN') return whole.length === 0 ? undefined : { target, comparison: whole.length > 1 ? 'IN' : '=', type: 'number', values: whole };
  // Beyond ±2^53 lies no ts: clamped, the relation to every stored one is the same, and it binds.
  const bound = Math.min(Number.MAX_SAFE_INTEGER, Math.max(-Number.MAX_SAFE_INTEGER, round(value!)));
  return { target, comparison, type: 'number', values: [bound] };
}

/** The conditions of a query, typed by the kind's fields. */
export function typeConditions(conditions: readonly SyntaxCondition[], fields: FieldTable, options: TypingOptions = {}): Condition[] {
  return conditions.map((condition) => ({
    anyOf: condition.terms.flatMap((term) => {
      const typed = term.values.length === 0 ? undefined : predicate(term, fields, options);
      return typed ? [typed] : [];
    }),
  }));
}
