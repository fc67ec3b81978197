import type { ElementDefinition, Position } from 'cytoscape';
import { ABOVE_BOXES, PADDING } from './box-room.js';

/**
 * Large pictures are laid out by their skeleton: the boxes of domains and networks, the nodes,
 * and one edge for each pair of nodes that links join. Ports take no part: each is placed on a
 * small ring around its node. The skeleton is packed (pack.ts) on a worker thread
 * (layout-worker.ts), and the elements are added to the picture already in place: the page
 * draws them once, where they belong.
 */

/** A drawn node's side, in model units (the style and the layout agree on it). */
export const NODE_SIZE = 26;

/** Where the nodes go, by element id. */
export type Placed = Record<string, readonly [number, number]>;

/** fCoSE's settings for small pictures, laid out on the page. */
export const LAYOUT = {
  name: 'fcose',
  quality: 'default',
  numIter: 2_500,
  padding: 30,
  nodeDimensionsIncludeLabels: false,
  packComponents: true,
  idealEdgeLength: 60,
  nodeRepulsion: 6000,
} as const;

/** The skeleton of the picture's `elements` (elementsOf): what the layout worker is sent. */
export function skeletonOf(elements: readonly ElementDefinition[]): ElementDefinition[] {
  const besideNode = new Map<string, string>();
  const boxes: ElementDefinition[] = [];
  for (const element of elements) {
    if (element.group === 'edges') continue;
    const { id, kind, parent, node } = element.data as { id: string; kind: string; parent?: string; node?: string };
    if (kind === 'ports') {
      if (node !== undefined) besideNode.set(id, node);
      continue;
    }
    boxes.push({ group: 'nodes', data: { id, kind, ...(parent !== undefined ? { parent } : {}) } });
  }
  const pairs = new Set<string>();
  const edges: ElementDefinition[] = [];
  for (const element of elements) {
    if (element.group !== 'edges') continue;
    const source = besideNode.get(element.data.source!) ?? element.data.source!;
    const target = besideNode.get(element.data.target!) ?? element.data.target!;
    if (source === target) continue;
    const pair = source < target ? `${source} ${target}` : `${target} ${source}`;
    if (pairs.has(pair)) continue;
    pairs.add(pair);
    edges.push({ group: 'edges', data: { id: `skeleton:${edges.length}`, source, target } });
  }
  return [...boxes, ...edges];
}

/**
 * `elements` with their positions: the nodes (and empty boxes) where `placed` says, every port
 * on a ring around its node; boxes with members take their members' place.
 */
export function placed(elements: readonly ElementDefinition[], at: Placed): ElementDefinition[] {
  const ports = new Map<string, string[]>();
  for (const element of elements) {
    const node = element.data.node as string | undefined;
    if (element.group !== 'edges' && element.data.kind === 'ports' && node !== undefined) (ports.get(node) ?? ports.set(node, []).get(node)!).push(element.data.id!);
  }
  const where = new Map<string, Position>();
  for (const [node, around] of ports) {
    const center = at[node];
    if (center) around.forEach((port, i) => where.set(port, onRing({ x: center[0], y: center[1] }, i, around.length)));
  }
  return elements.map((element) => {
    const id = element.data.id!;
    const position = where.get(id) ?? (at[id] ? { x: at[id][0], y: at[id][1] } : undefined);
    return position ? { ...element, position } : element;
  });
}

/** The `i`th of `count` places evenly on a ring around `center`, wide enough to keep them apart. */
export function onRing(center: Position, i: number, count: number): Position {
  const radius = NODE_SIZE * 0.9 + count * 1.5;
  const angle = (2 * Math.PI * i) / count - Math.PI / 2;
  return { x: center.x + radius * Math.cos(angle), y: center.y + radius * Math.sin(angle) };
}

/** `ports` evenly on a ring around `center`. */
export function ring(center: Position, ports: readonly { position(at: Position): unknown }[]): void {
  ports.forEach((port, i) => port.position(onRing(center, i, ports.length)));
}

/**
 * A large picture's domains and networks are drawn flat, not as compound nodes: each a plain
 * node behind its members, as large as they are. Cytoscape.js restyles a compound node's whole
 * family on every property of every member it styles: two thirds of the style time of a
 * 10,000-node picture. `elements` with each container's `parent` moved to `box`, the boxes sized
 * to hold their members (placed by `at`) and behind them (`flat`: their z-order is their kind's).
 */
export function flat(elements: readonly ElementDefinition[]): ElementDefinition[] {
  const members = new Map<string, ElementDefinition[]>();
  const byId = new Map<string, ElementDefinition>();
  for (const element of elements) {
    if (element.group === 'edges') continue;
    byId.set(element.data.id!, element);
    if (element.data.parent !== undefined) (members.get(element.data.parent) ?? members.set(element.data.parent, []).get(element.data.parent)!).push(element);
  }
  const extents = new Map<string, { x1: number; y1: number; x2: number; y2: number }>();
  const extentOf = (element: ElementDefinition, seen: Set<string>): { x1: number; y1: number; x2: number; y2: number } | undefined => {
    const id = element.data.id!;
    const known = extents.get(id);
    if (known || seen.has(id)) return known;
    seen.add(id);
    const inside = members.get(id);
    let extent: { x1: number; y1: number; x2: number; y2: number } | undefined;
    if (!inside) {
      const half = element.data.kind === 'ports' ? 5 : NODE_SIZE * 1.2;
      extent = element.position ? { x1: element.position.x - half, y1: element.position.y - half, x2: element.position.x + half, y2: element.position.y + half } : undefined;
    } else {
      // As pack.ts leaves room: less its cells' margin for the nodes' rings.
      const pad = (PADDING[element.data.kind as string] ?? 20) - 10;
      const above = inside.some((member) => members.has(member.data.id!)) ? ABOVE_BOXES : 0;
      for (const member of inside) {
        const e = extentOf(member, seen);
        if (!e) continue;
        const around = { x1: e.x1 - pad, y1: e.y1 - pad - above, x2: e.x2 + pad, y2: e.y2 + pad };
        extent = extent ? { x1: Math.min(extent.x1, around.x1), y1: Math.min(extent.y1, around.y1), x2: Math.max(extent.x2, around.x2), y2: Math.max(extent.y2, around.y2) } : around;
      }
    }
    if (extent) extents.set(id, extent);
    return extent;
  };
  const seen = new Set<string>();
  for (const element of byId.values()) extentOf(element, seen);
  return elements.map((element): ElementDefinition => {
    if (element.group === 'edges') return element;
    const { parent, ...data } = element.data;
    const box = members.has(element.data.id!) ? extents.get(element.data.id!) : undefined;
    const sized = box ? { ...data, w: box.x2 - box.x1, h: box.y2 - box.y1 } : data;
    return { ...element, data: parent === undefined ? sized : { ...sized, box: parent }, ...(box ? { position: { x: (box.x1 + box.x2) / 2, y: (box.y1 + box.y2) / 2 }, grabbable: false } : {}) };
  });
}
