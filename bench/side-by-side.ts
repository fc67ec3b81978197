/**
 * `node dist/bench/side-by-side.js --old <another build's dist/> [--rounds N] [--nodes N] [--postgres]`
 *
 * Two builds side by side on one machine, in one run: the list rows of the benchmark (`?name=X`,
 * `?location.institution=Y&limit=100`, the streamed list of every node) against an old build
 * (e.g. main's dist/) and this one, each a server of its own on its own database loaded with the
 * same nodes, in alternating rounds (old, new, new, old, …) so that the load others put on a
 * shared machine falls on both alike. Reports each round's figures and the medians: server CPU
 * per request (with its PostgreSQL backends' on PostgreSQL) of one client back to back, p50,
 * and the streamed list's seconds. Used for issue "UNIS, request for request, round two" (newest
 * first lists must be no slower).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { hashToken } from '../server/tokens.js';
import { cpuSeconds } from './harness/cpu.js';
import { latency } from './harness/load.js';
import { benchPostgres, type BenchPostgres, postgresUnavailable } from './harness/postgres.js';
import { distRoot, freePort, launch, type Measured } from './harness/processes.js';
import { median } from './harness/stats.js';
import { streamList } from './harness/stream.js';
import { INSTITUTIONS, institution, node, nodeName } from './workloads/topology.js';

const { values } = parseArgs({
  options: {
    old: { type: 'string' },
    rounds: { type: 'string', default: '4' },
    nodes: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '4' },
    postgres: { type: 'boolean', default: false },
  },
});
if (values.old === undefined) throw new Error('--old <dist/ of the build to compare with> is required');
if (values.postgres && postgresUnavailable() !== undefined) throw new Error(`--postgres: ${postgresUnavailable()}`);
const nodes = Number(values.nodes);
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const dir = mkdtempSync(path.join(tmpdir(), 'topocat-side-by-side-'));
const token = `tc_${randomBytes(32).toString('base64url')}`;
const auth = { authorization: `Bearer ${token}` };

interface Side {
  readonly label: string;
  readonly server: Measured;
  readonly database?: () => Promise<number>;
}

async function start(label: string, dist: string, pg: BenchPostgres | undefined): Promise<Side> {
  const tokens = { tokens: [{ name: 'bench', hash: hashToken(token), scopes: ['read', 'create', 'update', 'delete', 'admin'] }] };
  const application = `side-by-side-${label}`;
  const server = await launch({
    entry: path.relative(distRoot, path.join(dist, 'server/main.js')),
    env: { DATABASE_URL: pg ? pg.url(application) : `sqlite:${path.join(dir, `${label}.sqlite`)}`, TOPOCAT_TOKENS: JSON.stringify(tokens), LOG_LEVEL: 'info' },
    port: await freePort(),
    readyPath: '/health',
    logFile: path.join(dir, `${label}.log`),
  });
  return { label, server, ...(pg ? { database: () => pg.backendCpu(application) } : {}) };
}

async function load(side: Side): Promise<void> {
  for (let first = 0; first < nodes; first += 1000) {
    const batch = Array.from({ length: Math.min(1000, nodes - first) }, (_, k) => node(first + k));
    const response = await fetch(`${side.server.url}/nodes`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(batch) });
    await response.arrayBuffer();
    if (response.status !== 201) throw new Error(`${side.label}: POST answered ${response.status}`);
  }
}

const lengthIs = (n: number) => (body: string) => (JSON.parse(body) as unknown[]).length === n;
const ROWS = [
  { row: '?name=X', path: () => `/nodes?name=${nodeName(Math.floor(Math.random() * nodes))}`, check: lengthIs(1) },
  { row: '?location.institution=Y&limit=100', path: (i: number) => `/nodes?location.institution=${institution(i)}&limit=100`, check: lengthIs(Math.min(100, Math.floor(nodes / INSTITUTIONS))) },
];

interface Figures {
  readonly cpu: Record<string, number>;
  readonly p50: Record<string, number>;
  listSeconds: number;
  listCpu: number;
  failures: number;
}

async function round(side: Side): Promise<Figures> {
  const figures: Figures = { cpu: {}, p50: {}, listSeconds: 0, listCpu: 0, failures: 0 };
  const used = async (): Promise<number> => cpuSeconds(side.server.pid) + ((await side.database?.()) ?? 0);
  for (const row of ROWS) {
    const before = await used();
    const measured = await latency({ url: side.server.url, headers: auth, seconds, path: row.path, check: row.check });
    // The warm-up second's requests are in the CPU too: per request over all of them is close
    // enough for a comparison of two builds measured alike.
    const total = measured.count + Math.round(measured.count / seconds);
    figures.cpu[row.row] = (((await used()) - before) * 1e6) / total;
    figures.p50[row.row] = measured.p50;
    figures.failures += measured.failures;
  }
  const before = await used();
  const list = await streamList(side.server, '/nodes', auth);
  figures.listCpu = (await used()) - before;
  figures.listSeconds = list.seconds;
  if (list.status !== 200 || list.items !== nodes) figures.failures++;
  return figures;
}

async function main(): Promise<void> {
  const pgOld = values.postgres ? await benchPostgres() : undefined;
  const pgNew = values.postgres ? await benchPostgres() : undefined;
  const sides = [await start('old', values.old!, pgOld), await start('new', path.join(distRoot), pgNew)];
  try {
    for (const side of sides) await load(side);
    const all: Record<string, Figures[]> = { old: [], new: [] };
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? sides : [...sides].reverse();
      for (const side of order) {
        const figures = await round(side);
        all[side.label]!.push(figures);
        process.stderr.write(`round ${r + 1} ${side.label}: ${JSON.stringify(figures)}\n`);
      }
    }
    const engine = values.postgres ? 'PostgreSQL' : 'SQLite';
    console.log(`| ${engine}, ${nodes} nodes, ${rounds} rounds | old (${values.old}) | new | new ÷ old (median; each round) |`);
    console.log('|---|---|---|---|');
    const line = (what: string, pick: (f: Figures) => number, unit: string): void => {
      const [o, n] = [all.old!.map(pick), all.new!.map(pick)];
      const ratios = o.map((value, i) => n[i]! / value);
      console.log(`| ${what} | ${median(o).toFixed(unit === 's' ? 3 : 1)} ${unit} | ${median(n).toFixed(unit === 's' ? 3 : 1)} ${unit} | ${median(ratios).toFixed(2)} (${ratios.map((x) => x.toFixed(2)).join(', ')}) |`);
    };
    for (const row of ROWS) {
      line(`\`${row.row}\` server CPU per request`, (f) => f.cpu[row.row]!, 'µs');
      line(`\`${row.row}\` p50`, (f) => f.p50[row.row]!, 'ms');
    }
    line('list of every node, streamed: seconds', (f) => f.listSeconds, 's');
    line('list of every node, streamed: server CPU', (f) => f.listCpu, 's');
    const failures = [...all.old!, ...all.new!].reduce((sum, f) => sum + f.failures, 0);
    console.log(`\nfailures: ${failures}`);
  } finally {
    for (const side of sides) await side.server.stop();
    await pgOld?.close();
    await pgNew?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
