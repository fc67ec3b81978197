/**
 * A UNIS registry as `mongoexport` leaves it (JSON lines, Extended JSON v2 relaxed; keys escaped
 * as UNIS stores them): nodes, ports and links with references between them, each resource with
 * several versions (UNISrt's re-POSTs), and measurement series with their points. Written as it
 * is made, so a million versions never sit in memory.
 */
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';

export interface RegistryShape {
  /** Resources of each kind: nodes (2 ports each) and links (one per node, to the next node's port). */
  readonly nodes: number;
  /** Versions of every resource. */
  readonly versions: number;
  /** Measurement series, and points in each. */
  readonly series: number;
  readonly pointsPerSeries: number;
}

const OLD = 'http://unis.example.net:8888';
const T0 = 1_600_000_000_000_000;

async function line(out: WriteStream, text: string): Promise<void> {
  if (!out.write(`${text}\n`)) await once(out, 'drain');
}

async function close(out: WriteStream): Promise<void> {
  out.end();
  await once(out, 'finish');
}

/** Write the registry's collections into `dir` (created); the number of versions and of points written. */
export async function writeRegistry(dir: string, shape: RegistryShape): Promise<{ readonly versions: number; readonly points: number }> {
  mkdirSync(dir, { recursive: true });
  const nodes = createWriteStream(path.join(dir, 'nodes.json'));
  const ports = createWriteStream(path.join(dir, 'ports.json'));
  const links = createWriteStream(path.join(dir, 'links.json'));
  let versions = 0;
  // Version by version, as UNIS inserted them: every resource's first version, then every second one…
  for (let v = 0; v < shape.versions; v++) {
    for (let n = 0; n < shape.nodes; n++) {
      const ts = T0 + v * 1_000_000_000 + n * 10;
      const node = `node-${n}`;
      await line(nodes, `{"_id":"${node}:${ts}","id":"${node}","ts":${ts},"\\\\$schema":"http://unis.crest.iu.edu/schema/20160630/node#","selfRef":"${OLD}/nodes/${node}","name":"n${n}","urn":"urn:ogf:network:domain=example.net:node=n${n}","location":{"institution":"site-${n % 50}","latitude":${(n % 90) + 0.5}},"properties":{"geni$DOT$slice":"slice-${n % 7}","load":${v}},"ports":[{"href":"${OLD}/ports/port-${n}-0","rel":"full"},{"href":"${OLD}/ports/port-${n}-1","rel":"full"}]}`);
      for (let p = 0; p < 2; p++) {
        const port = `port-${n}-${p}`;
        await line(ports, `{"_id":"${port}:${ts + 1 + p}","id":"${port}","ts":${ts + 1 + p},"\\\\$schema":"http://unis.crest.iu.edu/schema/20160630/port#","selfRef":"${OLD}/ports/${port}","name":"eth${p}","capacity":${10_000_000_000},"properties":{"utilization":${v / 10}},"nodeRef":"${OLD}/nodes/${node}"}`);
      }
      const link = `link-${n}`;
      await line(links, `{"_id":"${link}:${ts + 3}","id":"${link}","ts":${ts + 3},"\\\\$schema":"http://unis.crest.iu.edu/schema/20160630/link#","selfRef":"${OLD}/links/${link}","directed":true,"capacity":10000000000,"endpoints":{"source":{"href":"${OLD}/ports/port-${n}-1","rel":"full"},"sink":{"href":"${OLD}/ports/port-${(n + 1) % shape.nodes}-0","rel":"full"}}}`);
      versions += 4;
    }
  }
  await Promise.all([close(nodes), close(ports), close(links)]);

  let points = 0;
  if (shape.series > 0) {
    const metadata = createWriteStream(path.join(dir, 'metadata.json'));
    const events = createWriteStream(path.join(dir, 'events_cache.json'));
    for (let s = 0; s < shape.series; s++) {
      const mid = `md-${s}`;
      await line(metadata, `{"_id":"${mid}:${T0}","id":"${mid}","ts":${T0},"\\\\$schema":"http://unis.crest.iu.edu/schema/20160630/metadata#","selfRef":"${OLD}/metadata/${mid}","subject":{"href":"${OLD}/ports/port-${s}-0","rel":"full"},"eventType":"ps:tools:blipp:linux:net:ip:bytes:in","parameters":{"datumSchema":"http://unis.crest.iu.edu/schema/20160630/datum#"}}`);
      await line(events, `{"_id":"${mid}:${T0 + 1}","id":"${mid}","ts":${T0 + 1},"metadata_URL":"${OLD}/metadata/${mid}","collection_size":${shape.pointsPerSeries * 2},"ttl":0}`);
      const out = createWriteStream(path.join(dir, `${mid}.json`));
      for (let i = 0; i < shape.pointsPerSeries; i++) await line(out, `{"_id":{"$oid":"${(0x5f000000 + i).toString(16)}0000000000${s.toString(16).padStart(6, '0')}"},"ts":${T0 + i * 100_000},"value":${i % 1000}}`);
      await close(out);
      points += shape.pointsPerSeries;
    }
    await Promise.all([close(metadata), close(events)]);
  }
  return { versions, points };
}
