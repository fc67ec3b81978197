import { latency } from '../harness/load.js';
import { streamList } from '../harness/stream.js';
import { INSTITUTIONS, institution, nodeName } from '../workloads/topology.js';
import { storeNodes, usedCpu, type ComparedSet, type Figures, type Side } from './sides.js';

/**
 * The list rows of the benchmark (`?name=X`, `?location.institution=Y&limit=100`, the streamed
 * list of every node) over `nodes` nodes: server CPU per request (with its PostgreSQL's) of one
 * client back to back, p50, and the streamed list's seconds and CPU. Used for issue "UNIS,
 * request for request, round two" (newest first lists must be no slower).
 */
export function listSet(nodes: number, seconds: number, auth: Readonly<Record<string, string>>): ComparedSet {
  const lengthIs = (n: number) => (body: string) => (JSON.parse(body) as unknown[]).length === n;
  const rows = [
    { row: '?name=X', path: () => `/nodes?name=${nodeName(Math.floor(Math.random() * nodes))}`, check: lengthIs(1) },
    { row: '?location.institution=Y&limit=100', path: (i: number) => `/nodes?location.institution=${institution(i)}&limit=100`, check: lengthIs(Math.min(100, Math.floor(nodes / INSTITUTIONS))) },
  ];
  const STREAM_SECONDS = 'list of every node, streamed: seconds';
  const STREAM_CPU = 'list of every node, streamed: server CPU';
  return {
    rows: [...rows.flatMap(({ row }) => [{ row: `\`${row}\` server CPU per request`, unit: 'µs' as const }, { row: `\`${row}\` p50`, unit: 'ms' as const }]), { row: STREAM_SECONDS, unit: 's' }, { row: STREAM_CPU, unit: 's' }],
    async load(side) {
      await storeNodes(side, auth, nodes);
    },
    async round(side: Side): Promise<Figures> {
      const figures: Figures = { values: {}, failures: 0 };
      for (const { row, path, check } of rows) {
        const before = await usedCpu(side);
        const measured = await latency({ url: side.server.url, headers: auth, seconds, path, check });
        // The warm-up second's requests are in the CPU too: per request over all of them is close
        // enough for a comparison of two builds measured alike.
        const total = measured.count + Math.round(measured.count / seconds);
        figures.values[`\`${row}\` server CPU per request`] = (((await usedCpu(side)) - before) * 1e6) / total;
        figures.values[`\`${row}\` p50`] = measured.p50;
        figures.failures += measured.failures;
      }
      const before = await usedCpu(side);
      const list = await streamList(side.server, '/nodes', auth);
      figures.values[STREAM_CPU] = (await usedCpu(side)) - before;
      figures.values[STREAM_SECONDS] = list.seconds;
      if (list.status !== 200 || list.items !== nodes) figures.failures++;
      return figures;
    },
  };
}
