/**
 * A valid resource of every collection, distinguished by `n`. Shared by the suites that walk
 * the operation table for every kind.
 */
const ref = (path: string) => ({ href: `http://example.net/${path}`, rel: 'full' as const });
const endpoint = (path: string) => ({ href: `http://example.net/${path}`, ref: 'full' as const });

export const samples: Readonly<Record<string, (n: number) => Record<string, unknown>>> = {
  nodes: (n) => ({ name: `node-${n}`, urn: `urn:ogf:network:domain=example.net:node=node-${n}`, location: { institution: 'Indiana University' } }),
  ports: (n) => ({ name: `eth${n}`, urn: `urn:ogf:network:domain=example.net:port=eth${n}`, capacity: 10_000_000_000, description: 'uplink', location: { institution: 'IU' } }),
  links: (n) => ({ name: `link-${n}`, directed: true, capacity: 1000, endpoints: { source: endpoint('ports/a'), sink: endpoint(`ports/b${n}`) } }),
  paths: (n) => ({ urn: `urn:ogf:network:domain=example.net:path=p${n}`, name: `path-${n}`, description: 'a path', directed: true, hops: [ref('ports/a'), ref('nodes/b'), ref('ports/c')] }),
  services: (n) => ({
    accessPoint: `http://ms.example.net:${8000 + n}/`,
    name: `blipp-${n}`,
    status: 'ON',
    serviceType: 'http://some-schema/blipp',
    ttl: 600,
    description: 'measurement point',
    runningOn: ref('nodes/n1'),
    properties: { configurations: { default_collection_size: 100, max_collection_size: 1000 }, summary: { metadata: ['http://example.net/metadata/m1'] } },
  }),
  networks: (n) => ({ name: `net-${n}`, nodes: [ref('nodes/a')], ports: [ref('ports/a')] }),
  domains: (n) => ({ name: `domain-${n}`, nodes: [ref('nodes/a')], ports: [ref('ports/b')] }),
  topologies: (n) => ({ name: `topo-${n}`, domains: [ref('domains/d')], nodes: [ref('nodes/a')] }),
  measurements: (n) => ({
    service: `http://example.net/services/s${n}`,
    configuration: { name: `probe-${n}`, collection_schedule: 'builtins.simple', schedule_params: { every: 30 } },
    eventTypes: ['ps:tools:blipp:linux:cpu:utilization:user'],
  }),
  exnodes: (n) => ({ name: `file-${n}.bin`, size: 1024 * n, mode: 'file', created: 1_500_000_000 + n, modified: 1_500_000_000 + n, parent: null, extents: [] }),
  extents: (n) => ({ location: `ibp://depot-${n}.example.net:6714`, size: 512, offset: 512 * n, index: n, parent: ref(`exnodes/e${n}`) }),
  metadata: (n) => ({
    subject: ref(`ports/p${n}`),
    eventType: 'ps:tools:blipp:linux:net:dev:bytes',
    parameters: { collectionInterval: 30, datumSchema: 'http://unis.incntre.iu.edu/schema/20120709/datum#' },
  }),
};

export const collections = Object.keys(samples);
