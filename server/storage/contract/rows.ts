// Rows and the texts of rows, as every part of storage handles them. Part of storage's contract:
// it imports nothing else of storage.

/** A raw row as the stores read it: `doc` is JSON text, never parsed on the way through. */
export interface Row {
  readonly [column: string]: unknown;
}

/** `row` (a parenthesised list of placeholders) `count` times, comma-separated: a multi-row VALUES. */
export function rowsOf(row: string, count: number): string {
  if (count === 1) return row;
  return Array.from({ length: count }, () => row).join(', ');
}

/** `list` in slices of at most `size` items, in order: one statement each, within an engine's limits. */
export function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** Rows (`id`, `doc`) as runs of texts: each documentText(head, id, doc), joined by commas. */
export interface TextRun {
  readonly head: string;
}
