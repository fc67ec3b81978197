import type { SortKey } from '../query/syntax.js';
import { BACKSLASH, CLOSE_BRACE, COLON, COMMA, INCOMPLETE, OPEN_BRACE, OPEN_BRACKET, QUOTE, skipString, skipValue, skipWhitespace } from './json-bytes.js';
import { orderKey, valueAt, type OrderKey } from './order.js';

/** One field the order reads: its path's segments as a key would spell them in UTF-8. */
interface Path {
  readonly names: readonly string[];
  readonly bytes: readonly Buffer[];
  /**
   * `inherited[d]`: what `valueAt` finds when the object at depth d lacks the segment, i.e. what
   * a plain object inherits (undefined, but `constructor.name` is "Object"), so that a key read
   * here is the one `orderKey(JSON.parse(element))` makes, exactly.
   */
  readonly inherited: readonly unknown[];
}

/** Whether b[from, to) holds the bytes of `want` (a segment is a few bytes: a loop beats Buffer.compare's call into C++). */
function sameBytes(b: Buffer, from: number, to: number, want: Buffer): boolean {
  if (to - from !== want.length) return false;
  for (let k = 0; k < want.length; k++) if (b[from + k] !== want[k]) return false;
  return true;
}

function hasEscape(b: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (b[i] === BACKSLASH) return true;
  return false;
}

/**
 * One value a sort path ends at, from its bytes: a string is decoded alone (JSON.parse only when
 * it holds an escape), a number read by `Number` (the same double as JSON.parse for every JSON
 * number), an object or array parsed (the order compares them as their JSON text).
 */
function valueOf(b: Buffer, from: number, to: number): unknown {
  switch (b[from]) {
    case QUOTE:
      return hasEscape(b, from + 1, to - 1) ? JSON.parse(b.toString('utf8', from, to)) : b.toString('utf8', from + 1, to - 1);
    case 0x74:
      return true;
    case 0x66:
      return false;
    case 0x6e:
      return null;
    case OPEN_BRACE:
    case OPEN_BRACKET:
      return JSON.parse(b.toString('utf8', from, to));
    default:
      return numberOf(b, from, to);
  }
}

/**
 * A JSON number: an integer of at most 16 digits read here when it is below 2^53 (every step
 * of the sum is then exact, so it is the double Number makes); any other by Number. Saves the
 * string `ts` was read through: reading a list of 25,000 nodes took 33.5 ms instead of 37 ms in
 * process (issue 37).
 */
function numberOf(b: Buffer, from: number, to: number): number {
  let k = from;
  const negative = b[k] === 0x2d;
  if (negative) k++;
  if (to - k <= 16) {
    let n = 0;
    for (; k < to; k++) {
      const c = b[k]!;
      if (c < 0x30 || c > 0x39) break;
      n = n * 10 + (c - 0x30);
    }
    if (k === to && n <= Number.MAX_SAFE_INTEGER) return negative ? -n : n;
  }
  return Number(b.toString('latin1', from, to));
}

/**
 * The sort keys of one element read from its bytes (issue 37): the top-level object's keys are
 * compared as bytes with the sort paths' first segments, an object on a path is walked the same
 * way, and every other value is skipped without being decoded. What it makes is what
 * `orderKey(JSON.parse(element), sort)` makes (order.ts), duplicate keys included (the last
 * wins): test/federation/sort-key-bytes.test.ts holds the cases. An element that is not an
 * object, or a path that goes into an array, is parsed (lists of resources have neither).
 */
export class SortKeyReader {
  private readonly paths: Path[];
  /** The key of the last element read. */
  key: OrderKey = [];
  private readonly all: number[];
  /**
   * `lengths[d][n]`: some path's segment at depth d is n bytes long. Most keys are passed over on
   * their length alone (reading a list of 25,000 nodes: 37 ms instead of 39 ms in process).
   */
  private readonly lengths: boolean[][] = [];

  constructor(private readonly sort: readonly SortKey[]) {
    this.paths = [...sort.map((k) => k.field), ['ts'], ['id']].map((names) => ({
      names,
      bytes: names.map((n) => Buffer.from(n, 'utf8')),
      inherited: names.map((_, d) => valueAt({}, names.slice(d))),
    }));
    this.all = this.paths.map((_, p) => p);
    for (const path of this.paths) path.bytes.forEach((segment, d) => ((this.lengths[d] ??= [])[segment.length] = true));
  }

  /**
   * The element starting at `i` (not whitespace): the index after it, INCOMPLETE when the bytes
   * end first; its key is then in `key`. Throws a SyntaxError at bytes that are not JSON.
   */
  read(b: Buffer, i: number, end: number): number {
    if (b[i] !== OPEN_BRACE) {
      const after = skipValue(b, i, end);
      if (after !== INCOMPLETE) this.key = orderKey(JSON.parse(b.toString('utf8', i, after)), this.sort);
      return after;
    }
    const key = this.paths.map((p) => p.inherited[0]);
    const after = this.object(b, i, end, 0, this.all, key);
    if (after !== INCOMPLETE) this.key = key;
    return after;
  }

  /** The paths of `candidates` whose segment at `depth` is the key at [from, to) (inside its quotes; `escaped` if it holds a backslash). */
  private matching(b: Buffer, from: number, to: number, escaped: boolean, depth: number, candidates: readonly number[]): number[] | undefined {
    let found: number[] | undefined;
    const decoded = escaped ? (JSON.parse(b.toString('utf8', from - 1, to + 1)) as string) : undefined;
    for (let k = 0; k < candidates.length; k++) {
      const p = candidates[k]!;
      const path = this.paths[p]!;
      if (decoded === undefined ? sameBytes(b, from, to, path.bytes[depth]!) : decoded === path.names[depth]) (found ??= []).push(p);
    }
    return found;
  }

  /**
   * The object at `i` (at its `{`), on the paths `candidates` at `depth`: the index after it; the
   * values found are set in `key`. The keys are read inline and compared as bytes (12 ms of the
   * 41 ms a list of 25,000 nodes took with a call per key and per whitespace; issue 37).
   */
  private object(b: Buffer, i: number, end: number, depth: number, candidates: readonly number[], key: unknown[]): number {
    i++;
    if (i < end && b[i]! <= 0x20) i = skipWhitespace(b, i, end);
    if (i >= end) return INCOMPLETE;
    if (b[i] === CLOSE_BRACE) return i + 1;
    for (;;) {
      if (b[i] !== QUOTE) throw new SyntaxError('a key that is not a string');
      const from = i + 1;
      let to = from;
      let escaped = false;
      for (; to < end; to++) {
        const c = b[to]!;
        if (c === QUOTE) break;
        if (c === BACKSLASH || c < 0x20) {
          escaped = true;
          break;
        }
      }
      if (escaped) {
        const after = skipString(b, i, end);
        if (after === INCOMPLETE) return INCOMPLETE;
        to = after - 1;
      } else if (to >= end) return INCOMPLETE;
      const found = escaped || this.lengths[depth]![to - from] === true ? this.matching(b, from, to, escaped, depth, candidates) : undefined;
      i = to + 1;
      if (i < end && b[i]! <= 0x20) i = skipWhitespace(b, i, end);
      if (i >= end) return INCOMPLETE;
      if (b[i] !== COLON) throw new SyntaxError('a key without a colon');
      i++;
      if (i < end && b[i]! <= 0x20) i = skipWhitespace(b, i, end);
      if (i >= end) return INCOMPLETE;
      i = found === undefined ? skipValue(b, i, end) : this.value(b, i, end, depth, found, key);
      if (i === INCOMPLETE) return INCOMPLETE;
      if (i < end && b[i]! <= 0x20) i = skipWhitespace(b, i, end);
      if (i >= end) return INCOMPLETE;
      if (b[i] === CLOSE_BRACE) return i + 1;
      if (b[i] !== COMMA) throw new SyntaxError('expected , or }');
      i++;
      if (i < end && b[i]! <= 0x20) i = skipWhitespace(b, i, end);
      if (i >= end) return INCOMPLETE;
    }
  }

  /**
   * The value at `i` of a key the paths `found` name at `depth`: each path that ends here takes
   * it; each that goes on is reset (a later duplicate key replaces an earlier one) and looks
   * inside it.
   */
  private value(b: Buffer, i: number, end: number, depth: number, found: readonly number[], key: unknown[]): number {
    const deeper = found.length === 1 && this.paths[found[0]!]!.names.length === depth + 1 ? [] : found.filter((p) => this.paths[p]!.names.length > depth + 1);
    const start = i;
    let after: number;
    if (deeper.length > 0 && b[i] === OPEN_BRACE) {
      for (const p of deeper) key[p] = this.paths[p]!.inherited[depth + 1];
      after = this.object(b, i, end, depth + 1, deeper, key);
    } else after = skipValue(b, i, end);
    if (after === INCOMPLETE) return INCOMPLETE;
    for (const p of found) {
      const names = this.paths[p]!.names;
      if (names.length === depth + 1) key[p] = valueOf(b, start, after);
      else if (b[start] === OPEN_BRACKET) key[p] = valueAt(JSON.parse(b.toString('utf8', start, after)), names.slice(depth + 1));
      else if (b[start] !== OPEN_BRACE) key[p] = undefined;
    }
    return after;
  }
}
