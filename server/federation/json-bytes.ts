/**
 * JSON's grammar on UTF-8 bytes, for reading an instance's list without decoding it: where a
 * value ends, checked as JSON.parse would check it (but for the UTF-8 encoding itself, which is
 * passed on as the instance sent it). Each function reads `b` from `i` up to `end` and returns the
 * index after what it read, INCOMPLETE when the bytes end first (more may come), and throws a
 * SyntaxError at bytes that cannot be JSON.
 */

/** The bytes ended before the value did. */
export const INCOMPLETE = -1;

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
export const COMMA = 0x2c;
export const COLON = 0x3a;

/** Index of the first byte at or after `i` that is not JSON whitespace (`end` if none). */
export function skipWhitespace(b: Uint8Array, i: number, end: number): number {
  while (i < end) {
    const c = b[i]!;
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
    i++;
  }
  return end;
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

/** The escapes after a backslash: `"` `\` `/` b f n r t (u is checked apart). */
function isSimpleEscape(c: number): boolean {
  return c === QUOTE || c === BACKSLASH || c === 0x2f || c === 0x62 || c === 0x66 || c === 0x6e || c === 0x72 || c === 0x74;
}

/**
 * A string, `i` at its opening quote: the index after its closing quote. The loop stops only at a
 * quote, a backslash or a control character; small, so V8 inlines it where strings are skipped.
 */
export function skipString(b: Uint8Array, i: number, end: number): number {
  for (i++; i < end; i++) {
    const c = b[i]!;
    if (c === QUOTE) return i + 1;
    if (c === BACKSLASH || c < 0x20) return escapedString(b, i, end);
  }
  return INCOMPLETE;
}

/** The rest of a string from `i`, at a backslash or a control character. */
function escapedString(b: Uint8Array, i: number, end: number): number {
  for (; i < end; i++) {
    const c = b[i]!;
    if (c === QUOTE) return i + 1;
    if (c === BACKSLASH) {
      if (i + 1 >= end) return INCOMPLETE;
      const e = b[i + 1]!;
      if (e === 0x75) {
        if (i + 5 >= end) return INCOMPLETE;
        if (!isHex(b[i + 2]!) || !isHex(b[i + 3]!) || !isHex(b[i + 4]!) || !isHex(b[i + 5]!)) throw new SyntaxError('a bad \\u escape');
        i += 5;
      } else if (isSimpleEscape(e)) i++;
      else throw new SyntaxError('a bad escape');
    } else if (c < 0x20) throw new SyntaxError('a control character in a string');
  }
  return INCOMPLETE;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Digits from `i`: the index after the last (at least one required). */
function digits(b: Uint8Array, i: number, end: number): number {
  const from = i;
  while (i < end && isDigit(b[i]!)) i++;
  if (i === end) return INCOMPLETE;
  if (i === from) throw new SyntaxError('a number without digits');
  return i;
}

/** A number (`-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`), `i` at its first byte. A number the bytes end in is INCOMPLETE: more digits may follow. */
export function skipNumber(b: Uint8Array, i: number, end: number): number {
  if (b[i] === 0x2d) i++;
  if (i >= end) return INCOMPLETE;
  if (b[i] === 0x30) {
    i++;
    if (i >= end) return INCOMPLETE;
  } else if ((i = digits(b, i, end)) === INCOMPLETE) return INCOMPLETE;
  if (b[i] === 0x2e && (i = digits(b, i + 1, end)) === INCOMPLETE) return INCOMPLETE;
  if (b[i] === 0x65 || b[i] === 0x45) {
    i++;
    if (i >= end) return INCOMPLETE;
    if (b[i] === 0x2b || b[i] === 0x2d) i++;
    if ((i = digits(b, i, end)) === INCOMPLETE) return INCOMPLETE;
  }
  return i;
}

const TRUE = [0x74, 0x72, 0x75, 0x65];
const FALSE = [0x66, 0x61, 0x6c, 0x73, 0x65];
const NULL = [0x6e, 0x75, 0x6c, 0x6c];

function skipLiteral(b: Uint8Array, i: number, end: number, literal: readonly number[]): number {
  for (const c of literal) {
    if (i >= end) return INCOMPLETE;
    if (b[i++] !== c) throw new SyntaxError('an unknown literal');
  }
  return i;
}

/** A scalar (string, number, true, false, null), `i` at its first byte. */
export function skipScalar(b: Uint8Array, i: number, end: number): number {
  const c = b[i]!;
  if (c === QUOTE) return skipString(b, i, end);
  if (c === 0x2d || isDigit(c)) return skipNumber(b, i, end);
  if (c === 0x74) return skipLiteral(b, i, end, TRUE);
  if (c === 0x66) return skipLiteral(b, i, end, FALSE);
  if (c === 0x6e) return skipLiteral(b, i, end, NULL);
  throw new SyntaxError(`unexpected ${String.fromCharCode(c)}`);
}

/** What the value being skipped expects next: one bit each, so a check of several is one AND. */
const VALUE = 1;
const VALUE_OR_CLOSE = 2;
const KEY = 4;
const KEY_OR_CLOSE = 8;
const COLON_NEXT = 16;
const COMMA_OR_CLOSE = 32;
const ANY_VALUE = VALUE | VALUE_OR_CLOSE;
const ANY_KEY = KEY | KEY_OR_CLOSE;

/**
 * PLAIN[c] is 1 for a byte a string holds as it is (not a quote, a backslash or a control
 * character): the string loop of skipValue is one load and one comparison a byte.
 */
const PLAIN = new Uint8Array(256).map((_, c) => (c >= 0x20 && c !== QUOTE && c !== BACKSLASH ? 1 : 0));

/** Containers open in skipValue: true for an object (one array for every call: it never yields). */
const open: boolean[] = [];

/**
 * Any value, `i` at its first byte (not whitespace): the index after it. One loop over the bytes,
 * led by each byte, with strings skipped inline (27.8 ms for a list of 25,000 nodes, 16.6 MB,
 * in a state machine led by what it expected; issue 37). Iterative, so nesting as deep as an
 * instance sends costs no stack.
 */
export function skipValue(b: Uint8Array, i: number, end: number): number {
  let depth = 0;
  let expect = VALUE;
  while (i < end) {
    const c = b[i]!;
    if (c === QUOTE) {
      let j = i + 1;
      while (j < end && PLAIN[b[j]!] === 1) j++;
      if (j < end && b[j] !== QUOTE) j = escapedString(b, j, end) - 1;
      if (j < 0 || j >= end) return INCOMPLETE;
      i = j + 1;
      if ((expect & ANY_KEY) !== 0) {
        expect = COLON_NEXT;
        continue;
      }
      if ((expect & ANY_VALUE) === 0) throw new SyntaxError('unexpected "');
    } else if (c === COLON) {
      if (expect !== COLON_NEXT) throw new SyntaxError('unexpected :');
      expect = VALUE;
      i++;
      continue;
    } else if (c === COMMA) {
      if (expect !== COMMA_OR_CLOSE) throw new SyntaxError('unexpected ,');
      expect = open[depth - 1] ? KEY : VALUE;
      i++;
      continue;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if ((expect & ANY_VALUE) === 0) throw new SyntaxError(`unexpected ${String.fromCharCode(c)}`);
      open[depth++] = c === OPEN_BRACE;
      expect = c === OPEN_BRACE ? KEY_OR_CLOSE : VALUE_OR_CLOSE;
      i++;
      continue;
    } else if (c === CLOSE_BRACE) {
      if ((expect & (COMMA_OR_CLOSE | KEY_OR_CLOSE)) === 0 || !open[depth - 1]) throw new SyntaxError('unexpected }');
      depth--;
      i++;
    } else if (c === CLOSE_BRACKET) {
      if ((expect & (COMMA_OR_CLOSE | VALUE_OR_CLOSE)) === 0 || open[depth - 1] !== false) throw new SyntaxError('unexpected ]');
      depth--;
      i++;
    } else if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
      i++;
      continue;
    } else {
      if ((expect & ANY_VALUE) === 0) throw new SyntaxError(`unexpected ${String.fromCharCode(c)}`);
      if ((i = skipScalar(b, i, end)) === INCOMPLETE) return INCOMPLETE;
    }
    // A value ended: the whole one, or one inside a container.
    if (depth === 0) return i;
    expect = COMMA_OR_CLOSE;
  }
  return INCOMPLETE;
}
