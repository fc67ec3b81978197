/**
 * `node dist/bench/side-by-side.js --old <another build's dist/> [--set lists|requests] [--rounds N] [--nodes N] [--seconds N] [--postgres]`
 *
 * Two builds side by side on one machine, in one run: an old build (e.g. main's dist/) and this
 * one, each a server of its own on its own database filled alike, measured in alternating
 * rounds (old, new, new, old, …) so that the load others put on a shared machine falls on both
 * alike. Reports each round's figures and the medians. On PostgreSQL the CPU of the side's own
 * backends counts with its server's, and for writes that of every process of the database server
 * (the other side is idle meanwhile, and each round starts once the database is quiet).
 *
 * The sets: `lists` (side-by-side/lists.ts; issue "UNIS, request for request, round two") and
 * `requests` (side-by-side/requests.ts: GET, POST, mixed writes; issue "One home for each rule,
 * part three").
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { hashToken } from '../server/tokens.js';
import { benchPostgres, type BenchPostgres, postgresUnavailable } from './harness/postgres.js';
import { distRoot, freePort, launch } from './harness/processes.js';
import { median } from './harness/stats.js';
import { listSet } from './side-by-side/lists.js';
import { requestSet } from './side-by-side/requests.js';
import { databaseQuiet, type ComparedSet, type Figures, type Side } from './side-by-side/sides.js';

const { values } = parseArgs({
  options: {
    old: { type: 'string' },
    set: { type: 'string', default: 'lists' },
    rounds: { type: 'string', default: '4' },
    nodes: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '4' },
    postgres: { type: 'boolean', default: false },
  },
});
if (values.old === undefined) throw new Error('--old <dist/ of the build to compare with> is required');
if (values.postgres && postgresUnavailable() !== undefined) throw new Error(`--postgres: ${postgresUnavailable()}`);
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const dir = mkdtempSync(path.join(tmpdir(), 'topocat-side-by-side-'));
const token = `tc_${randomBytes(32).toString('base64url')}`;
const auth = { authorization: `Bearer ${token}` };
const sets: Record<string, () => ComparedSet> = {
  lists: () => listSet(Number(values.nodes), seconds, auth),
  requests: () => requestSet(seconds, auth),
};
if (!(values.set! in sets)) throw new Error(`--set: one of ${Object.keys(sets).join(', ')}`);

async function start(label: Side['label'], dist: string, pg: BenchPostgres | undefined): Promise<Side> {
  const tokens = { tokens: [{ name: 'bench', hash: hashToken(token), scopes: ['read', 'create', 'update', 'delete', 'admin'] }] };
  const application = `side-by-side-${label}`;
  const server = await launch({
    entry: path.relative(distRoot, path.join(dist, 'server/main.js')),
    env: { DATABASE_URL: pg ? pg.url(application) : `sqlite:${path.join(dir, `${label}.sqlite`)}`, TOPOCAT_TOKENS: JSON.stringify(tokens), LOG_LEVEL: 'info' },
    port: await freePort(),
    readyPath: '/health',
    logFile: path.join(dir, `${label}.log`),
  });
  return { label, server, ...(pg ? { database: () => pg.backendCpu(application), databaseServer: () => pg.serverCpu() } : {}) };
}

async function main(): Promise<void> {
  const set = sets[values.set!]!();
  const pgOld = values.postgres ? await benchPostgres() : undefined;
  const pgNew = values.postgres ? await benchPostgres() : undefined;
  const sides = [await start('old', values.old!, pgOld), await start('new', path.join(distRoot), pgNew)];
  try {
    for (const side of sides) await set.load(side);
    const all: Record<Side['label'], Figures[]> = { old: [], new: [] };
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? sides : [...sides].reverse();
      for (const side of order) {
        await databaseQuiet(side);
        const figures = await set.round(side);
        all[side.label].push(figures);
        process.stderr.write(`round ${r + 1} ${side.label}: ${JSON.stringify(figures)}\n`);
      }
    }
    const engine = values.postgres ? 'PostgreSQL' : 'SQLite';
    console.log(`| ${engine}, ${values.set}${values.set === 'lists' ? `, ${values.nodes} nodes` : ''}, ${rounds} rounds of ${seconds} s | old (${values.old}) | new | new ÷ old (median; each round) |`);
    console.log('|---|---|---|---|');
    for (const { row, unit } of set.rows) {
      const [o, n] = [all.old.map((f) => f.values[row]!), all.new.map((f) => f.values[row]!)];
      const ratios = o.map((value, i) => n[i]! / value);
      const digits = unit === 's' ? 3 : unit === 'ms' ? 2 : 0;
      console.log(`| ${row} | ${median(o).toFixed(digits)} ${unit} | ${median(n).toFixed(digits)} ${unit} | ${median(ratios).toFixed(2)} (${ratios.map((x) => x.toFixed(2)).join(', ')}) |`);
    }
    const failures = [...all.old, ...all.new].reduce((sum, f) => sum + f.failures, 0);
    console.log(`\nfailures: ${failures}`);
  } finally {
    for (const side of sides) await side.server.stop();
    await pgOld?.close();
    await pgNew?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
