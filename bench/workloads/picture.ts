/**
 * A whole topology for the picture at /ui (its browser tests and bench row): domains of networks
 * of nodes, each node with its ports, links between ports of neighbouring nodes (every third one
 * directed) and paths along chains of them, all with client-chosen ids and posted through the
 * REST interface in arrays.
 */

export interface PictureShape {
  readonly domains: number;
  readonly networksPerDomain: number;
  readonly nodesPerNetwork: number;
  readonly portsPerNode: number;
  readonly paths: number;
}

export interface Picture {
  readonly domains: number;
  readonly networks: number;
  readonly nodes: number;
  readonly ports: number;
  readonly links: number;
  readonly paths: number;
}

const ref = (base: string, collection: string, id: string) => ({ href: `${base}/${collection}/${id}`, rel: 'full' });
const nodeOf = (d: number, w: number, n: number) => `d${d}-w${w}-n${n}`;
const portOf = (node: string, p: number) => `${node}-p${p}`;

/** The resources of `shape`, by collection, referring to each other under `base`. */
export function picture(base: string, shape: PictureShape): Record<string, Record<string, unknown>[]> {
  const out: Record<string, Record<string, unknown>[]> = { ports: [], nodes: [], links: [], networks: [], domains: [], paths: [] };
  const chain: string[] = [];
  for (let d = 0; d < shape.domains; d++) {
    const networks: string[] = [];
    for (let w = 0; w < shape.networksPerDomain; w++) {
      const nodes: string[] = [];
      for (let n = 0; n < shape.nodesPerNetwork; n++) {
        const node = nodeOf(d, w, n);
        const ports = Array.from({ length: shape.portsPerNode }, (_, p) => portOf(node, p));
        out.ports!.push(...ports.map((id) => ({ id, name: id.slice(node.length + 1), capacity: 10_000_000_000 })));
        out.nodes!.push({ id: node, name: `router ${d}.${w}.${n}`, location: { institution: `institution-${d}` }, ports: ports.map((p) => ref(base, 'ports', p)) });
        nodes.push(node);
        chain.push(node);
      }
      // A ring inside the network: the last port of each node to the first port of the next.
      for (let n = 0; n < nodes.length && nodes.length > 1; n++) {
        const from = portOf(nodes[n]!, shape.portsPerNode - 1);
        const to = portOf(nodes[(n + 1) % nodes.length]!, 0);
        const id = `link-${nodes[n]}`;
        const directed = out.links!.length % 3 === 0;
        out.links!.push({ id, name: id, capacity: 10_000_000_000, ...(directed ? { directed: true, endpoints: { source: ref(base, 'ports', from), sink: ref(base, 'ports', to) } } : { endpoints: [ref(base, 'ports', from), ref(base, 'ports', to)] }) });
      }
      const network = `d${d}-w${w}`;
      out.networks!.push({ id: network, name: `network ${d}.${w}`, nodes: nodes.map((n) => ref(base, 'nodes', n)) });
      networks.push(network);
    }
    out.domains!.push({ id: `d${d}`, name: `domain ${d}`, networks: networks.map((w) => ref(base, 'networks', w)) });
  }
  // Paths along the first rings: port, node, port, … through consecutive nodes.
  for (let p = 0; p < shape.paths && shape.nodesPerNetwork > 2; p++) {
    const start = p * shape.nodesPerNetwork;
    const nodes = chain.slice(start, start + 3);
    if (nodes.length < 3) break;
    const hops = [ref(base, 'ports', portOf(nodes[0]!, shape.portsPerNode - 1)), ref(base, 'nodes', nodes[1]!), ref(base, 'ports', portOf(nodes[1]!, shape.portsPerNode - 1)), ref(base, 'nodes', nodes[2]!), ref(base, 'ports', portOf(nodes[2]!, 0))];
    out.paths!.push({ id: `path-${p}`, name: `path ${p}`, directed: true, hops });
  }
  return out;
}

/** Post `shape` to the service at `base` in arrays of at most 1,000; what was posted, counted. */
export async function postPicture(base: string, shape: PictureShape, headers: Readonly<Record<string, string>> = {}): Promise<Picture> {
  const resources = picture(base, shape);
  for (const collection of ['ports', 'nodes', 'links', 'networks', 'domains', 'paths']) {
    const items = resources[collection]!;
    for (let i = 0; i < items.length; i += 1_000) {
      const response = await fetch(`${base}/${collection}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(items.slice(i, i + 1_000)) });
      if (response.status !== 201) throw new Error(`POST /${collection}: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
    }
  }
  const counted = Object.fromEntries(Object.entries(resources).map(([collection, items]) => [collection, items.length]));
  return counted as unknown as Picture;
}
