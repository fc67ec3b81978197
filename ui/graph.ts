import cytoscape, { type Core, type ElementDefinition, type NodeSingular } from 'cytoscape';
import fcose from 'cytoscape-fcose';
import type { Positions } from './positions.js';
import { CELL } from './pack.js';
import { flat, LAYOUT, NODE_SIZE, onRing, placed as inPlace, ring, skeletonOf, type Placed } from './skeleton.js';
import { elementId, linkEnds, onPath, references, type Resource, type Topology } from './topology.js';

cytoscape.use(fcose);

/**
 * Above this many drawn nodes (domains, networks, nodes and ports), ports lose their labels and
 * layouts their label sizes and some iterations, and updates place new elements without a new layout.
 */
const LARGE = 1_500;

/**
 * Below this zoom a large picture is drawn from afar: its nodes at FAR_SIZE (most of their cell)
 * without names, its ports not drawn (they would be specks under their node), a line for each
 * pair of linked nodes instead of the links between their ports, its boxes' labels larger.
 * Fitted, 10,000 nodes are then 4.7 pixels wide in the bench's view (the fCoSE layout drew 1,000
 * nodes 2.8 pixels wide).
 */
const FAR_ZOOM = 0.3;
const FAR_SIZE = Math.round(CELL * 0.85);
/** The margin around a fitted picture, in pixels. */
const MARGIN = 30;
/** Room above a box for its name, in model units. */
const LABEL_ROOM = 60;

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
function layOutOnWorker(skeleton: readonly ElementDefinition[], aspect: number): Promise<Placed> {
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
    worker.postMessage({ elements: skeleton, aspect });
  });
}

/** Kept positions, and for nodes without one a place beside the kept members of their container. */
function besideKept(elements: readonly ElementDefinition[], kept: Placed): Placed {
  const placed: Placed = { ...kept };
  const nodes = elements.filter((e) => e.group !== 'edges' && e.data.kind === 'nodes');
  const members = new Map<string | undefined, (readonly [number, number])[]>();
  for (const node of nodes) {
    const at = kept[node.data.id!];
    if (at) (members.get(node.data.parent) ?? members.set(node.data.parent, []).get(node.data.parent)!).push(at);
  }
  for (const node of nodes) {
    if (placed[node.data.id!]) continue;
    const siblings = members.get(node.data.parent) ?? [];
    const [x, y] = siblings.length > 0 ? [siblings.reduce((sum, at) => sum + at[0], 0) / siblings.length, siblings.reduce((sum, at) => sum + at[1], 0) / siblings.length] : [0, 0];
    placed[node.data.id!] = [x + Math.random() * 60 - 30, y + Math.random() * 60 - 30];
  }
  return placed;
}

/**
 * The view that fits `elements` (placed, flat) in `width` × `height` pixels, as `cy.fit` would
 * but from the positions and box sizes alone: `cy.fit` measures every element's bounding box,
 * which styles all of them at once (a third of the first drawing of 10,000 nodes).
 */
function fitted(elements: readonly ElementDefinition[], width: number, height: number): { zoom: number; pan: { x: number; y: number } } {
  let [x1, y1, x2, y2] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const { position, data } of elements) {
    if (!position) continue;
    const [w, h] = typeof data.w === 'number' ? [data.w as number, data.h as number] : [CELL, CELL];
    // A box's name is drawn above it.
    const above = typeof data.w === 'number' ? LABEL_ROOM : 0;
    [x1, y1, x2, y2] = [Math.min(x1, position.x - w / 2), Math.min(y1, position.y - h / 2 - above), Math.max(x2, position.x + w / 2), Math.max(y2, position.y + h / 2)];
  }
  if (x2 < x1) return { zoom: 1, pan: { x: width / 2, y: height / 2 } };
  const zoom = Math.min(4, (width - 2 * MARGIN) / (x2 - x1), (height - 2 * MARGIN) / (y2 - y1));
  return { zoom, pan: { x: width / 2 - ((x1 + x2) / 2) * zoom, y: height / 2 - ((y1 + y2) / 2) * zoom } };
}

/** `elements` split into the ports with the links between them, and the rest. */
function split(elements: readonly ElementDefinition[]): [ElementDefinition[], ElementDefinition[]] {
  const ports = new Set(elements.filter((e) => e.group !== 'edges' && e.data.kind === 'ports').map((e) => e.data.id!));
  const later: ElementDefinition[] = [];
  const now: ElementDefinition[] = [];
  for (const e of elements) (ports.has(e.data.id!) || (e.group === 'edges' && (ports.has(e.data.source!) || ports.has(e.data.target!))) ? later : now).push(e);
  return [later, now];
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
  { selector: 'node', style: { label: 'data(label)', 'font-size': 11, 'min-zoomed-font-size': 7, 'text-valign': 'bottom', 'text-margin-y': 3, color: '#1f2933' } },
  { selector: 'node[kind = "nodes"]', style: { shape: 'round-rectangle', 'background-color': '#3b82f6', width: NODE_SIZE, height: NODE_SIZE } },
  { selector: 'node[kind = "nodes"]:parent', style: { 'background-color': '#dbeafe', 'background-opacity': 1, 'border-color': '#3b82f6', 'border-width': 1.5, padding: '6px', 'text-valign': 'top', 'text-margin-y': -3 } },
  { selector: 'node[kind = "ports"]', style: { shape: 'ellipse', 'background-color': '#f59e0b', width: 10, height: 10, 'font-size': 7 } },
  { selector: 'node[kind = "networks"]', style: { shape: 'round-rectangle', 'background-color': '#ecfdf5', 'border-color': '#10b981', 'border-width': 2, 'text-valign': 'top', 'font-weight': 'bold', 'font-size': 13, padding: '14px' } },
  { selector: 'node[kind = "domains"]', style: { shape: 'round-rectangle', 'background-color': '#f5f3ff', 'border-color': '#8b5cf6', 'border-width': 2, 'border-style': 'dashed', 'text-valign': 'top', 'font-weight': 'bold', 'font-size': 15, padding: '20px' } },
  // A lookup's picture (federation.ts): each instance's box, nodes and ports in its colour.
  { selector: 'node[kind = "instances"]', style: { shape: 'round-rectangle', 'background-color': 'data(colour)', 'background-opacity': 0.06, 'border-color': 'data(colour)', 'border-width': 3, 'text-valign': 'top', 'font-weight': 'bold', 'font-size': 16, color: 'data(colour)', padding: '24px' } },
  { selector: 'node[colour][kind = "nodes"], node[colour][kind = "ports"]', style: { 'background-color': 'data(colour)' } },
  { selector: 'node[colour][kind = "nodes"]:parent', style: { 'background-opacity': 0.15, 'border-color': 'data(colour)' } },
  { selector: 'edge', style: { width: 1.5, 'line-color': '#64748b', 'curve-style': 'bezier', label: 'data(label)', 'font-size': 7, 'min-zoomed-font-size': 9, 'text-rotation': 'autorotate' } },
  // Large pictures: straight edges without labels are far cheaper to draw than curves.
  { selector: 'edge.bulk', style: { 'curve-style': 'straight', label: '', width: 1 } },
  { selector: 'edge.directed', style: { 'target-arrow-shape': 'triangle', 'target-arrow-color': '#64748b', 'arrow-scale': 0.9 } },
  { selector: 'node.quiet', style: { label: '' } },
  // A large picture's flat boxes (skeleton.ts `flat`), as large as their members, behind them; links over the boxes, under the nodes.
  { selector: 'node.flat[w]', style: { width: 'data(w)', height: 'data(h)' } },
  { selector: '.flat', style: { 'z-index-compare': 'manual' } },
  { selector: 'node.flat[kind = "domains"]', style: { 'z-index': 1 } },
  { selector: 'node.flat[kind = "networks"]', style: { 'z-index': 2 } },
  { selector: 'edge.flat', style: { 'z-index': 3 } },
  { selector: 'node.flat[kind = "nodes"]', style: { 'z-index': 4 } },
  { selector: 'node.flat[kind = "ports"]', style: { 'z-index': 5 } },
  // A large picture from afar: nodes fill most of their cell, without their names (which could not be read);
  // ports would be specks under their node and are not drawn; the boxes' names are larger.
  { selector: 'node.far[kind = "nodes"]', style: { width: FAR_SIZE, height: FAR_SIZE, label: '' } },
  // Not drawn at all: a hidden element still costs its share of every frame (a third of the first one at 1,000 nodes).
  { selector: 'node.far[kind = "ports"]', style: { display: 'none' } },
  { selector: 'edge[kind = "overview"]', style: { display: 'none', 'curve-style': 'straight', width: 2, 'line-color': '#94a3b8', label: '', events: 'no' } },
  { selector: 'edge.far[kind = "overview"]', style: { display: 'element' } },
  { selector: 'node.far[kind = "networks"]', style: { 'font-size': 34 } },
  { selector: 'node.far[kind = "domains"]', style: { 'font-size': 50 } },
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

  /** Whether the picture is drawn as from afar (followZoom). */
  private far = false;

  /**
   * A large picture first seen from afar: its ports and the links between them, added once the
   * view comes near (followZoom). Far, they would not be drawn, but styling them would still
   * cost most of the first drawing (they are five of every seven elements of the bench's pictures).
   */
  private deferred: ElementDefinition[] = [];

  constructor(
    container: HTMLElement,
    private readonly positions: Positions,
  ) {
    // Edges are hidden while the view moves: panning 4,000 ports stays smooth.
    this.cy = cytoscape({ container, style: STYLE, minZoom: 0.02, maxZoom: 4, boxSelectionEnabled: false, hideEdgesOnViewport: true });
    this.cy.on('zoom', () => this.followZoom());
  }

  /** Whether the picture was drawn as a large one (more than LARGE nodes, ports and boxes). */
  get large(): boolean {
    return this.drawnLarge;
  }

  private drawnLarge = false;

  /** Replace the whole picture and lay it out. Resolves when the layout is done. */
  draw(elements: readonly ElementDefinition[]): Promise<void> {
    this.drawnLarge = elements.filter((e) => e.group !== 'edges').length > LARGE;
    this.deferred = [];
    if (this.drawnLarge) return this.drawLarge(elements);
    this.cy.batch(() => {
      this.cy.elements().remove();
      this.cy.add([...elements]);
    });
    this.cy.container()!.classList.remove('large');
    this.placement = 'page';
    this.far = false;
    return this.layout(true);
  }

  /**
   * A large picture: from the positions kept from the last visit when they cover its nodes,
   * else its skeleton packed on the worker; ports on rings around their nodes. The elements are
   * added in place, already drawn as from afar when the fitted view is far: one first drawing.
   */
  private async drawLarge(elements: readonly ElementDefinition[]): Promise<void> {
    const nodes = elements.filter((e) => e.group !== 'edges' && e.data.kind === 'nodes').map((e) => e.data.id!);
    const kept = this.positions.read();
    const missing = kept ? nodes.filter((id) => kept[id] === undefined).length : nodes.length;
    const skeleton = skeletonOf(elements);
    let at: Placed;
    if (kept && missing <= nodes.length * KEPT_ENOUGH) {
      at = besideKept(elements, kept);
      this.placement = 'kept';
    } else {
      at = await layOutOnWorker(skeleton, this.cy.width() / Math.max(1, this.cy.height()));
      this.placement = 'worker';
    }
    const positioned = flat(inPlace(elements, at));
    const view = fitted(positioned, this.cy.width(), this.cy.height());
    this.far = view.zoom < FAR_ZOOM;
    const far = this.far ? ' far' : '';
    const [later, now] = this.far ? split(positioned) : [[], positioned];
    this.deferred = later;
    this.cy.batch(() => {
      this.cy.elements().remove();
      this.cy.add(now.map((e) => (e.group === 'edges' ? { ...e, classes: `${e.classes ?? ''} bulk flat` } : { ...e, classes: `${e.data.kind === 'ports' ? 'quiet ' : ''}flat${far}` })));
      // From afar, one line for each pair of linked nodes stands for the links between their ports.
      this.cy.add(skeleton.filter((e) => e.group === 'edges').map((e) => ({ group: 'edges', data: { ...e.data, kind: 'overview' }, classes: `flat${far}` })));
    });
    this.cy.container()!.classList.add('large');
    this.positions.write(Object.fromEntries(nodes.map((id) => [id, at[id]!] as const).filter(([, p]) => p !== undefined)));
    // The computed view, not `cy.fit`: fitting measured every element's bounding box, which styled
    // all of them at once, 335 of the 548 ms this method took for 1,000 nodes (a page profile,
    // docs/ui.md "Measured"); the first frame styles only what it draws.
    this.cy.viewport(view);
    this.followZoom();
  }

  /** A large picture seen from afar (below FAR_ZOOM) or near: nodes, links and labels drawn for it. */
  private followZoom(): void {
    const far = this.large && this.cy.zoom() < FAR_ZOOM;
    if (far === this.far) return;
    this.far = far;
    this.cy.batch(() => {
      this.cy.nodes().union(this.cy.edges('[kind = "overview"]')).toggleClass('far', far);
      if (!far) this.addDeferred();
    });
  }

  /** The ports and their links left out while the picture was seen from afar: each port on the ring around its node. */
  private addDeferred(): void {
    const ports = new Map<string, ElementDefinition[]>();
    for (const port of this.deferred) {
      const node = port.data.node as string | undefined;
      if (port.group !== 'edges' && node !== undefined) (ports.get(node) ?? ports.set(node, []).get(node)!).push(port);
    }
    const at = new Map<string, cytoscape.Position>();
    for (const [node, around] of ports) {
      const center = this.cy.getElementById(node);
      if (center.nonempty()) around.forEach((port, i) => at.set(port.data.id!, onRing((center as NodeSingular).position(), i, around.length)));
    }
    this.cy.add(
      this.deferred.map((e): ElementDefinition => {
        if (e.group === 'edges') return { ...e, classes: `${e.classes ?? ''} bulk flat` };
        const near = this.cy.getElementById((e.data.node ?? e.data.box ?? '') as string);
        const position = at.get(e.data.id!) ?? (near.nonempty() ? (near as NodeSingular).position() : { x: 0, y: 0 });
        return { ...e, position, classes: 'quiet flat' };
      }),
    );
    this.deferred = [];
  }

  /**
   * Bring the picture to `elements`: add what is new, remove what is gone, update labels and
   * containers, and lay out again around what stayed (new elements start beside their container).
   * Without `relayout` (the time bar's pictures), whatever stays keeps its position.
   */
  update(elements: readonly ElementDefinition[], relayout = true): Promise<void> {
    let list = this.large ? flat(elements) : elements;
    // Still seen from afar: the ports and their links wait, as they now are.
    if (this.deferred.length > 0) [this.deferred, list] = split(list);
    const wanted = new Map(list.map((e) => [e.data.id!, e]));
    /** Nodes that a new port was drawn beside: their rings are laid anew. */
    const rings = new Set<string>();
    let changed = false;
    this.cy.batch(() => {
      for (const element of this.cy.elements().toArray()) {
        if (element.data('kind') === 'overview') continue;
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
          const near = want.data.node ?? want.data.parent ?? want.data.box;
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
          if (this.far && want.group === 'nodes') added.addClass('far');
          if (this.large && want.group === 'edges') added.addClass('bulk');
          if (this.large) added.addClass('flat');
          if (want.data.node !== undefined) rings.add(want.data.node);
          changed = true;
          continue;
        }
        if (element.data('label') !== want.data.label) element.data('label', want.data.label);
        // A port that a node lists only now (drawn alone before) joins that node's ring.
        if (element.isNode() && (element.data('node') ?? undefined) !== (want.data.node ?? undefined)) {
          if (want.data.node === undefined) element.removeData('node');
          else {
            element.data('node', want.data.node);
            rings.add(want.data.node);
          }
          changed = true;
        }
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
    return changed && relayout && !(this.large || this.cy.nodes().length > LARGE) ? this.layout(false) : Promise.resolve();
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
