import assert from 'node:assert/strict';
import { get, post } from '../helpers/http.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { wire } from '../helpers/wire.js';

const UNIS_2012 = 'http://unis.incntre.iu.edu/schema/20120709';
const UNIS_2014 = 'http://unis.incntre.iu.edu/schema/20140214';

/**
 * The network that peri-client-scripts' `testing_utils/generator.py` writes (a three-level tree
 * of hosts, switches and aggregation switches, with client ids, embedded ports, nodes and links,
 * and `#/ports/N` pointers also inside undirected link endpoints, marked `rel`), for smaller
 * sizes. Like the original, it repeats some ids (`s0` once per aggregation switch).
 */
function generatedNetwork(hostsPerSwitch: number, switchesPerAgg: number, cores: number): Record<string, any> {
  const port = (name: string, address: string) => ({ $schema: `${UNIS_2012}/port#`, address: { address, type: 'mac' }, name, id: name });
  const node = (name: string, ports: object[]) => ({ $schema: `${UNIS_2012}/node#`, id: name, name, ports });
  const link = (name: string, endpoints: object[]) => ({ $schema: `${UNIS_2012}/link#`, id: name, name, directed: false, endpoints });
  const mac = (n: number) => n.toString(16).padStart(12, '0').replace(/(..)(?!$)/g, '$1:');
  const net = { $schema: `${UNIS_2012}/network#`, id: 'test', name: 'test', ports: [] as object[], nodes: [] as object[], links: [] as object[] };
  const pointer = () => ({ href: `#/ports/${net.ports.length - 1}`, rel: 'full' });
  const cross: object[][] = [];
  for (let a = 0; a < cores; a++) {
    const aggPorts: object[] = [];
    for (let s = 0; s < switchesPerAgg; s++) {
      const switchPorts: object[] = [];
      for (let n = 0; n < hostsPerSwitch; n++) {
        net.ports.push(port(`a${a}_s${s}_n${n}_eth0`, mac((s << 10) | n)));
        const switchSide = pointer();
        switchPorts.push(switchSide);
        net.ports.push(port(`a${a}_s${s}_n${n}_eth0`, mac(n)));
        const hostSide = pointer();
        net.nodes.push(node(`a${a}_s${s}_n${n}`, [hostSide]));
        net.links.push(link(`a${a}_s${s}_n${n}`, [switchSide, hostSide]));
      }
      net.ports.push(port(`s${s}_a${a}_eth0`, mac((a << 20) | s)));
      const up = pointer();
      switchPorts.push(up);
      net.ports.push(port(`a${a}_s${s}_eth0`, mac((a << 21) | s)));
      const down = pointer();
      aggPorts.push(down);
      net.links.push(link(`a${a}_s${s}`, [down, up]));
      net.nodes.push(node(`s${s}`, switchPorts));
    }
    const corePorts: object[] = [];
    for (let i = 0; i < cores; i++) {
      net.ports.push(port(`a${a}_s${switchesPerAgg - 1}_p0`, mac((a << 15) | i)));
      corePorts.push(pointer());
    }
    cross.push(corePorts);
    net.nodes.push(node(`a${a}`, aggPorts));
  }
  cross.forEach((one, i) =>
    cross.forEach((other, j) => {
      if (i !== j) one.forEach((p1, k) => other.forEach((p2, l) => net.links.push(link(`core_${i}_${k}_to_${j}_${l}`, [p1, p2]))));
    }),
  );
  return net;
}

/** Composite insert (docs/rest-interface.md): containers that carry whole resources. */
describe('REST composite insert', function () {
  let server: RunningServer;
  const count = async (collection: string) => ((await get(`${server.url}/${collection}?fields=id`)).body as unknown[]).length;
  before(async () => {
    server = await startServer({ env: { MAX_ARRAY_ITEMS: '400' } });
  });
  after(async () => {
    await server.stop();
  });

  it('stores the UNIS 2014 test topology: its nodes and ports in their collections, pointers resolved (also with a trailing slash)', async () => {
    const topology = {
      $schema: `${UNIS_2012}/topology#`,
      nodes: [
        { $schema: `${UNIS_2012}/node#`, description: 'LAMP node', ports: [{ href: '#/ports/0/', rel: 'full' }], properties: { prop1: 1, prop2: 1, prop3: 3 } },
        { $schema: `${UNIS_2012}/node#`, description: 'LAMP node', ports: [{ href: '#/ports/1', rel: 'full' }], properties: { prop1: 1, prop2: 1, prop3: 3 } },
      ],
      ports: [
        { $schema: `${UNIS_2012}/port#`, address: { address: '10.10.1.1', type: 'ipv4' }, name: 'eth1' },
        { $schema: `${UNIS_2012}/port#`, address: { address: '10.10.1.3', type: 'ipv4' }, name: 'eth3' },
      ],
    };
    // As the test's Tornado client wrote it (periscope-ps/unis@44e7750 handlers_test.py).
    const answer = await wire(server.url, {
      method: 'POST',
      target: '/topologies',
      headers: [
        ['Connection', 'close'],
        ['Accept-Encoding', 'gzip'],
        ['Content-Type', `application/perfsonar+json; profile=${UNIS_2012}/topology#`],
        ['Cache-Control', 'no-cache'],
        ['Accept', 'application/perfsonar+json'],
        ['User-Agent', 'Tornado/2.4'],
      ],
      body: JSON.stringify(topology),
    });
    assert.equal(answer.status, 201, answer.text);
    const stored = answer.body;
    assert.equal(answer.headers.get('location'), stored.selfRef);
    assert.match(stored.selfRef, /\/topologies\//);
    assert.equal(stored.nodes.length, 2);
    assert.equal(stored.ports.length, 2);
    for (const reference of [...stored.nodes, ...stored.ports]) assert.deepEqual(Object.keys(reference).sort(), ['href', 'rel']);

    const ports = await Promise.all(stored.ports.map((r: { href: string }) => get(r.href)));
    assert.deepEqual(ports.map((p) => p.body.name), ['eth1', 'eth3']);
    assert.deepEqual(ports[0]!.body.address, { address: '10.10.1.1', type: 'ipv4' });
    const nodes = await Promise.all(stored.nodes.map((r: { href: string }) => get(r.href)));
    assert.deepEqual(nodes[0]!.body.ports, [{ href: ports[0]!.body.selfRef, rel: 'full' }]);
    assert.deepEqual(nodes[1]!.body.ports, [{ href: ports[1]!.body.selfRef, rel: 'full' }]);
    assert.deepEqual(nodes[0]!.body.properties, { prop1: 1, prop2: 1, prop3: 3 });
    assert.equal((await get(stored.selfRef)).body.nodes[1].href, nodes[1]!.body.selfRef);
  });

  it('stores the network peri-client-scripts generates: client ids kept, link endpoints (marked rel) resolved, repeated ids as versions', async () => {
    const net = generatedNetwork(2, 2, 2);
    const answer = await post(`${server.url}/networks`, net);
    assert.equal(answer.status, 201, answer.text);
    assert.equal(answer.body.id, 'test');
    const link = (await get(`${server.url}/links/a0_s0_n1`)).body;
    assert.deepEqual(link.endpoints, [
      { href: `${server.url}/ports/a0_s0_n1_eth0`, rel: 'full' },
      { href: `${server.url}/ports/a0_s0_n1_eth0`, rel: 'full' },
    ]);
    const host = (await get(`${server.url}/nodes/a1_s1_n0`)).body;
    assert.deepEqual(host.ports, [{ href: `${server.url}/ports/a1_s1_n0_eth0`, rel: 'full' }]);
    // The generator writes the host-side and switch-side port under one id: two versions of it.
    assert.equal(((await get(`${server.url}/ports/a0_s0_n0_eth0?id=a0_s0_n0_eth0`)).body as unknown[]).length, 2);
    assert.equal((await get(`${server.url}/ports/a0_s0_n0_eth0`)).body.address.address, '000000000000'.replace(/(..)(?!$)/g, '$1:'));
    // The stored network refers to every embedded resource.
    assert.equal(answer.body.links.length, net.links.length);
    assert.ok(answer.body.links.every((r: { href: string }) => r.href.startsWith(`${server.url}/links/`)));
  });

  it('stores nested containers with JSON Pointer and JSONPath hrefs, as unisencoder writes them', async () => {
    const topology = {
      $schema: `${UNIS_2014}/topology#`,
      id: 'slice-topology',
      domains: [
        {
          $schema: `${UNIS_2014}/domain#`,
          id: 'geni-domain',
          nodes: [
            { $schema: `${UNIS_2014}/node#`, id: 'vm-0', urn: 'urn:publicid:IDN+kettering+node+vm-0', ports: [{ $schema: `${UNIS_2014}/port#`, id: 'vm-0:if0', name: 'if0' }] },
            { $schema: `${UNIS_2014}/node#`, id: 'vm-1', urn: 'urn:publicid:IDN+kettering+node+vm-1', ports: [{ $schema: `${UNIS_2014}/port#`, id: 'vm-1:if0', name: 'if0' }] },
          ],
          links: [
            {
              $schema: `${UNIS_2014}/link#`,
              id: 'lan0',
              directed: true,
              endpoints: { source: { href: '#/domains/0/nodes/0/ports/0', ref: 'full' }, sink: { href: '#/domains/0/nodes/1/ports/0', ref: 'full' } },
            },
          ],
        },
      ],
      paths: [{ $schema: `${UNIS_2014}/path#`, id: 'p0', hops: [{ href: '$.domains[?(@.id=="geni-domain")]', rel: 'full' }] }],
      nodes: [{ href: '#/domains/0/nodes/1', rel: 'full' }],
    };
    const answer = await post(`${server.url}/topologies`, topology);
    assert.equal(answer.status, 201, answer.text);
    assert.deepEqual(answer.body.domains, [{ href: `${server.url}/domains/geni-domain`, rel: 'full' }]);
    assert.deepEqual(answer.body.nodes, [{ href: `${server.url}/nodes/vm-1`, rel: 'full' }]);
    const domain = (await get(`${server.url}/domains/geni-domain`)).body;
    assert.deepEqual(domain.nodes, [
      { href: `${server.url}/nodes/vm-0`, rel: 'full' },
      { href: `${server.url}/nodes/vm-1`, rel: 'full' },
    ]);
    // The hrefs are the selfRefs, the id as UNIS wrote it: `:` unencoded (rest-contract §3, revised 2026-11-29).
    assert.deepEqual((await get(`${server.url}/nodes/vm-0`)).body.ports, [{ href: `${server.url}/ports/vm-0:if0`, rel: 'full' }]);
    assert.equal((await get(`${server.url}/ports/vm-0%3Aif0`)).body.name, 'if0');
    assert.deepEqual((await get(`${server.url}/links/lan0`)).body.endpoints, {
      source: { href: `${server.url}/ports/vm-0:if0`, ref: 'full' },
      sink: { href: `${server.url}/ports/vm-1:if0`, ref: 'full' },
    });
    assert.deepEqual((await get(`${server.url}/paths/p0`)).body.hops, [{ href: `${server.url}/domains/geni-domain`, rel: 'full' }]);
  });

  it('is all or nothing: one bad embedded resource stores nothing and the error points into the posted document', async () => {
    const before = await Promise.all(['topologies', 'nodes', 'ports'].map(count));
    const answer = await post(`${server.url}/topologies`, {
      name: 'broken',
      nodes: [{ name: 'fine', ports: [{ name: 'p' }] }, { name: 'bad', ports: [{ name: 'q', capacity: 'fast' }] }],
      ports: [{ name: 'loose' }],
    });
    assert.equal(answer.status, 400, answer.text);
    assert.deepEqual(answer.body.error.details.map((d: { path: string }) => d.path), ['/nodes/1/ports/0/capacity']);
    assert.deepEqual(await Promise.all(['topologies', 'nodes', 'ports'].map(count)), before);
  });

  it('a storage conflict in an embedded resource stores nothing and names it', async () => {
    const existing = await post(`${server.url}/ports`, { id: 'replayed-port' });
    const before = await count('nodes');
    const answer = await post(`${server.url}/nodes`, { id: 'with-replay', ports: [{ id: 'replayed-port', ts: existing.body.ts }] });
    assert.equal(answer.status, 409, answer.text);
    assert.equal(answer.body.error.details[0].path, '/ports/0/ts');
    assert.equal(await count('nodes'), before);
  });

  const unresolvable: [string, { href: string; message: RegExp }][] = [
    ['a pointer to nothing', { href: '#/ports/7', message: /does not point at a resource embedded/ }],
    ['a pointer to a member that is no resource', { href: '#/name', message: /does not point/ }],
    ['a JSONPath filter that matches nothing', { href: '$.ports[?(@.name=="none")]', message: /does not point/ }],
    ['a JSONPath that is no filter', { href: '$..ports', message: /does not point/ }],
  ];
  for (const [name, { href, message }] of unresolvable) {
    it(`400 for ${name}, naming the href`, async () => {
      const answer = await post(`${server.url}/topologies`, { name: 'dangling', ports: [{ name: 'p' }], nodes: [{ name: 'n', ports: [{ href, rel: 'full' }] }] });
      assert.equal(answer.status, 400, answer.text);
      assert.equal(answer.body.error.details[0].path, '/nodes/0/ports/0/href');
      assert.match(answer.body.error.details[0].message, message);
    });
  }

  it('an embedded resource whose $schema names another kind goes to that kind\'s collection', async () => {
    const answer = await post(`${server.url}/topologies`, { name: 't', nodes: [{ $schema: `${UNIS_2012}/port#`, id: 'actually-a-port', name: 'p' }] });
    assert.equal(answer.status, 201, answer.text);
    assert.deepEqual(answer.body.nodes, [{ href: `${server.url}/ports/actually-a-port`, rel: 'full' }]);
    assert.equal((await get(`${server.url}/ports/actually-a-port`)).status, 200);
  });

  it('an array of containers answers the array of stored containers; pointers resolve within each', async () => {
    const answer = await post(`${server.url}/domains`, [
      { name: 'd1', ports: [{ name: 'd1p' }], nodes: [{ name: 'd1n', ports: [{ href: '#/ports/0', rel: 'full' }] }] },
      { name: 'd2', ports: [{ name: 'd2p' }], nodes: [{ name: 'd2n', ports: [{ href: '#/ports/0', rel: 'full' }] }] },
    ]);
    assert.equal(answer.status, 201, answer.text);
    assert.equal(answer.headers.get('location'), null);
    assert.equal(answer.body.length, 2);
    const node = (await get(answer.body[1].nodes[0].href)).body;
    assert.equal(node.ports[0].href, answer.body[1].ports[0].href);
    assert.equal((await get(node.ports[0].href)).body.name, 'd2p');
  });

  it('every embedded resource counts toward MAX_ARRAY_ITEMS (413)', async () => {
    const before = await count('ports');
    const answer = await post(`${server.url}/networks`, { name: 'big', ports: Array.from({ length: 400 }, (_, i) => ({ name: `p${i}` })) });
    assert.equal(answer.status, 413, answer.text);
    assert.equal(await count('ports'), before);
  });

  it('If-None-Match: * makes embedded resources create-only too', async () => {
    await post(`${server.url}/ports`, { id: 'taken-port' });
    const answer = await post(`${server.url}/nodes`, { name: 'n', ports: [{ id: 'taken-port' }] }, { 'if-none-match': '*' });
    assert.equal(answer.status, 412, answer.text);
    assert.equal(answer.body.error.details[0].path, '/ports/0/id');
  });

  it('a reference array of a kind that declares no embedding keeps validating references', async () => {
    const answer = await post(`${server.url}/paths`, { name: 'p', hops: [{ name: 'a whole port' }] });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error.details[0].path, '/hops/0');
  });
});
