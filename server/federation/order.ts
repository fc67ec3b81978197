import type { SortKey } from '../query/syntax.js';

/** The rank of a JSON value in an instance's order: absent or null, then numbers and booleans, then the rest as JSON text. */
function rank(value: unknown): 0 | 1 | 2 {
  if (value === undefined || value === null) return 0;
  return typeof value === 'number' || typeof value === 'boolean' ? 1 : 2;
}

/** UTF-8 byte order, which is code point order (JavaScript's `<` compares UTF-16 units). */
function bytewise(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Below the surrogates, and between two surrogates, UTF-16 order is code point order.
    if ((x < 0xd800 && y < 0xd800) || (x >= 0xd800 && x < 0xe000 && y >= 0xd800 && y < 0xe000)) return x - y;
    return (a.codePointAt(i) ?? 0) - (b.codePointAt(i) ?? 0);
  }
  return a.length - b.length;
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The order of two values of one sort key as an instance's database orders them
 * (storage/contract/sql.ts `sortKeys`, query-sql.ts `orderBy`): missing and null first ascending and
 * last descending, numbers (booleans as 0 and 1) before text, text (objects and arrays as their
 * JSON) bytewise. Returned for the ascending direction; nulls are placed by the caller.
 */
export function compareValues(a: unknown, b: unknown): number {
  const [ra, rb] = [rank(a), rank(b)];
  if (ra !== rb) return ra - rb;
  if (ra === 0) return 0;
  if (ra === 1) return Number(a) - Number(b);
  return bytewise(asText(a), asText(b));
}

/** What `item` holds at `field`, as property reads in JavaScript find it. */
export function valueAt(item: unknown, field: readonly string[]): unknown {
  let value = item;
  for (const segment of field) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[segment] : undefined;
  return value;
}

/** What the merge compares of one element: its sort keys' values, then `ts` and `id`. */
export type OrderKey = readonly unknown[];

/** The values of `item` the order looks at. */
export function orderKey(item: unknown, sort: readonly SortKey[]): OrderKey {
  const key = sort.map((k) => valueAt(item, k.field));
  key.push(valueAt(item, ['ts']), valueAt(item, ['id']));
  return key;
}

/**
 * The order of a list as every instance answers it: the sort keys, each ascending with missing
 * values first or descending with them last, then `ts` and `id` descending (the default order:
 * newest first, rest-contract §5 and §13, revised 2026-11-29). The k-way merge of the instances'
 * lists relies on it being theirs exactly.
 */
export function keyOrder(sort: readonly SortKey[]): (a: OrderKey, b: OrderKey) => number {
  const descending = [...sort.map((k) => k.descending), true, true];
  return (a, b) => {
    for (let i = 0; i < a.length; i++) {
      const order = compareValues(a[i], b[i]);
      if (order !== 0) return descending[i] ? -order : order;
    }
    return 0;
  };
}
