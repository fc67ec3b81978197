import { RE2JS } from 're2js';

/** The longest pattern accepted: RE2 compiles in time and space linear in it, but not for free. */
export const MAX_PATTERN = 1_000;
/** PostgreSQL's regular expressions repeat at most this often (`{n,m}`, RE_DUP_MAX). */
const MAX_REPEAT = 255;

/** A regular expression checked once, in the forms each evaluator runs. */
export interface CheckedPattern {
  readonly source: string;
  /** The same expression for PostgreSQL's `~*` (an ARE with RE2's meaning). */
  readonly posix: string;
  /** True when `text` contains a match, compared without regard to case (RE2). */
  test(text: string): boolean;
}

/** Why a pattern is refused; the caller names the parameter. */
export class PatternRefused extends Error {}

const CLASS_ESCAPES: Readonly<Record<string, string>> = {
  // RE2's Perl classes are ASCII; PostgreSQL's `\d`, `\w`, `\s` follow the locale, so they
  // are written out.
  d: '0-9',
  w: '0-9A-Za-z_',
  s: '\\t\\n\\f\\r ',
};
const CONTROL_ESCAPES = new Set(['t', 'n', 'r', 'f', 'v']);
/** Assertions: RE2's name → PostgreSQL's (`\b` is a backspace to an ARE). */
const ASSERTIONS: Readonly<Record<string, string>> = { b: '\\y', B: '\\Y', A: '\\A', z: '\\Z' };

/**
 * Check `source` (RE2 syntax, matched case-insensitively, `.` not matching a newline: RE2's
 * defaults) and write it as an ARE that PostgreSQL's `~*` runs with the same meaning. RE2 has no
 * construct that needs backtracking, so neither form can take super-linear time in the text
 * (PostgreSQL's engine backtracks only for back-references, which RE2 has not). Constructs
 * whose meaning the two engines do not share (flags groups, `\p` classes, `\Q…\E`, hex and
 * octal escapes, POSIX bracket classes, repetition counts over 255) are refused, on either
 * engine, so a query means the same everywhere.
 */
export function checkPattern(source: string): CheckedPattern {
  if (source.length > MAX_PATTERN) throw new PatternRefused(`a regular expression has at most ${MAX_PATTERN} characters`);
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(source, RE2JS.CASE_INSENSITIVE);
  } catch (error) {
    throw new PatternRefused(`${JSON.stringify(source.slice(0, 100))} is not a regular expression of RE2's syntax (${(error as Error).message})`);
  }
  const posix = translate(source);
  return { source, posix, test: (text) => compiled.test(text) };
}

function translate(source: string): string {
  let out = '';
  let i = 0;
  const refuse = (what: string): never => {
    throw new PatternRefused(`${what} is not supported in reg= (the same meaning on every database engine is not assured)`);
  };
  while (i < source.length) {
    const c = source[i]!;
    if (c === '\\') {
      const e = source[i + 1] ?? '';
      i += 2;
      const cls = CLASS_ESCAPES[e.toLowerCase()];
      if (cls !== undefined) out += e === e.toLowerCase() ? `[${cls}]` : `[^${cls}]`;
      else if (ASSERTIONS[e] !== undefined) out += ASSERTIONS[e];
      else if (CONTROL_ESCAPES.has(e)) out += `\\${e}`;
      else if (/^[^0-9A-Za-z]$/.test(e)) out += `\\${e}`;
      else refuse(`the escape \\${e}`);
    } else if (c === '[') {
      const [bracket, next] = translateBracket(source, i, refuse);
      out += bracket;
      i = next;
    } else if (c === '(') {
      if (source[i + 1] === '?') {
        if (source[i + 2] === ':') {
          out += '(?:';
          i += 3;
        } else if (source.startsWith('?P<', i + 1) || source[i + 2] === '<') {
          // A named group is a group (names matter only to submatches).
          const close = source.indexOf('>', i);
          out += '(';
          i = close + 1;
        } else {
          refuse('a flags group (?…)');
        }
      } else {
        out += '(';
        i++;
      }
    } else if (c === '{') {
      const repeat = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i));
      if (repeat) {
        if (Number(repeat[1]) > MAX_REPEAT || (repeat[3] !== undefined && repeat[3] !== '' && Number(repeat[3]) > MAX_REPEAT)) refuse(`a repetition count over ${MAX_REPEAT}`);
        out += repeat[0];
        i += repeat[0].length;
      } else {
        // RE2 reads a `{` that starts no repetition as itself.
        out += '\\{';
        i++;
      }
    } else if (c === '.') {
      out += '[^\\n]';
      i++;
    } else if (c === '}' || c === ']') {
      out += `\\${c}`;
      i++;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** `[…]` from `start`: the ARE text and the index after it. */
function translateBracket(source: string, start: number, refuse: (what: string) => never): [string, number] {
  let i = start + 1;
  let out = '[';
  if (source[i] === '^') {
    out += '^';
    i++;
  }
  let first = true;
  while (i < source.length) {
    const c = source[i]!;
    if (c === ']' && !first) return [`${out}]`, i + 1];
    first = false;
    if (c === '\\') {
      const e = source[i + 1] ?? '';
      i += 2;
      const cls = CLASS_ESCAPES[e];
      if (cls !== undefined) out += cls;
      else if (CONTROL_ESCAPES.has(e)) out += `\\${e}`;
      else if (/^[^0-9A-Za-z]$/.test(e)) out += `\\${e}`;
      else refuse(`the escape \\${e} in brackets`);
    } else if (c === '[' && source[i + 1] === ':') {
      refuse('a POSIX class [:…:]');
    } else if (c === ']') {
      out += '\\]';
      i++;
    } else {
      out += c;
      i++;
    }
  }
  // RE2 has refused an unterminated class already.
  return refuse('an unterminated class');
}
