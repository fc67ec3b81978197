import type { InstanceList } from './instance-list.js';
import type { OrderKey } from './order.js';

/** Bytes gathered before the merged answer is handed to the socket (as wire/json-array.ts's lists). */
const CHUNK = 64 * 1024;
const COMMA = 0x2c;

/** The page of the merged list: `skip` elements left out, then at most `limit`. */
export interface Page {
  readonly skip: number;
  readonly limit: number | undefined;
}

/**
 * The k-way merge of lists each already in `order`, written as one JSON array (issue 37): a
 * binary heap of the lists by their head's key, so each element costs O(log k) comparisons and
 * only the heads are held; each element's bytes are copied as its instance sent them into the
 * chunk being filled, and a full chunk is yielded (so the caller's pace sets how far the lists
 * are read). An element is taken synchronously while its list has read it: only a list whose
 * chunk is used up is awaited. `skip` and `limit` apply to the merged list. Stops reading every
 * list when done or when the consumer stops.
 */
export async function* mergedArray(lists: readonly InstanceList[], order: (a: OrderKey, b: OrderKey) => number, page: Page): AsyncGenerator<Buffer> {
  const heap = lists.filter((l) => l.key !== undefined);
  const position = new Map(lists.map((l, i) => [l, i]));
  const less = (i: number, j: number): boolean => {
    const by = order(heap[i]!.key!, heap[j]!.key!);
    // Equal keys (the same ts and id at two instances): the first instance first, as given.
    return by < 0 || (by === 0 && position.get(heap[i]!)! < position.get(heap[j]!)!);
  };
  const down = (start: number): void => {
    for (let i = start; ; ) {
      const [l, r] = [2 * i + 1, 2 * i + 2];
      let least = i;
      if (l < heap.length && less(l, least)) least = l;
      if (r < heap.length && less(r, least)) least = r;
      if (least === i) return;
      [heap[i], heap[least]] = [heap[least]!, heap[i]!];
      i = least;
    }
  };
  for (let i = Math.floor(heap.length / 2) - 1; i >= 0; i--) down(i);
  let out = Buffer.allocUnsafe(CHUNK);
  out[0] = 0x5b;
  let used = 1;
  let skipped = 0;
  let written = 0;
  try {
    while (heap.length > 0 && (page.limit === undefined || written < page.limit)) {
      const top = heap[0]!;
      if (skipped < page.skip) skipped++;
      else {
        const size = top.end - top.start;
        if (used + 1 + size > CHUNK) {
          yield out.subarray(0, used);
          out = Buffer.allocUnsafe(Math.max(CHUNK, 1 + size));
          used = 0;
        }
        if (written > 0) out[used++] = COMMA;
        used += top.bytes.copy(out, used, top.start, top.end);
        // The page is complete: no list is read further.
        if (++written === page.limit) break;
      }
      if (!top.next()) await top.more();
      if (top.key === undefined) {
        const last = heap.pop()!;
        if (heap.length > 0) heap[0] = last;
      }
      down(0);
    }
    if (used === out.length) {
      yield out;
      out = Buffer.allocUnsafe(1);
      used = 0;
    }
    out[used++] = 0x5d;
    yield out.subarray(0, used);
  } finally {
    for (const list of lists) list.cancel();
  }
}
