/**
 * The layout of a large picture, off the page's thread: a headless Cytoscape.js instance with
 * fCoSE lays out the skeleton it is sent (domains and networks as compound boxes, nodes, and an
 * edge for each pair of nodes that links join; see skeleton.ts) and posts back where the nodes
 * go. The page stays responsive meanwhile, and places the ports around their nodes itself.
 */
import cytoscape, { type ElementDefinition } from 'cytoscape';
import fcose from 'cytoscape-fcose';
import { LAYOUT, NODE_SIZE, type Placed } from './skeleton.js';

cytoscape.use(fcose);

/** What a skeleton's boxes look like to the layout: the sizes of the drawn ones. */
const STYLE: cytoscape.StylesheetJson = [
  { selector: 'node', style: { width: NODE_SIZE, height: NODE_SIZE } },
  { selector: 'node[kind = "networks"]', style: { padding: '14px' } },
  { selector: 'node[kind = "domains"]', style: { padding: '20px' } },
];

self.onmessage = (event: MessageEvent<{ readonly elements: ElementDefinition[] }>) => {
  const started = performance.now();
  const cy = cytoscape({ headless: true, styleEnabled: true, style: STYLE, elements: event.data.elements });
  const layout = cy.layout({ ...LAYOUT, randomize: true, animate: false, fit: false } as cytoscape.LayoutOptions);
  layout.one('layoutstop', () => {
    const positions: Placed = {};
    for (const node of cy.nodes('[kind = "nodes"]').toArray()) {
      const { x, y } = node.position();
      positions[node.id()] = [Math.round(x), Math.round(y)];
    }
    (self as unknown as Worker).postMessage({ positions, ms: performance.now() - started });
    cy.destroy();
  });
  layout.run();
};
