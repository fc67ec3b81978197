import cytoscape, { type Core, type ElementDefinition, type NodeSingular } from 'cytoscape';
import fcose from 'cytoscape-fcose';
import type { Positions } from './positions.js';
import { LAYOUT, place, ring, skeletonOf, type Placed } from './skeleton.js';
import { elementId, linkEnds, onPath, references, type Resource, type Topology } from './topology.js';

cytoscape.use(fcose);

/**
 * Above this many drawn nodes (domains, networks, nodes and ports), ports lose their labels and
 * layouts their label sizes and some iterations, and updates place new elements without a new layout.
 */
const LARGE = 1_500;

const label = (resource: Resource): string => resource.name ?? resource.id;

/**
 * The picture's elements: domains and networks as compound boxes, nodes inside the network (or
 * domain) that lists them, ports inside their node, links between their ends (directed ones with
 * an arrow). A containment the topology does not state is not drawn; a link whose end is not
 * drawn is left out.
 */
export function elementsOf(topology: Topology, portsInside = topology.of('nodes').size + topology.of('ports').size <= LARGE): ElementDefinition[] {
  const parent = new Map<string, string>();
  /** Ports beside their node (in its container, on a ring around it) rather than inside it. */
  const besideNode = new Map<string, string>();
  const contain = (container: string, member: string): void => {
    if (!parent.has(member) && member !== container) parent.set(member, container);
  };
  // Narrowest container first: a node listed by its network and its domain goes in the network.
  for (const node of topology.of('nodes').values()) {
    for (const port of references(node, 'ports')) {
      if (portsInside) contain(elementId('nodes', node.id), port);
      else if (!besideNode.has(port)) besideNode.set(port, elementId('nodes', node.id));
    }
  }
  for (const network of topology.of('networks').values()) {
    for (const member of [...references(network, 'nodes'), ...references(network, 'ports')]) contain(elementId('networks', network.id), member);
  }
  for (const domain of topology.of('domains').values()) {
    for (const member of [...references(domain, 'networks'), ...references(domain, 'nodes'), ...references(domain, 'ports'), ...references(domain, 'domains')]) contain(elementId('domains', domain.id), member);
  }

  const boxes: ElementDefinition[] = [];
  const drawn = new Set<string>();
  const add = (collection: 'domains' | 'networks' | 'nodes' | 'ports', resource: Resource): void => {
    const id = elementId(collection, resource.id);
    drawn.add(id);
    boxes.push({ group: 'nodes', data: { id, label: label(resource), kind: collection } });
  };
  for (const collection of ['domains', 'networks', 'nodes', 'ports'] as const) for (const resource of topology.of(collection).values()) add(collection, resource);
  for (const box of boxes) {
    // A port beside its node goes in the node's container.
    const id = box.data.id!;
    const node = besideNode.get(id);
    if (node !== undefined && drawn.has(node)) box.data.node = node;
    const container = parent.get(node ?? id) ?? parent.get(id);
    // Only a drawn container, and never a cycle of domains listing each other.
    if (container !== undefined && drawn.has(container) && !within(parent, container, id)) box.data.parent = container;
  }

  const edges: ElementDefinition[] = [];
  for (const link of topology.of('links').values()) {
    const ends = linkEnds(link);
    if (!ends || !drawn.has(ends.source) || !drawn.has(ends.target)) continue;
    edges.push({ group: 'edges', data: { id: elementId('links', link.id), source: ends.source, target: ends.target, label: link.name ?? '' }, classes: ends.directed ? 'directed' : '' });
  }
  return [...boxes, ...edges];
}

/** The share of a picture's nodes that may lack a kept position for the kept ones still to be used. */
const KEPT_ENOUGH = 0.1;

/** The skeleton laid out on the layout worker (layout-worker.ts): where its nodes go. */
function layOutOnWorker(skeleton: readonly ElementDefinition[]): Promise<Placed> {
  return new Promise((resolve, reject) => {
    const worker = new Worker('ui/layout.js');
    worker.onmessage = (event: MessageEvent<{ positions: Placed }>) => {
      worker.terminate();
      resolve(event.data.positions);
    };
    worker.onerror = (event) => {
      worker.terminate();
      reject(new Error(`the layout failed: ${event.message}`));
    };
    worker.postMessage({ elements: skeleton });
  });
}

/** Kept positions, and for nodes without one a place beside the kept members of their container. */
function besideKept(cy: Core, kept: Placed): Placed {
  const placed: Placed = { ...kept };
  for (const node of cy.nodes('[kind = "nodes"]').toArray()) {
    if (placed[node.id()]) continue;
    const siblings = (node.parent().nonempty() ? node.siblings('[kind = "nodes"]') : cy.nodes('[kind = "nodes"]')).map((s) => kept[s.id()]).filter((at) => at !== undefined);
    const [x, y] = siblings.length > 0 ? [siblings.reduce((sum, at) => sum + at[0], 0) / siblings.length, siblings.reduce((sum, at) => sum + at[1], 0) / siblings.length] : [0, 0];
    placed[node.id()] = [x + Math.random() * 60 - 30, y + Math.random() * 60 - 30];
  }
  return placed;
}

/** Whether `container` lies inside `member` (following `parent`): making it member's parent would close a cycle. */
function within(parent: ReadonlyMap<string, string>, container: string, member: string): boolean {
  const seen = new Set<string>();
  for (let at: string | undefined = container; at !== undefined && !seen.has(at); at = parent.get(at)) {
    if (at === member) return true;
    seen.add(at);
  }
  return false;
}

const STYLE: cytoscape.StylesheetJson = [
  { selector: 'node', style: { label: 'data(label)', 'font-size': 11, 'min-zoomed-font-size': 5, 'text-valign': 'bottom', 'text-margin-y': 3, color: '#1f2933' } },
  { selector: 'node[kind = "nodes"]', style: { shape: 'round-rectangle', 'background-color': '#3b82f6', width: 26, height: 26 } },
  { selector: 'node[kind = "nodes"]:parent', style: { 'background-color': '#dbeafe', 'background-opacity': 1, 'border-color': '#3b82f6', 'border-width': 1.5, padding: '6px', 'text-valign': 'top', 'text-margin-y': -3 } },
  { selector: 'node[kind = "ports"]', style: { shape: 'ellipse', 'background-color': '#f59e0b', width: 10, height: 10, 'font-size': 7 } },
  { selector: 'node[kind = "networks"]', style: { shape: 'round-rectangle', 'background-color': '#ecfdf5', 'border-color': '#10b981', 'border-width': 2, 'text-valign': 'top', 'font-weight': 'bold', 'font-size': 13, padding: '14px' } },
  { selector: 'node[kind = "domains"]', style: { shape: 'round-rectangle', 'background-color': '#f5f3ff', 'border-color': '#8b5cf6', 'border-width': 2, 'border-style': 'dashed', 'text-valign': 'top', 'font-weight': 'bold', 'font-size': 15, padding: '20px' } },
  { selector: 'edge', style: { width: 1.5, 'line-color': '#64748b', 'curve-style': 'bezier', label: 'data(label)', 'font-size': 7, 'min-zoomed-font-size': 9, 'text-rotation': 'autorotate' } },
  // Large pictures: straight edges without labels are far cheaper to draw than curves.
  { selector: 'edge.bulk', style: { 'curve-style': 'straight', label: '', width: 1 } },
  { selector: 'edge.directed', style: { 'target-arrow-shape': 'triangle', 'target-arrow-color': '#64748b', 'arrow-scale': 0.9 } },
  { selector: 'node.quiet', style: { label: '' } },
  { selector: '.faded', style: { opacity: 0.15 } },
  { selector: 'node.match', style: { 'border-color': '#dc2626', 'border-width': 3 } },
  { selector: '.on-path', style: { 'line-color': '#dc2626', 'target-arrow-color': '#dc2626', 'border-color': '#dc2626', 'border-width': 3, width: 3, 'z-index': 10 } },
  // What changed between two instants (the time bar's comparison): created, changed, deleted.
  { selector: 'node.created', style: { 'border-color': '#16a34a', 'border-width': 3 } },
  { selector: 'edge.created', style: { 'line-color': '#16a34a', 'target-arrow-color': '#16a34a', width: 3 } },
  { selector: 'node.changed', style: { 'border-color': '#d97706', 'border-width': 3 } },
  { selector: 'edge.changed', style: { 'line-color': '#d97706', 'target-arrow-color': '#d97706', width: 3 } },
  { selector: 'node.deleted', style: { 'border-color': '#dc2626', 'border-width': 3, 'border-style': 'dashed', opacity: 0.55 } },
  { selector: 'edge.deleted', style: { 'line-color': '#dc2626', 'target-arrow-color': '#dc2626', 'line-style': 'dashed', width: 2, opacity: 0.55 } },
  { selector: ':selected', style: { 'overlay-color': '#111827', 'overlay-opacity': 0.15, 'overlay-padding': 4 } },
];

/** The picture: a Cytoscape.js graph with fCoSE layouts (compound nodes are fCoSE's strength). */
/** Element ids by how they changed between two instants. */
export interface Marks {
  readonly created: ReadonlySet<string>;
  readonly changed: ReadonlySet<string>;
  readonly deleted: ReadonlySet<string>;
}

export class Graph {
  readonly cy: Core;

  /** Where nodes stood when they left the picture: one that comes back (another instant of the time bar) returns there. */
  private readonly left = new Map<string, { x: number; y: number }>();

  /** How the last large picture was placed: by a layout on the worker, or from kept positions. */
  placement: 'worker' | 'kept' | 'page' | undefined;

  constructor(
    container: HTMLElement,
    private readonly positions: Positions,
  ) {
    // Edges are hidden while the view moves: panning 4,000 ports stays smooth.
    this.cy = cytoscape({ container, style: STYLE, minZoom: 0.02, maxZoom: 4, boxSelectionEnabled: false, hideEdgesOnViewport: true });
  }

  get large(): boolean {
    return this.cy.nodes().length > LARGE;
  }

  /** Replace the whole picture and lay it out. Resolves when the layout is done. */
  draw(elements: readonly ElementDefinition[]): Promise<void> {
    this.cy.batch(() => {
      this.cy.elements().remove();
      this.cy.add([...elements]);
    });
    this.cy.container()!.classList.toggle('large', this.large);
    if (!this.large) {
      this.placement = 'page';
      return this.layout(true);
    }
    this.cy.batch(() => {
      this.cy.nodes('[kind = "ports"]').addClass('quiet');
      this.cy.edges().addClass('bulk');
    });
    return this.drawLarge();
  }

  /**
   * A large picture: from the positions kept from the last visit when they cover its nodes,
   * else laid out by its skeleton on the worker; ports on rings around their nodes.
   */
  private async drawLarge(): Promise<void> {
    const nodes = this.cy.nodes('[kind = "nodes"]').map((node) => node.id());
    const kept = this.positions.read();
    const missing = kept ? nodes.filter((id) => kept[id] === undefined).length : nodes.length;
    let placed: Placed;
    if (kept && missing <= nodes.length * KEPT_ENOUGH) {
      placed = besideKept(this.cy, kept);
      this.placement = 'kept';
    } else {
      placed = await layOutOnWorker(skeletonOf(this.cy));
      this.placement = 'worker';
    }
    place(this.cy, placed);
    this.positions.write(Object.fromEntries(nodes.map((id) => [id, placed[id]!] as const).filter(([, at]) => at !== undefined)));
    this.cy.fit(undefined, 30);
  }

  /**
   * Bring the picture to `elements`: add what is new, remove what is gone, update labels and
   * containers, and lay out again around what stayed (new elements start beside their container).
   * Without `relayout` (the time bar's pictures), whatever stays keeps its position.
   */
  update(elements: readonly ElementDefinition[], relayout = true): Promise<void> {
    const wanted = new Map(elements.map((e) => [e.data.id!, e]));
    /** Nodes that a new port was drawn beside: their rings are laid anew. */
    const rings = new Set<string>();
    let changed = false;
    this.cy.batch(() => {
      for (const element of this.cy.elements().toArray()) {
        const want = wanted.get(element.id());
        if (!want || (element.isEdge() && (element.data('source') !== want.data.source || element.data('target') !== want.data.target))) {
          if (element.isNode()) this.left.set(element.id(), { ...element.position() });
          element.remove();
          changed = true;
        }
      }
      for (const [id, want] of wanted) {
        const element = this.cy.getElementById(id);
        if (element.empty()) {
          // Beside its node (a port drawn beside one) or in its container.
          const near = want.data.node ?? want.data.parent;
          const beside = near ? this.cy.getElementById(near) : undefined;
          // A member of a container that holds others already goes just below them, not on top of them.
          const below = beside && beside.nonempty() && want.data.node === undefined && (beside as NodeSingular).isParent() ? (beside as NodeSingular).children().boundingBox({}) : undefined;
          const at = beside && beside.nonempty() ? beside.position() : this.cy.extent();
          // Where it was when it left the picture (the time bar's other instant), else beside.
          const position =
            this.left.get(id) ??
            (below ? { x: (below.x1 + below.x2) / 2, y: below.y2 + 40 } : 'x' in at ? { x: at.x + Math.random() * 40 - 20, y: at.y + Math.random() * 40 - 20 } : { x: (at.x1 + at.x2) / 2, y: (at.y1 + at.y2) / 2 });
          const added = this.cy.add({ ...want, ...(want.group === 'nodes' ? { position } : {}) });
          if (this.large && want.data.kind === 'ports') added.addClass('quiet');
          if (this.large && want.group === 'edges') added.addClass('bulk');
          if (want.data.node !== undefined) rings.add(want.data.node);
          changed = true;
          continue;
        }
        if (element.data('label') !== want.data.label) element.data('label', want.data.label);
        if (element.isEdge()) element.toggleClass('directed', want.classes === 'directed');
        if (element.isNode() && ((element as NodeSingular).data('parent') ?? undefined) !== (want.data.parent ?? undefined)) {
          (element as NodeSingular).move({ parent: want.data.parent ?? null });
          changed = true;
        }
      }
    });
    if (rings.size > 0) {
      this.cy.batch(() => {
        for (const node of rings) ring(this.cy.getElementById(node).position(), this.cy.nodes('[kind = "ports"]').filter((port) => port.data('node') === node).toArray() as NodeSingular[]);
      });
    }
    return changed && relayout && !this.large ? this.layout(false) : Promise.resolve();
  }

  /** Mark what was created, changed and deleted (element ids); undefined clears the marks. */
  mark(marks: Marks | undefined): void {
    this.cy.batch(() => {
      this.cy.elements().removeClass('created changed deleted');
      if (!marks) return;
      for (const kind of ['created', 'changed', 'deleted'] as const) for (const id of marks[kind]) this.cy.getElementById(id).addClass(kind);
    });
  }

  private layout(fresh: boolean): Promise<void> {
    const layout = this.cy.layout({ ...LAYOUT, randomize: fresh, animate: false, fit: fresh, nodeDimensionsIncludeLabels: true } as cytoscape.LayoutOptions);
    const done = new Promise<void>((resolve) => layout.one('layoutstop', () => resolve()));
    layout.run();
    return done;
  }

  /** Mark the nodes of `ids` as matches of the filter and fade the rest; undefined clears it. */
  filter(ids: ReadonlySet<string> | undefined): void {
    this.cy.batch(() => {
      this.cy.elements().removeClass('faded match');
      if (!ids) return;
      for (const node of this.cy.nodes('[kind = "nodes"]').toArray()) {
        if (ids.has(node.id())) node.addClass('match');
        else node.addClass('faded').descendants().addClass('faded');
      }
      this.cy.edges().filter((edge) => edge.source().hasClass('faded') && edge.target().hasClass('faded')).addClass('faded');
    });
  }

  /** Highlight the hops of `paths` and the links between them. */
  highlight(paths: readonly Resource[], topology: Topology): void {
    this.cy.batch(() => {
      this.cy.elements().removeClass('on-path');
      for (const path of paths) {
        const hops = references(path, 'hops');
        for (const hop of hops) this.cy.getElementById(hop).addClass('on-path');
        for (const edge of this.cy.edges().toArray()) {
          const link = topology.get(edge.id());
          const ends = link && linkEnds(link);
          if (ends && onPath(hops, ends)) edge.addClass('on-path');
        }
      }
    });
  }
}
