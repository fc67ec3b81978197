/**
 * `npm run bench [-- --quick] [-- --json FILE] [-- --only rest,catalog,workers,operator,postgres,replicas,subscriptions,measurements,ui,time,etags,generate,lifecycle,federation,federate,import,failover]`
 *
 * Starts everything it measures (topocat, a bare Koa app, node-soap's server), each as a process
 * of its own on a scratch SQLite database (the postgres group: also on the PostgreSQL server that
 * TEST_DATABASE_URL names, as for the tests, in a schema of its own; without it those rows say
 * they were not run; the replicas group: on a private primary and streaming standby it makes with
 * PostgreSQL's binaries, tools/pg-cluster.ts; the failover group, run only when named: on a
 * pg_auto_failover formation it makes, tools/pg-failover.ts), loads the data through the interfaces, runs the loads,
 * stops everything and prints one Markdown table. Headline figures are ratios measured in the
 * same run, since absolute rates on a shared machine are noise. --quick uses smoke sizes (CI
 * runs it to prove the benchmark works; its figures mean nothing).
 *
 * Exit status: 1 when any request of any row failed (the figures would be of the wrong thing);
 * a missed target is reported in the table, not by the exit status.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { FULL, QUICK, type BenchContext } from './harness/context.js';
import { describeMachine, machine, table, type Row } from './harness/report.js';
import { startTopocat } from './harness/topocat.js';
import { catalogRows } from './rows/catalog.js';
import { generateRows } from './rows/generate.js';
import { lifecycleRows } from './rows/lifecycle.js';
import { loopRow } from './rows/loop.js';
import { measurementRows } from './rows/measurements.js';
import { operatorRows } from './rows/operator.js';
import { postgresRows } from './rows/postgres.js';
import { mixedWriteRows } from './rows/mixed-writes.js';
import { postgresUnavailable } from './harness/postgres.js';
import { replicaRows } from './rows/replicas.js';
import { restRows } from './rows/rest.js';
import { subscriptionRows } from './rows/subscriptions.js';
import { timeRows } from './rows/time.js';
import { listEtagRows } from './rows/list-etags.js';
import { uiRows } from './rows/ui.js';
import { workersRows } from './rows/workers.js';
import { federateRows, federationRows } from './rows/federation.js';
import { importRows } from './rows/import.js';
import { failoverRows } from './rows/failover.js';
import { DN } from './workloads/catalog.js';

const GROUPS = ['rest', 'catalog', 'workers', 'operator', 'postgres', 'replicas', 'subscriptions', 'measurements', 'ui', 'time', 'etags', 'generate', 'lifecycle', 'federation', 'import'] as const;
/**
 * Groups --only also takes that a full run does not run as such: `federate` is the `federate=true`
 * rows of `federation` alone; `failover` makes a pg_auto_failover formation and fails it three
 * times (about two minutes, and pg_autoctl installed), so it runs only when named.
 */
const PARTS = ['federate', 'failover'] as const;
type Group = (typeof GROUPS)[number] | (typeof PARTS)[number];

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    json: { type: 'string' },
    only: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const only = new Set((values.only?.split(',') ?? GROUPS) as Group[]);
for (const group of only) if (![...GROUPS, ...PARTS].includes(group)) throw new Error(`--only: unknown group "${group}"; groups are ${[...GROUPS, ...PARTS].join(', ')}`);
if (only.has('workers') && !only.has('rest')) throw new Error('--only: workers reads the nodes the rest group loads');
if (only.has('operator') && !only.has('rest')) throw new Error('--only: operator reads the nodes the rest group loads');

const dir = mkdtempSync(path.join(tmpdir(), 'topocat-bench-'));
const token = `tc_${randomBytes(32).toString('base64url')}`;
const ctx: BenchContext = {
  sizes: values.quick ? QUICK : FULL,
  dir,
  token,
  auth: { authorization: `Bearer ${token}` },
  log: (message) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`),
};

async function main(): Promise<number> {
  const rows: Row[] = [];
  const started = performance.now();
  if (only.has('rest') || only.has('catalog')) {
    const server = await startTopocat({ dir, token, dn: DN, label: 'topocat' });
    try {
      if (only.has('rest')) rows.push(...(await restRows(ctx, server)));
      if (only.has('catalog')) rows.push(...(await catalogRows(ctx, server)));
      if (only.has('rest') && only.has('catalog')) {
        ctx.log('event-loop delay under mixed reads');
        rows.push(await loopRow(ctx, server));
      }
    } finally {
      await server.stop();
    }
  }
  if (only.has('workers')) rows.push(...(await workersRows(ctx, DN)));
  if (only.has('operator')) rows.push(...(await operatorRows(ctx, DN)));
  if (only.has('postgres')) {
    const why = postgresUnavailable();
    if (why === undefined) rows.push(...(await postgresRows(ctx)), ...(await mixedWriteRows(ctx)));
    else {
      ctx.log(`PostgreSQL rows NOT RUN: ${why}`);
      rows.push({ row: 'PostgreSQL rows', result: `not run: ${why}`, target: 'report', met: undefined, figures: {}, failures: 0 });
    }
  }
  if (only.has('replicas')) rows.push(...(await replicaRows(ctx)));
  if (only.has('subscriptions')) rows.push(...(await subscriptionRows(ctx)));
  if (only.has('measurements')) rows.push(...(await measurementRows(ctx)));
  if (only.has('ui')) rows.push(...(await uiRows(ctx)));
  if (only.has('time')) rows.push(...(await timeRows(ctx)));
  if (only.has('etags')) rows.push(...(await listEtagRows(ctx)));
  if (only.has('generate')) rows.push(...generateRows(ctx));
  if (only.has('lifecycle')) rows.push(...(await lifecycleRows(ctx)));
  if (only.has('federation')) rows.push(...(await federationRows(ctx, DN)));
  else if (only.has('federate')) rows.push(...(await federateRows(ctx, DN)));
  if (only.has('import')) rows.push(...(await importRows(ctx)));
  if (only.has('failover')) rows.push(...(await failoverRows(ctx)));

  const m = machine();
  const minutes = (performance.now() - started) / 60_000;
  console.log(`\n${values.quick ? 'QUICK RUN (smoke sizes; the figures mean nothing)\n' : ''}Machine: ${describeMachine(m)}; ${minutes.toFixed(1)} min\n`);
  console.log(table(rows));
  if (values.json) writeFileSync(values.json, `${JSON.stringify({ quick: values.quick, machine: m, rows }, null, 2)}\n`);
  const failed = rows.filter((r) => r.failures > 0);
  if (failed.length > 0) console.error(`\n${failed.length} row(s) had failed requests; see the logs in ${dir}`);
  return failed.length > 0 ? 1 : 0;
}

try {
  process.exitCode = await main();
} finally {
  if (!values.keep && process.exitCode === 0) rmSync(dir, { recursive: true, force: true });
  else ctx.log(`scratch directory kept: ${dir}`);
}
