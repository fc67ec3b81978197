/**
 * The UNIS query language (docs/rest-interface.md), parsed from the raw query string into its syntax
 * tree (syntax.ts). Typing (typing.ts) then gives it meaning; the SQL compiler of storage and the
 * matcher of events (match.ts) evaluate the typed tree.
 *
 * As in UNIS (Tornado), each `key=value` pair is percent-decoded first and the grammar is applied
 * to the decoded text, so `%3D`, `%2C` and `%7C` are the operators `=`, `,` and `|`: clients
 * build query strings with their HTTP library's encoder (dlt-web sends `ts=gt%3D<µs>`). A
 * literal `,` or `|` inside a value cannot be expressed, exactly as in UNIS.
 */

import { QUERY_OPERATORS, RESERVED_PARAMETERS, VALUE_TYPES, type QueryOperator, type ReservedParameter } from '../../generated/rest/contract.js';
import { QueryError } from './errors.js';
import type { Condition, ParsedQuery, Projection, QueryScope, QueryValue, SortKey, Term, ValueType } from './syntax.js';

/** Segments of a field path; the same set the SQL compiler may write as literals. */
const SEGMENT = /^[A-Za-z0-9_$@:-]+$/;
const MAX_SEGMENTS = 16;
const MAX_PAGE = 2 ** 31 - 1;
/**
 * Sort keys of one query. Each becomes one or two ORDER BY expressions (and PostgreSQL selects
 * them too): 2,000 keys passed SQLite's ORDER BY limit (2,000 terms) and PostgreSQL's target list
 * limit (1,664 entries), a 500 on both; no client sorts by more than a few fields.
 */
export const MAX_SORT_KEYS = 32;
/** The operators and typed values of the contract table (generator/model/http.ts): `a=<prefix>=v`, `<type>:v`. */
const OPERATORS: ReadonlyMap<string, QueryOperator> = new Map(Object.entries(QUERY_OPERATORS).map(([operator, { prefix }]) => [prefix, operator as QueryOperator]));
const OPERATOR = new RegExp(`^(${[...OPERATORS.keys()].join('|')})=`);
const TYPED = new RegExp(`^(${VALUE_TYPES.join('|')}):`, 'i');
/**
 * Parameters that are never conditions (besides `ts` of a single resource), from the contract
 * table. `access_token` is a credential (RFC 6750 §2.3, for browsers' event streams), read by
 * the authentication; `federate` is a lookup's (docs/federation.md).
 */
const RESERVED: ReadonlySet<string> = new Set(RESERVED_PARAMETERS);
const TRUE = /^(true|1)$/i;
const FALSE = /^(false|0)$/i;
/** `fields=neg=a,b`: every field except those (UNIS HEAD; rest-contract §5, revised 2026-11-29). */
const EXCEPT = 'neg=';

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
  const type = typed[1]!.toLowerCase() as ValueType;
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
      // Any letter case, as UNIS read it.
      if (TRUE.test(literal)) return { value: true, type };
      if (FALSE.test(literal)) return { value: false, type };
      throw new QueryError(parameter, `"${parameter}": "${literal}" is not a boolean (true, false, 1 or 0)`);
    default: {
      const unknown: never = type;
      throw new Error(`the typed value ${String(unknown)}: is in the contract table but not parsed`);
    }
  }
}

/** `value`, `op=value` or `v1,v2,…` of one field: the text is already decoded. */
function parseTerm(field: string[], text: string, parameter: string): Term {
  const operatorMatch = OPERATOR.exec(text);
  if (!operatorMatch) return { field, operator: 'eq', values: text.split(',').map((item) => parseValue(item, parameter)), parameter };
  const prefix = operatorMatch[1]!;
  const operator = OPERATORS.get(prefix)!;
  const rest = text.slice(operatorMatch[0].length);
  const takes = QUERY_OPERATORS[operator].takes;
  switch (takes) {
    // A pattern is taken whole: `reg=a{1,3}` is one expression, not a list.
    case 'text':
      return { field, operator, values: [parseValue(rest, parameter)], parameter };
    case 'nothing':
      if (rest !== '') throw new QueryError(parameter, `"${parameter}": ${prefix}= takes no value (a=${prefix}=)`);
      return { field, operator, values: [{ value: '' }], parameter };
    case 'value':
      if (rest.includes(',')) throw new QueryError(parameter, `"${parameter}": a ${prefix} comparison takes one value`);
      return { field, operator, values: [parseValue(rest, parameter)], parameter };
    // `exists=true`: as UNIS's booleans, any letter case, or 1 and 0.
    case 'switch':
      if (TRUE.test(rest)) return { field, operator, values: [{ value: true, type: 'boolean' }], parameter };
      if (FALSE.test(rest)) return { field, operator, values: [{ value: false, type: 'boolean' }], parameter };
      throw new QueryError(parameter, `"${parameter}": ${prefix}= takes true or false, not "${rest}"`);
    default: {
      const unknown: never = takes;
      throw new Error(`an operator that takes ${String(unknown)}`);
    }
  }
}

/** `key=value`, where the value may continue with `|field=value` terms (OR). */
function parseCondition(key: string, text: string): Condition {
  const [first = '', ...others] = text.split('|');
  const terms = [parseTerm(parseField(key, key), first, key)];
  for (const other of others) {
    const equals = other.indexOf('=');
    if (equals <= 0) throw new QueryError(key, `"${key}": each term after | must be field=value`);
    terms.push(parseTerm(parseField(other.slice(0, equals), key), other.slice(equals + 1), key));
  }
  return { terms };
}

function parseCount(text: string, parameter: string): number {
  if (!/^\d{1,10}$/.test(text) || Number(text) > MAX_PAGE) {
    throw new QueryError(parameter, `"${parameter}" must be a non-negative integer`);
  }
  return Number(text);
}

/** `fields=a,b`, or `fields=neg=a,b` for every field except those. */
function parseFields(text: string): Projection {
  const except = text.startsWith(EXCEPT);
  const list = except ? text.slice(EXCEPT.length) : text;
  return { paths: list.split(',').map((f) => parseField(f, 'fields')), except };
}

function parseSort(text: string): SortKey[] {
  return text.split(',').map((item) => {
    const [field = '', direction = '1', extra] = item.split(':');
    if (extra !== undefined || (direction !== '1' && direction !== '-1')) {
      throw new QueryError('sort', '"sort" takes field:1 or field:-1, comma-separated');
    }
    return { field: parseField(field, 'sort'), descending: direction === '-1' };
  });
}

/** `unique=true` (any case, or 1; empty as a bare switch); false, 0 turn it off. */
function parseSwitch(text: string, parameter: string): boolean {
  if (text === '' || TRUE.test(text)) return true;
  if (FALSE.test(text)) return false;
  throw new QueryError(parameter, `"${parameter}" takes true or false`);
}

/**
 * `ts` of a single resource: one integer (`ts=T`, `ts=integer:T`) selects that version (null:
 * beyond every integer a version can have); anything else (`ts=gt=T`, `ts=T1,T2`) is a
 * condition on its versions (undefined), which then answer as an array, newest first.
 */
function parseVersion(text: string): number | null | undefined {
  const typed = /^integer:/i.exec(text);
  const digits = typed ? text.slice(typed[0].length) : text;
  if (!/^\d+$/.test(digits)) return undefined;
  const value = Number(digits);
  return Number.isSafeInteger(value) ? value : null;
}

/**
 * `at`, `since` or `until`: an instant in microseconds since the epoch (the unit of `ts`). One
 * beyond 2^53 is later than every `ts` there can be, so it reads as the largest safe integer.
 */
function parseInstant(text: string, parameter: string): number {
  if (!/^\d+$/.test(text)) throw new QueryError(parameter, `"${parameter}" is an instant: an integer of microseconds since the epoch (the unit of ts)`);
  return Math.min(Number(text), Number.MAX_SAFE_INTEGER);
}

/** Parse a raw query string (without `?`). */
export function parseQuery(queryString: string, maxParameters: number, scope: QueryScope = 'collection'): ParsedQuery {
  const pairs = queryString.split('&').filter((p) => p !== '');
  if (pairs.length > maxParameters) {
    throw new QueryError('query', `at most ${maxParameters} query parameters are accepted`);
  }
  const conditions: Condition[] = [];
  const sort: SortKey[] = [];
  let fields: Projection | undefined;
  let limit: number | undefined;
  let skip: number | undefined;
  let unique = false;
  let inline = false;
  let expand = false;
  let version: number | null | undefined;
  let at: number | undefined;
  let since: number | undefined;
  let until: number | undefined;
  for (const pair of pairs) {
    const equals = pair.indexOf('=');
    const key = decode(equals < 0 ? pair : pair.slice(0, equals), 'query');
    const value = decode(equals < 0 ? '' : pair.slice(equals + 1), key);
    const selected = key === 'ts' && scope === 'resource' ? parseVersion(value) : undefined;
    if (selected !== undefined) {
      version = selected;
      continue;
    }
    if (!RESERVED.has(key)) {
      conditions.push(parseCondition(key, value));
      continue;
    }
    const reserved = key as ReservedParameter;
    switch (reserved) {
      case 'fields':
        fields = parseFields(value);
        break;
      // `limit=0` is no limit, as MongoDB and UNIS read it (rest-contract §5, revised 2026-11-29).
      case 'limit':
        limit = parseCount(value, 'limit') || undefined;
        break;
      case 'skip':
        skip = parseCount(value, 'skip');
        break;
      case 'unique':
        unique = parseSwitch(value, 'unique');
        break;
      case 'inline':
        inline = true;
        break;
      case 'expand':
        expand = true;
        break;
      // The authentication's; a lookup's (federation/lookup.ts), elsewhere it asks nothing;
      // `cert`, which UNIS HEAD reserves and ignores (rest-contract §5, revised 2026-11-29).
      case 'access_token':
      case 'federate':
      case 'cert':
        break;
      case 'at':
        at = parseInstant(value, key);
        break;
      case 'since':
        since = parseInstant(value, key);
        break;
      case 'until':
        until = parseInstant(value, key);
        break;
      case 'sort':
        sort.push(...parseSort(value));
        if (sort.length > MAX_SORT_KEYS) throw new QueryError('sort', `"sort" takes at most ${MAX_SORT_KEYS} fields`);
        break;
      default: {
        const unknown: never = reserved;
        throw new Error(`the reserved parameter ${String(unknown)} is in the contract table but not parsed`);
      }
    }
  }
  if (at !== undefined && (since !== undefined || until !== undefined)) {
    throw new QueryError('at', '"at" asks for the state at one instant, "since"/"until" for the changes between two: not both');
  }
  if ((since !== undefined || until !== undefined) && scope === 'resource') {
    throw new QueryError(since !== undefined ? 'since' : 'until', '"since" and "until" ask a collection what changed; a single resource has its versions (conditions on ts)');
  }
  if (since !== undefined && until !== undefined && since > until) throw new QueryError('since', '"since" must not be after "until"');
  const changes = since !== undefined || until !== undefined ? { since: since ?? 0, ...(until !== undefined ? { until } : {}) } : undefined;
  return {
    conditions,
    sort,
    unique,
    inline,
    expand,
    ...(fields ? { fields } : {}),
    ...(limit !== undefined ? { limit } : {}),
    ...(skip !== undefined ? { skip } : {}),
    ...(version !== undefined ? { version } : {}),
    ...(at !== undefined ? { at } : {}),
    ...(changes ? { changes } : {}),
  };
}
