import { RE2JS } from 're2js';
import { QueryError } from './errors.js';
import { parseField } from './parse.js';
import type { EventCondition, Pattern, Predicate, Scalar, ScalarType } from './tree.js';
import { targetOf, type FieldTable } from './typing.js';

/** The longest `reg` accepted: RE2 compiles in time and space linear in it, but not for free. */
const MAX_PATTERN = 1_000;
const MAX_KEYS = 64;
const MAX_IN = 1_000;

const ORDER: Record<string, Predicate['comparison']> = { gt: '>', gte: '>=', lt: '<', lte: '<=' };

function scalarType(value: unknown): ScalarType | undefined {
  return typeof value === 'string' ? 'string' : typeof value === 'number' && Number.isFinite(value) ? 'number' : typeof value === 'boolean' ? 'boolean' : undefined;
}

/** A regular expression of RE2's syntax, which has no construct that needs backtracking. */
function pattern(key: string, source: unknown, field: readonly string[], fields: FieldTable): Pattern {
  if (typeof source !== 'string' || source.length > MAX_PATTERN) throw new QueryError(key, `"${key}": reg takes a regular expression of at most ${MAX_PATTERN} characters`);
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(source);
  } catch (error) {
    // Backreferences and lookaround are not RE2: they are refused here, never run.
    throw new QueryError(key, `"${key}": reg ${JSON.stringify(source.slice(0, 100))} is not a regular expression this service runs (RE2 syntax: ${(error as Error).message})`);
  }
  return { target: targetOf(field, fields), comparison: 'MATCHES', source, test: (text) => compiled.test(text) };
}

/**
 * A UNIS subscription query (docs/subscriptions.md) as conditions for the
 * matcher: each key a dotted path; a scalar is equality; an object holds operators `gt`, `gte`,
 * `lt`, `lte`, `equal`, `in` (a list) and `reg` (RE2), all of which must hold. Values compare
 * with their own JSON type. Anything else is a QueryError naming the key.
 */
export function subscriptionConditions(query: unknown, fields: FieldTable): EventCondition[] {
  if (query === null || typeof query !== 'object' || Array.isArray(query)) throw new QueryError('query', 'a subscription query is a JSON object');
  const entries = Object.entries(query);
  if (entries.length > MAX_KEYS) throw new QueryError('query', `a subscription query has at most ${MAX_KEYS} keys`);
  const conditions: EventCondition[] = [];
  for (const [key, value] of entries) {
    const field = parseField(key, key);
    const target = targetOf(field, fields);
    const compare = (comparison: Predicate['comparison'], operand: unknown): Predicate => {
      const type = scalarType(operand);
      if (type === undefined) throw new QueryError(key, `"${key}": compares with a string, a number or a boolean`);
      if (type === 'boolean' && comparison !== '=') throw new QueryError(key, `"${key}": booleans can only be compared for equality`);
      return { target, comparison, type, values: [operand as Scalar] };
    };
    if (value === null || typeof value !== 'object') {
      conditions.push({ anyOf: [compare('=', value)] });
      continue;
    }
    if (Array.isArray(value)) throw new QueryError(key, `"${key}": a list is no value; use {"in": [...]}`);
    const operators = Object.entries(value);
    if (operators.length === 0) throw new QueryError(key, `"${key}": an object of operators needs at least one`);
    for (const [operator, operand] of operators) {
      if (operator === 'equal') conditions.push({ anyOf: [compare('=', operand)] });
      else if (Object.hasOwn(ORDER, operator)) conditions.push({ anyOf: [compare(ORDER[operator]!, operand)] });
      else if (operator === 'reg') conditions.push({ anyOf: [pattern(key, operand, field, fields)] });
      else if (operator === 'in') {
        if (!Array.isArray(operand) || operand.length > MAX_IN) throw new QueryError(key, `"${key}": in takes a list of at most ${MAX_IN} values`);
        // One IN per type: a list may mix them, as a Python list did.
        const byType = new Map<ScalarType, Scalar[]>();
        for (const item of operand) {
          const type = compare('=', item).type;
          (byType.get(type) ?? byType.set(type, []).get(type)!).push(item as Scalar);
        }
        conditions.push({ anyOf: [...byType].map(([type, values]): Predicate => ({ target, comparison: values.length > 1 ? 'IN' : '=', type, values })) });
      } else {
        throw new QueryError(key, `"${key}": unknown operator "${operator.slice(0, 40)}" (gt, gte, lt, lte, equal, in, reg)`);
      }
    }
  }
  return conditions;
}
