import type { InstanceList } from './instance-list.js';
import type { OrderKey } from './order.js';

/**
 * The k-way merge of lists each already in `order`: a binary heap of the lists by their head
 * element, so each element costs O(log k) comparisons and only the heads are held. Yields the
 * element texts in the merged order; stops reading every list when the consumer stops.
 */
export async function* mergeLists(lists: readonly InstanceList[], order: (a: OrderKey, b: OrderKey) => number): AsyncGenerator<string> {
  const heap = lists.filter((l) => l.head !== undefined);
  const position = new Map(lists.map((l, i) => [l, i]));
  const less = (i: number, j: number): boolean => {
    const by = order(heap[i]!.head!.key, heap[j]!.head!.key);
    // Equal keys (the same ts and id at two instances): the first instance first, as given.
    return by < 0 || (by === 0 && position.get(heap[i]!)! < position.get(heap[j]!)!);
  };
  const swap = (i: number, j: number): void => {
    [heap[i], heap[j]] = [heap[j]!, heap[i]!];
  };
  const down = (start: number): void => {
    for (let i = start; ; ) {
      const [l, r] = [2 * i + 1, 2 * i + 2];
      let least = i;
      if (l < heap.length && less(l, least)) least = l;
      if (r < heap.length && less(r, least)) least = r;
      if (least === i) return;
      swap(i, least);
      i = least;
    }
  };
  for (let i = Math.floor(heap.length / 2) - 1; i >= 0; i--) down(i);
  try {
    while (heap.length > 0) {
      const top = heap[0]!;
      yield top.head!.text;
      await top.advance();
      if (top.head === undefined) {
        const last = heap.pop()!;
        if (heap.length > 0) heap[0] = last;
      }
      down(0);
    }
  } finally {
    for (const list of lists) list.cancel();
  }
}
