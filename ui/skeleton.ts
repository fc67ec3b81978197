import type { Core, ElementDefinition } from 'cytoscape';

/**
 * Large pictures are laid out by their skeleton: the boxes of domains and networks, the nodes,
 * and one edge for each pair of nodes that links join. Ports take no part: each is placed on a
 * small ring around its node. fCoSE over 1,000 nodes instead of 5,000 elements, on a worker
 * thread (layout-worker.ts), so the page stays responsive while it runs.
 */

/** A drawn node's side, in model units (the style and the layout agree on it). */
export const NODE_SIZE = 26;

/** Where the nodes go, by element id. */
export type Placed = Record<string, readonly [number, number]>;

/** fCoSE's settings for skeletons, the same on the worker and for small pictures on the page. */
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

/** The skeleton of the picture in `cy`: what the layout worker is sent. */
export function skeletonOf(cy: Core): ElementDefinition[] {
  const boxes = cy.nodes('[kind != "ports"]').map((node): ElementDefinition => ({
    group: 'nodes',
    data: { id: node.id(), kind: node.data('kind') as string, ...(node.data('parent') ? { parent: node.data('parent') as string } : {}) },
  }));
  const pairs = new Set<string>();
  const edges: ElementDefinition[] = [];
  for (const edge of cy.edges().toArray()) {
    const source = nodeOf(edge.source()), target = nodeOf(edge.target());
    if (source === target) continue;
    const pair = source < target ? `${source} ${target}` : `${target} ${source}`;
    if (pairs.has(pair)) continue;
    pairs.add(pair);
    edges.push({ group: 'edges', data: { id: `skeleton:${edges.length}`, source, target } });
  }
  return [...boxes, ...edges];
}

/** The node a port is drawn beside, or the element itself. */
function nodeOf(element: cytoscape.NodeSingular): string {
  return (element.data('node') as string | undefined) ?? element.id();
}

/**
 * Put the nodes where `placed` says and every port on a ring around its node; nodes that
 * `placed` lacks go beside their container's other members. One batch: one redraw.
 */
export function place(cy: Core, placed: Placed): void {
  cy.batch(() => {
    for (const node of cy.nodes('[kind = "nodes"]').toArray()) {
      const at = placed[node.id()];
      if (at) node.position({ x: at[0], y: at[1] });
    }
    const ports = new Map<string, cytoscape.NodeSingular[]>();
    for (const port of cy.nodes('[kind = "ports"]').toArray()) {
      const node = port.data('node') as string | undefined;
      if (node !== undefined) (ports.get(node) ?? ports.set(node, []).get(node)!).push(port);
    }
    for (const [node, around] of ports) ring(cy.getElementById(node).position(), around);
  });
}

/** `ports` evenly on a ring around `center`, wide enough to keep them apart. */
export function ring(center: cytoscape.Position, ports: readonly cytoscape.NodeSingular[]): void {
  const radius = NODE_SIZE * 0.9 + ports.length * 1.5;
  ports.forEach((port, i) => {
    const angle = (2 * Math.PI * i) / ports.length - Math.PI / 2;
    port.position({ x: center.x + radius * Math.cos(angle), y: center.y + radius * Math.sin(angle) });
  });
}
