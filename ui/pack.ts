import type { ElementDefinition } from 'cytoscape';
import { ABOVE_BOXES, PADDING } from './box-room.js';
import type { Placed } from './skeleton.js';

/**
 * The layout of a large picture's skeleton (skeleton.ts): every container's nodes on a grid of
 * cells, in the order a walk along their links meets them (so a ring or a chain of nodes lies
 * along a snake of neighbouring cells), and the boxes of a container packed in shelves beside
 * that grid, from the innermost box out. Linear in the skeleton's size: 10,000 nodes take a
 * few tens of ms, where fCoSE took minutes (and 25 s for 1,000 nodes on a busy machine).
 */

/** A node's cell: the node, the ring of its ports (skeleton.ts `ring`) and room around them. */
export const CELL = 90;
/** Room between the boxes of a container, for the label drawn above each box. */
const GAP = 60;

interface Block {
  readonly w: number;
  readonly h: number;
  /** Put the block's nodes, its top-left corner at (x, y). */
  place(x: number, y: number, out: Record<string, [number, number]>): void;
}

/**
 * Where the nodes (and empty boxes) of `skeleton` go, the whole about `aspect` times as wide as
 * high (the view's shape, so that fitting it to the view wastes little room).
 */
export function pack(skeleton: readonly ElementDefinition[], aspect: number): Placed {
  const members = new Map<string, string[]>();
  const kinds = new Map<string, string>();
  const neighbours = new Map<string, string[]>();
  const roots: string[] = [];
  for (const element of skeleton) {
    const { id, parent, source, target, kind } = element.data as { id: string; parent?: string; source?: string; target?: string; kind?: string };
    if (source !== undefined && target !== undefined) {
      listOf(neighbours, source).push(target);
      listOf(neighbours, target).push(source);
      continue;
    }
    kinds.set(id, kind ?? 'nodes');
    if (parent !== undefined) listOf(members, parent).push(id);
    else roots.push(id);
  }

  const blockOf = (ids: readonly string[], shape: number): Block => {
    const cells = ids.filter((id) => !members.has(id));
    const boxes = ids.filter((id) => members.has(id)).map((id) => padded(blockOf(members.get(id)!, shape), PADDING[kinds.get(id)!] ?? 20, members.get(id)!.some((member) => members.has(member)) ? ABOVE_BOXES : 0));
    return shelves([...(cells.length > 0 ? [grid(walk(cells, neighbours), shape)] : []), ...boxes], shape);
  };
  const out: Record<string, [number, number]> = {};
  const whole = blockOf(roots, aspect);
  whole.place(-whole.w / 2, -whole.h / 2, out);
  return out;
}

function listOf(map: Map<string, string[]>, key: string): string[] {
  let list = map.get(key);
  if (!list) map.set(key, (list = []));
  return list;
}

/** `cells` in the order a depth-first walk along the links meets them: a ring comes out in its order. */
function walk(cells: readonly string[], neighbours: ReadonlyMap<string, readonly string[]>): string[] {
  const inside = new Set(cells);
  const seen = new Set<string>();
  const order: string[] = [];
  for (const start of cells) {
    if (seen.has(start)) continue;
    const stack = [start];
    while (stack.length > 0) {
      const at = stack.pop()!;
      if (seen.has(at)) continue;
      seen.add(at);
      order.push(at);
      const next = neighbours.get(at) ?? [];
      for (let i = next.length - 1; i >= 0; i--) if (inside.has(next[i]!) && !seen.has(next[i]!)) stack.push(next[i]!);
    }
  }
  return order;
}

/** The cells on a grid about `aspect` times as wide as high, row after row, every other row backwards (a snake). */
function grid(cells: readonly string[], aspect: number): Block {
  const columns = Math.max(1, Math.min(cells.length, Math.round(Math.sqrt(cells.length * aspect))));
  const rows = Math.ceil(cells.length / columns);
  return {
    w: columns * CELL,
    h: rows * CELL,
    place(x, y, out) {
      cells.forEach((id, i) => {
        const row = Math.floor(i / columns);
        const column = row % 2 === 0 ? i % columns : columns - 1 - (i % columns);
        out[id] = [Math.round(x + (column + 0.5) * CELL), Math.round(y + (row + 0.5) * CELL)];
      });
    },
  };
}

/** A box around `inner`, `padding` on each side and `above` more at the top. */
function padded(inner: Block, padding: number, above: number): Block {
  return { w: inner.w + 2 * padding, h: inner.h + 2 * padding + above, place: (x, y, out) => inner.place(x + padding, y + padding + above, out) };
}

/** At most this many shelf widths are tried for one container. */
const TRIES = 40;

/**
 * Blocks in shelves (tallest first), the shelves' width chosen among those where a shelf breaks
 * so that the whole, fitted to a view `aspect` times as wide as high, is drawn largest.
 */
function shelves(blocks: readonly Block[], aspect: number): Block {
  if (blocks.length === 1) return blocks[0]!;
  const sorted = [...blocks].sort((a, b) => b.h - a.h);
  const widths = new Set<number>();
  let prefix = -GAP;
  const step = Math.max(1, Math.floor(sorted.length / TRIES));
  sorted.forEach((block, i) => {
    prefix += block.w + GAP;
    if (i % step === 0 || i === sorted.length - 1) widths.add(prefix);
  });
  let best: Block | undefined;
  let bestSide = Infinity;
  for (const width of widths) {
    const tried = shelved(sorted, width);
    const side = Math.max(tried.w, tried.h * aspect);
    if (side < bestSide) [best, bestSide] = [tried, side];
  }
  return best!;
}

/** `sorted` in shelves no wider than `width` (a block wider than that alone on its shelf). */
function shelved(sorted: readonly Block[], width: number): Block {
  const at: { block: Block; x: number; y: number }[] = [];
  let x = 0, y = 0, shelf = 0, w = 0;
  for (const block of sorted) {
    if (x > 0 && x + block.w > width) {
      y += shelf + GAP;
      x = 0;
      shelf = 0;
    }
    at.push({ block, x, y });
    x += block.w + GAP;
    shelf = Math.max(shelf, block.h);
    w = Math.max(w, x - GAP);
  }
  return { w, h: y + shelf, place: (px, py, out) => at.forEach((b) => b.block.place(px + b.x, py + b.y, out)) };
}
