/**
 * `npm test` after the build: the whole suite once on SQLite, then once more on PostgreSQL when
 * TEST_DATABASE_URL names a server, then the suites that read through the interfaces once more
 * on a private primary with a streaming standby that every server reads from (rest-contract §15;
 * tools/pg-cluster.ts, needs PostgreSQL's binaries on this machine). An unreachable PostgreSQL is
 * skipped with a warning, except with CI=true, where it fails the run. Arguments go on to mocha
 * (`npm test -- --grep streams`); `TOPOCAT_TEST_STANDBY=0` leaves the standby run out.
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

function runMocha(engine: Engine, args: readonly string[], env: Readonly<Record<string, string>> = {}, title: string = engine): Promise<number> {
  console.log(`\n=== tests on ${title} ===`);
  const child = spawn(process.execPath, [mocha, ...args], {
    cwd: projectRoot,
    stdio: 'inherit',
    env: { ...process.env, TOPOCAT_TEST_DATABASE: engine, ...env },
  });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
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

  const sqlite = await runMocha('sqlite', args);
  outcomes.push(`sqlite: ${sqlite === 0 ? 'passed' : 'FAILED'}`);
  failed ||= sqlite !== 0;

  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    outcomes.push('postgres: not run (set TEST_DATABASE_URL=postgres://… to run it)');
  } else {
    const problem = await unreachable(url);
    if (problem !== undefined && process.env.CI === 'true') {
      outcomes.push(`postgres: FAILED, ${shown(url)} is unreachable (${problem})`);
      failed = true;
    } else if (problem !== undefined) {
      outcomes.push(`postgres: SKIPPED, ${shown(url)} is unreachable (${problem}); with CI=true this fails`);
    } else {
      const postgres = await runMocha('postgres', args);
      outcomes.push(`postgres: ${postgres === 0 ? 'passed' : 'FAILED'}`);
      failed ||= postgres !== 0;
      if (process.env.TOPOCAT_TEST_STANDBY === '0') outcomes.push('postgres with a standby: not run (TOPOCAT_TEST_STANDBY=0)');
      else {
        const standby = await withStandby(args);
        outcomes.push(`postgres with a standby: ${standby === 0 ? 'passed' : 'FAILED'}`);
        failed ||= standby !== 0;
      }
    }
  }

  console.log(`\n${outcomes.join('\n')}`);
  return failed ? 1 : 0;
}

/** The standby suites on a private primary and a streaming standby of it, gone afterwards. */
async function withStandby(args: readonly string[]): Promise<number> {
  let clusters: Awaited<ReturnType<typeof createPrimaryAndStandby>> | undefined;
  try {
    clusters = await createPrimaryAndStandby([STANDBY_APPLY_DELAY]);
    const { primary, standby } = clusters;
    // Arguments that name files replace the suites; others (--grep) apply to them. The config's
    // `spec` (every suite) would be added to any named here: its other options are given instead.
    const files = args.some((arg) => arg.endsWith('.js')) ? [] : STANDBY_SUITES;
    const config = JSON.parse(readFileSync(path.join(projectRoot, '.mocharc.json'), 'utf8')) as { timeout: number; slow: number };
    const options = ['--no-config', '--timeout', String(config.timeout), '--slow', String(config.slow), '--enable-source-maps'];
    return await runMocha('postgres', [...options, ...files, ...args], { TEST_DATABASE_URL: primary.url, TOPOCAT_TEST_READ_URLS: standby.url }, 'postgres with a streaming standby');
  } catch (error) {
    console.error(`the primary and standby could not be started: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await clusters?.destroy();
  }
}

process.exitCode = await main();
