/**
 * `npm test` after the build: the whole suite once on SQLite, then once more on PostgreSQL when
 * TEST_DATABASE_URL names a server. An unreachable PostgreSQL is skipped with a warning, except
 * with CI=true, where it fails the run. Arguments go on to mocha (`npm test -- --grep streams`).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { Engine } from './helpers/database.js';
import { withPostgres } from './helpers/database.js';
import { projectRoot } from './helpers/server.js';

const mocha = path.join(projectRoot, 'node_modules/mocha/bin/mocha.js');

function runMocha(engine: Engine, args: readonly string[]): Promise<number> {
  console.log(`\n=== tests on ${engine} ===`);
  const child = spawn(process.execPath, [mocha, ...args], {
    cwd: projectRoot,
    stdio: 'inherit',
    env: { ...process.env, TOPOCAT_TEST_DATABASE: engine },
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
    }
  }

  console.log(`\n${outcomes.join('\n')}`);
  return failed ? 1 : 0;
}

process.exitCode = await main();
