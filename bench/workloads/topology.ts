/**
 * The REST data set: nodes with the fields a topology service really holds, client-chosen ids
 * (so a load can name any stored node), 100 institutions (each `location.institution` value is
 * shared by 1% of the nodes) and a unique name per node.
 */
export const INSTITUTIONS = 100;

export function nodeId(i: number): string {
  return `n${String(i).padStart(7, '0')}`;
}

/** `GET /nodes/{id}` paths of `count` nodes picked at random among the `total` loaded. */
export function randomNodePaths(total: number, count = 10_000): string[] {
  return Array.from({ length: count }, () => `/nodes/${nodeId(Math.floor(Math.random() * total))}`);
}

export function nodeName(i: number): string {
  return `node-${i}`;
}

export function institution(i: number): string {
  return `institution-${i % INSTITUTIONS}`;
}

export function node(i: number): Record<string, unknown> {
  return {
    id: nodeId(i),
    name: nodeName(i),
    urn: `urn:ogf:network:domain=bench.example.net:node=${nodeName(i)}`,
    description: 'A router in the benchmark topology, with a description of ordinary length.',
    status: 'ON',
    location: { institution: institution(i), country: 'US', state: 'IN', city: 'Bloomington', latitude: 39.17, longitude: -86.52 },
    ports: [
      { href: `http://127.0.0.1/ports/${nodeId(i)}-1`, rel: 'full' },
      { href: `http://127.0.0.1/ports/${nodeId(i)}-2`, rel: 'full' },
    ],
    properties: { vendor: 'Example Networks', model: 'EX-9000', rack: `r${i % 40}` },
  };
}

/** A node without an id, for the single-POST row: the server makes the id. */
export function newNode(): Record<string, unknown> {
  const { id: _id, ...rest } = node(0);
  return { ...rest, name: 'posted-node' };
}
