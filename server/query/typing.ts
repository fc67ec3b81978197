import { QUERY_OPERATORS, type QueryOperator } from '../../generated/rest/contract.js';
import { QueryError } from './errors.js';
import type { Operator, QueryValue, Term, Condition as SyntaxCondition } from './syntax.js';
import { checkPattern, PatternRefused } from './regex.js';
import type { Comparison, Condition, Predicate, Scalar, ScalarType, Target, Test } from './tree.js';

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
/**
 * Operators that order: an untyped value that reads as a (finite) number compares as a number
 * whatever the field (rest-contract §5, revised 2026-11-28: UNIS HEAD turned every comparison
 * value into a number, so `properties.rank=gte=100` finds ranks of 100 and more); `string:`
 * still forces a string.
 */
const ORDERING: ReadonlySet<Operator> = new Set((Object.keys(QUERY_OPERATORS) as QueryOperator[]).filter((operator) => QUERY_OPERATORS[operator].orders));

/** The operators that are one comparison of the condition tree. */
type Compared = 'eq' | 'lt' | 'lte' | 'gt' | 'gte';
const COMPARISONS: Record<Compared, Comparison> = { eq: '=', lt: '<', lte: '<=', gt: '>', gte: '>=' };
/** The only field and collection `recfind=` is defined on: a folder's subtree of exnodes. */
const RECFIND = { collection: 'exnodes', field: 'parent' };

interface Typed {
  readonly type: ScalarType;
  readonly value: Scalar;
}

/**
 * The type a value compares as: its explicit prefix; else a number in an ordering comparison
 * when the text reads as one; else the number convention of `ts`/`ttl`; else the schema's type
 * for the field when the text fits it; else a string.
 */
function typeValue(term: Term, value: QueryValue, field: FieldInfo | undefined): Typed {
  const path = term.field.join('.');
  if (value.type !== undefined) return { type: value.type === 'integer' ? 'number' : value.type, value: value.value };
  const text = String(value.value);
  if (ORDERING.has(term.operator) && NUMBER.test(text) && Number.isFinite(Number(text))) return { type: 'number', value: Number(text) };
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
  /** The collection asked, where `recfind=` is defined (exnodes); none: nowhere. */
  readonly collection?: string;
  /** The conditions are matched in memory, against changes (event streams): no `recfind=`. */
  readonly inMemory?: boolean;
}

/**
 * One term as a test, or none when it can never hold (`ts` compared with a string). UNIS's
 * operators (rest-contract §5) follow the typing of the others: a prefix decides a value's
 * type, else `ts`/`ttl` are numbers, else the schema's type when the text fits it.
 */
function test(term: Term, fields: FieldTable, options: TypingOptions): Test | undefined {
  const target = targetOf(term.field, fields);
  switch (term.operator) {
    case 'reg': {
      const [value] = term.values;
      if (value!.type !== undefined && value!.type !== 'string') throw new QueryError(term.parameter, `"${term.parameter}": reg= matches strings; a ${value!.type} is no pattern`);
      try {
        return { target, comparison: 'MATCHES', ...checkPattern(String(value!.value)) };
      } catch (error) {
        if (error instanceof PatternRefused) throw new QueryError(term.parameter, `"${term.parameter}": ${error.message}`);
        throw error;
      }
    }
    case 'null':
      return target.kind === 'column' ? undefined : { target, comparison: 'NULL' };
    case 'exists':
      // The parser made the switch a boolean. Only the lists on the way are searched (tree.ts Presence).
      return {
        target: target.kind === 'field' ? { ...target, arrays: target.arrays.filter((position) => position < target.segments.length - 1) } : target,
        comparison: 'EXISTS',
        present: term.values[0]!.value === true,
      };
    case 'not': {
      const of = predicate({ ...term, operator: 'eq' }, fields, options);
      return { target, comparison: 'NOT', ...(of ? { of: of.type === 'string' ? { ...of, fold: true } : of } : {}) };
    }
    case 'numeq': {
      const [value] = term.values;
      const text = String(value!.value);
      const number = value!.type === 'number' || value!.type === 'integer' ? (value!.value as number) : value!.type === undefined && NUMBER.test(text) ? Number(text) : undefined;
      if (number === undefined) throw new QueryError(term.parameter, `"${term.parameter}": eq= compares numbers; "${text}" is not one`);
      return predicate({ ...term, operator: 'eq', values: [{ value: number, type: 'number' }] }, fields, options);
    }
    case 'recfind': {
      if (options.collection !== RECFIND.collection || term.field.join('.') !== RECFIND.field) {
        throw new QueryError(term.parameter, `"${term.parameter}": recfind= is asked of ${RECFIND.field} on /${RECFIND.collection} (a folder's subtree)`);
      }
      if (options.inMemory) throw new QueryError(term.parameter, `"${term.parameter}": recfind= reads other resources, so it selects no changes of an event stream`);
      // The directory's id, or its address (the id is what follows the last `/`).
      const text = String(term.values[0]!.value);
      let root: string;
      try {
        root = decodeURIComponent(text.slice(text.lastIndexOf('/') + 1));
      } catch {
        throw new QueryError(term.parameter, `"${term.parameter}": recfind= takes a directory's id or address`);
      }
      return { target: targetOf([RECFIND.field, 'href'], fields), comparison: 'RECFIND', collection: RECFIND.collection, root };
    }
    case 'eq':
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
      return predicate({ ...term, operator: term.operator }, fields, options);
    default: {
      // An operator of the contract table (generator/model/http.ts) that typing does not know yet.
      const unknown: never = term.operator;
      throw new Error(`the operator ${String(unknown)} is in the contract table but not typed`);
    }
  }
}

/** One comparison (`=`, IN, `<`…) as a predicate, or none when it can never hold. */
function predicate(term: Term & { readonly operator: Compared }, fields: FieldTable, options: TypingOptions): Predicate | undefined {
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
      const typed = term.values.length === 0 ? undefined : test(term, fields, options);
      return typed ? [typed] : [];
    }),
  }));
}
