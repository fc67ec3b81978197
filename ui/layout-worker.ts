/**
 * The layout of a large picture, off the page's thread: the skeleton it is sent (domains and
 * networks as boxes, nodes, and an edge for each pair of nodes that links join; see skeleton.ts)
 * packed by pack.ts, and where its nodes go posted back. The page stays responsive meanwhile,
 * and places the ports around their nodes itself.
 */
import type { ElementDefinition } from 'cytoscape';
import { pack } from './pack.js';

self.onmessage = (event: MessageEvent<{ readonly elements: ElementDefinition[]; readonly aspect: number }>) => {
  const started = performance.now();
  const positions = pack(event.data.elements, event.data.aspect);
  (self as unknown as Worker).postMessage({ positions, ms: performance.now() - started });
};
