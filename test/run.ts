/**
 * `npm test` after the build: the whole suite on SQLite and, when TEST_DATABASE_URL names a
 * server, on PostgreSQL at the same time (they share no database: SQLite's files are temporary,
 * each PostgreSQL test server has a schema of its own, and every server listens on a free port);
 * then the suites
 * that read through the interfaces on a private primary with a streaming standby that every
 * server reads from (rest-contract §15; tools/pg-cluster.ts), and, when asked, at the same time
 * the failover suites on a pg_auto_failover formation of their own (rest-contract §16;
 * tools/pg-failover.ts, needs pg_autoctl). While runs overlap, each one's output is printed whole
 * when it ends, so two runs never interleave. An unreachable PostgreSQL
 * is skipped with a warning, except with CI=true, where it fails the run. Arguments go on to
 * mocha (`npm test -- --grep streams`); `TOPOCAT_TEST_STANDBY=0` leaves the standby run out,
 * `TOPOCAT_TEST_FAILOVER=0` the failover run, and `TOPOCAT_TEST_PARALLEL=0` runs the engines one
 * after the other.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Engine } from './helpers/database.js';
import { withPostgres } from './helpers/database.js';
import { projectRoot } from './helpers/server.js';
import { createPrimaryAndStandby } from '../tools/pg-cluster.js';

const mocha = path.join(projectRoot, 'node_modules/mocha/bin/mocha.js');

/**
 * What the run with a standby runs: every suite that serves reads through the real interfaces
 * (REST, SOAP, the change feed, the SDKs, UNIS's clients, federation, the measurement store).
 * Each must pass unchanged: a standby never makes a read answer older than a write before it.
 */
const STANDBY_SUITES = ['rest', 'subscriptions', 'client', 'catalog', 'measurements', 'unis', 'federation'].map((suite) => `dist/test/${suite}/**/*.test.js`);

/** The standby replays each commit this late: reads after writes find it behind and wait. */
const STANDBY_APPLY_DELAY = 'recovery_min_apply_delay=20ms';

/** The failover suites (a formation of pg_auto_failover each; test/failover/). */
const FAILOVER_SUITES = ['dist/test/failover/**/*.test.js'];

/** Runs in flight: while more than one is, each one's output is kept and printed whole at its end. */
let concurrent = 0;

function runMocha(engine: Engine, args: readonly string[], env: Readonly<Record<string, string>> = {}, title: string = engine): Promise<number> {
  const started = performance.now();
  const alone = concurrent === 0 && !env.TOPOCAT_TEST_CONCURRENT;
  const child = spawn(process.execPath, [mocha, ...args], {
    cwd: projectRoot,
    stdio: alone ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TOPOCAT_TEST_DATABASE: engine, ...env },
  });
  if (alone) console.log(`\n=== tests on ${title} ===`);
  const output: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
  concurrent++;
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      concurrent--;
      if (!alone) process.stdout.write(`\n=== tests on ${title} ===\n${Buffer.concat(output).toString()}`);
      console.log(`=== ${title}: ${((performance.now() - started) / 60_000).toFixed(1)} min ===`);
      resolve(code ?? (signal ? 1 : 0));
    }),
  );
}

/** The URL without its password, for messages. */
function shown(url: string): string {
  return url.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@');
}

/** Why the server cannot be used, or undefined when it answers. */
async function unreachable(url: string): Promise<string | undefined> {
  try {
    await withPostgres(url, (knex) => knex.raw('SELECT 1'));
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const outcomes: string[] = [];
  let failed = false;

  const url = process.env.TEST_DATABASE_URL;
  const problem = url ? await unreachable(url) : undefined;
  const postgresRuns = url !== undefined && url !== '' && problem === undefined;
  // The engines at the same time (TOPOCAT_TEST_PARALLEL=0: one after the other): CI's run of them
  // one after another took most of its 50 minutes (2,988 s in all, 2026-11-29). At once, with the
  // failover run added: `CI=true npm test` 1,634 s (SQLite 17.0 min beside PostgreSQL 20.1, then
  // the standby run 6.0 beside the failover run 1.5; 2 cores shared with other work, 2026-11-29).
  // A first run at once, under heavier load (load average ~10), failed the crash test, which wrote
  // for a fixed 1.5 s (it now waits for enough writes), and once test/unis/unisrt-cache.test.ts
  // (not seen again in 8 runs alone, 6 of them beside two busy loops, nor in the run above).
  const parallel = process.env.TOPOCAT_TEST_PARALLEL !== '0' && postgresRuns;
  const together = { TOPOCAT_TEST_CONCURRENT: parallel ? '1' : '' };
  const [sqlite, postgres] = parallel
    ? await Promise.all([runMocha('sqlite', args, together), runMocha('postgres', args, together)])
    : [await runMocha('sqlite', args, together), postgresRuns ? await runMocha('postgres', args, together) : undefined];
  outcomes.push(`sqlite: ${sqlite === 0 ? 'passed' : 'FAILED'}`);
  failed ||= sqlite !== 0;

  if (!url) {
    outcomes.push('postgres: not run (set TEST_DATABASE_URL=postgres://… to run it)');
  } else if (problem !== undefined && process.env.CI === 'true') {
    outcomes.push(`postgres: FAILED, ${shown(url)} is unreachable (${problem})`);
    failed = true;
  } else if (problem !== undefined) {
    outcomes.push(`postgres: SKIPPED, ${shown(url)} is unreachable (${problem}); with CI=true this fails`);
  } else {
    outcomes.push(`postgres: ${postgres === 0 ? 'passed' : 'FAILED'}`);
    failed ||= postgres !== 0;
    const standbyWanted = process.env.TOPOCAT_TEST_STANDBY !== '0';
    const failoverWanted = process.env.TOPOCAT_TEST_FAILOVER !== '0' && wantsFailover(args);
    const both = { TOPOCAT_TEST_CONCURRENT: standbyWanted && failoverWanted ? '1' : '' };
    const [standby, failover] = await Promise.all([standbyWanted ? withStandby(args, both) : undefined, failoverWanted ? withFailover(args, both) : undefined]);
    if (standby === undefined) outcomes.push('postgres with a standby: not run (TOPOCAT_TEST_STANDBY=0)');
    else {
      outcomes.push(`postgres with a standby: ${standby === 0 ? 'passed' : 'FAILED'}`);
      failed ||= standby !== 0;
    }
    if (failover === undefined) outcomes.push('postgres failover (pg_auto_failover): not run (TOPOCAT_TEST_FAILOVER=0, or files named and none under test/failover)');
    else {
      outcomes.push(`postgres failover (pg_auto_failover): ${failover === 0 ? 'passed' : 'FAILED'}`);
      failed ||= failover !== 0;
    }
  }

  console.log(`\n${outcomes.join('\n')}`);
  return failed ? 1 : 0;
}

/** Mocha's options of .mocharc.json but its `spec` (every suite), which would be added to any named. */
function configOptions(): string[] {
  const config = JSON.parse(readFileSync(path.join(projectRoot, '.mocharc.json'), 'utf8')) as { timeout: number; slow: number };
  return ['--no-config', '--timeout', String(config.timeout), '--slow', String(config.slow), '--enable-source-maps'];
}

/** Whether the failover run has anything to run: no files named, or one under test/failover. */
function wantsFailover(args: readonly string[]): boolean {
  const files = args.filter((arg) => arg.endsWith('.js'));
  return files.length === 0 || files.some((file) => file.includes('test/failover/'));
}

/**
 * The failover suites, on a pg_auto_failover formation each makes itself (tools/pg-failover.ts):
 * with CI=true, pg_autoctl missing fails them rather than skipping.
 */
function withFailover(args: readonly string[], env: Readonly<Record<string, string>>): Promise<number> {
  const named = args.filter((arg) => arg.endsWith('.js') && arg.includes('test/failover/'));
  const others = args.filter((arg) => !arg.endsWith('.js'));
  return runMocha('postgres', [...configOptions(), '--timeout', '300000', ...(named.length > 0 ? named : FAILOVER_SUITES), ...others], { ...env, TOPOCAT_TEST_FAILOVER: '1' }, 'postgres failover (pg_auto_failover)');
}

/** The standby suites on a private primary and a streaming standby of it, gone afterwards. */
async function withStandby(args: readonly string[], env: Readonly<Record<string, string>>): Promise<number> {
  let clusters: Awaited<ReturnType<typeof createPrimaryAndStandby>> | undefined;
  try {
    clusters = await createPrimaryAndStandby([STANDBY_APPLY_DELAY]);
    const { primary, standby } = clusters;
    // Arguments that name files replace the suites; others (--grep) apply to them. The config's
    // `spec` (every suite) would be added to any named here: its other options are given instead.
    const files = args.some((arg) => arg.endsWith('.js')) ? [] : STANDBY_SUITES;
    return await runMocha('postgres', [...configOptions(), ...files, ...args], { ...env, TEST_DATABASE_URL: primary.url, TOPOCAT_TEST_READ_URLS: standby.url }, 'postgres with a streaming standby');
  } catch (error) {
    console.error(`the primary and standby could not be started: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await clusters?.destroy();
  }
}

process.exitCode = await main();
