/**
 * The UNIS query language (rest-contract §5), parsed from the raw query string into a small
 * tree. No SQL here: query-sql.ts compiles the tree for a dialect.
 *
 * The grammar splits on raw `&`, `=`, `|` and `,` before percent-decoding, so a client can put
 * any of those characters inside a value by escaping it (`%2C`, `%7C`, `%3D`).
 */

export type ValueType = 'string' | 'number' | 'integer' | 'boolean';
export type Operator = 'eq' | 'lt' | 'lte' | 'gt' | 'gte';

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

export interface ParsedQuery {
  readonly conditions: readonly Condition[];
  readonly fields?: readonly (readonly string[])[];
  readonly limit?: number;
  readonly skip?: number;
  readonly sort: readonly SortKey[];
}

/** A malformed query; `parameter` names the offending query parameter. */
export class QueryError extends Error {
  constructor(
    readonly parameter: string,
    message: string,
  ) {
    super(message);
    this.name = 'QueryError';
  }
}

/** Segments of a field path; the same set the SQL compiler may write as literals. */
const SEGMENT = /^[A-Za-z0-9_$@:-]+$/;
const MAX_SEGMENTS = 16;
const MAX_PAGE = 2 ** 31 - 1;
const OPERATOR = /^(lte|lt|gte|gt)=/;
const TYPED = /^(number|integer|boolean|string):/;
const RESERVED = new Set(['fields', 'limit', 'skip', 'sort']);

function decode(raw: string, parameter: string): string {
  let text: string;
  try {
    text = decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    throw new QueryError(parameter, `"${parameter}" has a malformed percent-encoding`);
  }
  // Bodies may not hold NUL either (no PostgreSQL string can), so such a value could never
  // match; refusing it keeps every engine's answer the same.
  if (text.includes('\u0000')) throw new QueryError(parameter, `"${parameter}" contains NUL (%00)`);
  return text;
}

export function parseField(text: string, parameter: string): string[] {
  const segments = text.split('.');
  if (text === '' || segments.some((s) => s === '')) throw new QueryError(parameter, `"${parameter}": empty field name`);
  if (segments.length > MAX_SEGMENTS) throw new QueryError(parameter, `"${parameter}": field path deeper than ${MAX_SEGMENTS}`);
  for (const segment of segments) {
    if (!SEGMENT.test(segment)) {
      throw new QueryError(parameter, `"${parameter}": field names may hold only letters, digits and _ $ @ : -`);
    }
  }
  return segments;
}

function parseValue(text: string, parameter: string): QueryValue {
  const typed = TYPED.exec(text);
  if (!typed) return { value: text };
  const type = typed[1] as ValueType;
  const literal = text.slice(typed[0].length);
  switch (type) {
    case 'string':
      return { value: literal, type };
    case 'integer':
      if (/^-?\d{1,16}$/.test(literal) && Number.isSafeInteger(Number(literal))) return { value: Number(literal), type };
      throw new QueryError(parameter, `"${parameter}": "${literal}" is not an integer`);
    case 'number':
      if (/^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(literal) && Number.isFinite(Number(literal))) return { value: Number(literal), type };
      throw new QueryError(parameter, `"${parameter}": "${literal}" is not a number`);
    case 'boolean':
      if (literal === 'true' || literal === '1') return { value: true, type };
      if (literal === 'false' || literal === '0') return { value: false, type };
      throw new QueryError(parameter, `"${parameter}": "${literal}" is not a boolean (true, false, 1 or 0)`);
  }
}

function parseTerm(field: string[], raw: string, parameter: string): Term {
  const operatorMatch = OPERATOR.exec(raw);
  const operator: Operator = operatorMatch ? (operatorMatch[1] as Operator) : 'eq';
  const rest = operatorMatch ? raw.slice(operatorMatch[0].length) : raw;
  const items = rest.split(',');
  if (operator !== 'eq' && items.length > 1) {
    throw new QueryError(parameter, `"${parameter}": a ${operator} comparison takes one value`);
  }
  return { field, operator, values: items.map((item) => parseValue(decode(item, parameter), parameter)), parameter };
}

function parseCondition(key: string, raw: string): Condition {
  const [first = '', ...others] = raw.split('|');
  const terms = [parseTerm(parseField(key, key), first, key)];
  for (const other of others) {
    const equals = other.indexOf('=');
    if (equals <= 0) throw new QueryError(key, `"${key}": each term after | must be field=value`);
    const field = decode(other.slice(0, equals), key);
    terms.push(parseTerm(parseField(field, key), other.slice(equals + 1), key));
  }
  return { terms };
}

function parseCount(raw: string, parameter: string): number {
  const text = decode(raw, parameter);
  if (!/^\d{1,10}$/.test(text) || Number(text) > MAX_PAGE) {
    throw new QueryError(parameter, `"${parameter}" must be a non-negative integer`);
  }
  return Number(text);
}

function parseSort(raw: string): SortKey[] {
  return raw.split(',').map((item) => {
    const [field = '', direction = '1', extra] = decode(item, 'sort').split(':');
    if (extra !== undefined || (direction !== '1' && direction !== '-1')) {
      throw new QueryError('sort', '"sort" takes field:1 or field:-1, comma-separated');
    }
    return { field: parseField(field, 'sort'), descending: direction === '-1' };
  });
}

/** Parse a raw query string (without `?`). */
export function parseQuery(queryString: string, maxParameters: number): ParsedQuery {
  const pairs = queryString.split('&').filter((p) => p !== '');
  if (pairs.length > maxParameters) {
    throw new QueryError('query', `at most ${maxParameters} query parameters are accepted`);
  }
  const conditions: Condition[] = [];
  const sort: SortKey[] = [];
  let fields: string[][] | undefined;
  let limit: number | undefined;
  let skip: number | undefined;
  for (const pair of pairs) {
    const equals = pair.indexOf('=');
    const key = decode(equals < 0 ? pair : pair.slice(0, equals), 'query');
    const raw = equals < 0 ? '' : pair.slice(equals + 1);
    if (!RESERVED.has(key)) {
      conditions.push(parseCondition(key, raw));
      continue;
    }
    if (key === 'fields') fields = raw.split(',').map((f) => parseField(decode(f, 'fields'), 'fields'));
    else if (key === 'limit') limit = parseCount(raw, 'limit');
    else if (key === 'skip') skip = parseCount(raw, 'skip');
    else sort.push(...parseSort(raw));
  }
  return { conditions, sort, ...(fields ? { fields } : {}), ...(limit !== undefined ? { limit } : {}), ...(skip !== undefined ? { skip } : {}) };
}

/**
 * The `ts` of `GET /<c>/<id>?ts=T`: set when the only condition is `ts` equal to one integer.
 * Any other use of `ts` is an ordinary condition over the resource's versions.
 */
export function versionSelector(query: ParsedQuery): number | undefined {
  if (query.conditions.length !== 1) return undefined;
  const [term, ...others] = query.conditions[0]!.terms;
  if (others.length > 0 || !term || term.field.join('.') !== 'ts' || term.operator !== 'eq' || term.values.length !== 1) return undefined;
  const { value, type } = term.values[0]!;
  if (type === undefined && typeof value === 'string' && /^\d{1,16}$/.test(value)) return Number(value);
  if (type === 'integer' && typeof value === 'number') return value;
  return undefined;
}

/** Keep only `fields` of a document (dot notation; arrays on the way are mapped element-wise). */
export function project(document: unknown, fields: readonly (readonly string[])[]): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const path of fields) copyPath(document, path, result);
  return result;
}

function copyPath(source: unknown, path: readonly string[], target: Record<string, unknown>): void {
  if (source === null || typeof source !== 'object' || Array.isArray(source)) return;
  const [head, ...rest] = path as [string, ...string[]];
  if (!Object.prototype.hasOwnProperty.call(source, head)) return;
  const value = (source as Record<string, unknown>)[head];
  if (rest.length === 0) {
    defineMember(target, head, value);
  } else if (Array.isArray(value)) {
    const existing = target[head];
    const list = Array.isArray(existing) ? existing : value.map(() => ({}));
    value.forEach((element, i) => copyPath(element, rest, list[i] as Record<string, unknown>));
    defineMember(target, head, list);
  } else if (value !== null && typeof value === 'object') {
    const existing = target[head];
    const child = existing !== null && typeof existing === 'object' && !Array.isArray(existing) ? (existing as Record<string, unknown>) : {};
    copyPath(value, rest, child);
    if (Object.keys(child).length > 0) defineMember(target, head, child);
  }
}

/** Own data property even for a key such as `__proto__`: plain assignment would set the prototype. */
function defineMember(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
