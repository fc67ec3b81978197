import { compareStrings, type EventCondition, type Pattern, type Predicate, type Scalar, type ScalarType, type Target, type Test } from './tree.js';

/** A resource as the matcher sees it: its key members and its parsed document. */
export interface Candidate {
  readonly id: string;
  readonly ts: number;
  readonly document: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The value at `segments`, stepping only into objects (a segment never indexes a list), as
 * SQLite's `json_extract` with a `$."a"."b"` path reads it.
 */
function at(value: unknown, segments: readonly string[], from = 0, to = segments.length): unknown {
  let current = value;
  for (let i = from; i < to; i++) {
    if (!isObject(current) || !Object.hasOwn(current, segments[i]!)) return undefined;
    current = current[segments[i]!];
  }
  return current;
}

function jsonType(value: unknown): ScalarType | 'other' {
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      return 'other';
  }
}

function order(a: Scalar, b: Scalar): number {
  if (typeof a === 'string') return compareStrings(a, b as string);
  if (typeof a === 'number') return a < (b as number) ? -1 : a > (b as number) ? 1 : 0;
  return a === b ? 0 : a ? 1 : -1;
}

/** ASCII letters in lower case, the rest as it is: what `not=` compares (as SQLite's lower()). */
export const foldAscii = (text: string): string => text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());

/** A scalar that holds the predicate: of its type, and in the relation it names. */
function holds(value: unknown, predicate: Predicate | Pattern): boolean {
  if (predicate.comparison === 'MATCHES') return typeof value === 'string' && predicate.test(value);
  if (jsonType(value) !== predicate.type) return false;
  const scalar = value as Scalar;
  const [first] = predicate.values;
  switch (predicate.comparison) {
    case '=':
      return predicate.fold ? foldAscii(scalar as string) === foldAscii(first as string) : order(scalar, first!) === 0;
    case 'IN':
      return predicate.values.some((v) => order(scalar, v) === 0);
    case '<':
      return order(scalar, first!) < 0;
    case '<=':
      return order(scalar, first!) <= 0;
    case '>':
      return order(scalar, first!) > 0;
    case '>=':
      return order(scalar, first!) >= 0;
  }
}

/** Search through the lists at `arrays` on the way to the end of `segments` (UNIS's Mongo semantics). */
function along(value: unknown, segments: readonly string[], from: number, arrays: readonly number[], predicate: Predicate | Pattern): boolean {
  const [first, ...later] = arrays;
  if (first === undefined) return holds(at(value, segments, from), predicate);
  const list = at(value, segments, from, first + 1);
  return Array.isArray(list) && list.some((element) => along(element, segments, first + 1, later, predicate));
}

function satisfies(candidate: Candidate, test: Test): boolean {
  switch (test.comparison) {
    case 'NOT':
      return test.of === undefined || !satisfies(candidate, test.of);
    case 'NULL':
      return test.target.kind !== 'column' && (at(candidate.document, test.target.segments) ?? null) === null;
    case 'EXISTS':
      return present(candidate.document, test.target) === test.present;
    case 'RECFIND':
      // Typing refuses it where changes are matched (it reads other resources).
      throw new Error('recfind= is not evaluated in memory');
    case 'MATCHES':
    case '=':
    case 'IN':
    case '<':
    case '<=':
    case '>':
    case '>=':
      return reaches(candidate, test);
    default: {
      // A test of the condition tree (tree.ts) that the matcher does not evaluate yet.
      const unknown: never = test;
      throw new Error(`no match for the test ${JSON.stringify(unknown)}`);
    }
  }
}

/** A value (JSON null included) is at the target, through the lists on the way (tree.ts Presence). */
function present(document: unknown, target: Target): boolean {
  if (target.kind === 'column') return true;
  const walk = (value: unknown, from: number, arrays: readonly number[]): boolean => {
    const [first, ...later] = arrays;
    if (first === undefined) return at(value, target.segments, from) !== undefined;
    const list = at(value, target.segments, from, first + 1);
    return Array.isArray(list) && list.some((element) => walk(element, first + 1, later));
  };
  return walk(document, 0, target.kind === 'field' ? target.arrays : []);
}

function reaches(candidate: Candidate, predicate: Predicate | Pattern): boolean {
  const { target } = predicate;
  switch (target.kind) {
    case 'column':
      return holds(candidate[target.column], predicate);
    case 'field':
      return along(candidate.document, target.segments, 0, target.arrays, predicate);
    case 'open': {
      const value = at(candidate.document, target.segments);
      return holds(value, predicate) || (Array.isArray(value) && value.some((element) => holds(element, predicate)));
    }
  }
}

/**
 * The in-memory evaluator of typed conditions, for events: a resource matches when every
 * condition has a predicate it satisfies. It answers exactly as the SQL compiler's WHERE clause
 * does on either engine (test/query/equivalence.test.ts checks that on random documents and
 * queries).
 */
export function matches(candidate: Candidate, conditions: readonly EventCondition[]): boolean {
  return conditions.every((condition) => condition.anyOf.some((predicate) => satisfies(candidate, predicate)));
}

/**
 * The scalars a field target reaches in a document, as the matcher searches them: the value at
 * the path (through the lists the schema declares), or for an open field the value and the
 * elements of a list there. An equality on the target holds exactly when one of them is equal.
 */
export function reachable(document: unknown, target: Exclude<Target, { kind: 'column' }>): Scalar[] {
  const found: Scalar[] = [];
  const keep = (value: unknown): void => {
    if (jsonType(value) !== 'other') found.push(value as Scalar);
  };
  const walk = (value: unknown, from: number, arrays: readonly number[]): void => {
    const [first, ...later] = arrays;
    if (first === undefined) return keep(at(value, target.segments, from));
    const list = at(value, target.segments, from, first + 1);
    if (Array.isArray(list)) for (const element of list) walk(element, first + 1, later);
  };
  if (target.kind === 'field') {
    walk(document, 0, target.arrays);
  } else {
    const value = at(document, target.segments);
    keep(value);
    if (Array.isArray(value)) value.forEach(keep);
  }
  return found;
}
