/**
 * How element text is typed (docs/catalog-operations.md "Comparisons"): a value is a number when it
 * is a decimal or scientific literal, a time when it is an ISO-8601 date or date-time. The same
 * functions type stored elements and query operands, so both sides always agree.
 */

const NUMBER = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;
const ISO_8601 = /^\s*(-?\d{4,})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?(Z|[+-]\d{2}:\d{2})?\s*$/;

/** The finite number `text` spells, or undefined. */
export function numberValue(text: string): number | undefined {
  if (!NUMBER.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * Epoch milliseconds of an ISO-8601 date (`2026-01-31`, midnight) or date-time, or undefined.
 * A value without a zone is UTC, so the result never depends on the server's time zone.
 */
export function timeValue(text: string): number | undefined {
  const match = ISO_8601.exec(text);
  if (!match) return undefined;
  const [, year, month, day, hour = '0', minute = '0', second = '0', fraction = '', zone = 'Z'] = match;
  const fields = [Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second)] as const;
  const date = new Date(0);
  date.setUTCFullYear(fields[0], fields[1], fields[2]);
  date.setUTCHours(fields[3], fields[4], fields[5], fraction ? Math.floor(Number(fraction) * 1000) : 0);
  // Date rolls 2026-02-30 over into March; a calendar date that does not exist is not a time.
  if (date.getUTCFullYear() !== fields[0] || date.getUTCMonth() !== fields[1] || date.getUTCDate() !== fields[2] || date.getUTCHours() !== fields[3] || date.getUTCMinutes() !== fields[4] || date.getUTCSeconds() !== fields[5]) {
    return undefined;
  }
  const offsetMinutes = zone === 'Z' ? 0 : (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  const ms = date.getTime() - offsetMinutes * 60_000;
  return Number.isFinite(ms) ? ms : undefined;
}

/** Characters of an element's text kept in the indexed `text_key` column. */
export const TEXT_KEY_LENGTH = 200;

/**
 * The indexed prefix of a text: at most TEXT_KEY_LENGTH UTF-16 units, never half a surrogate
 * pair (a lone surrogate would reach the database as U+FFFD in one place and not another).
 */
export function textKey(text: string): string {
  if (text.length <= TEXT_KEY_LENGTH) return text;
  const last = text.charCodeAt(TEXT_KEY_LENGTH - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? TEXT_KEY_LENGTH - 1 : TEXT_KEY_LENGTH);
}

/** Case folding for the case-insensitive comparisons; applied to stored text and to operands. */
export function folded(text: string): string {
  return text.toLowerCase();
}
