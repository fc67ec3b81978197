/**
 * `npm run backup -- <file>`: an online backup of the database of DATABASE_URL (the server's
 * setting) into a new file, while servers keep serving. SQLite: the backup API, one consistent
 * copy; PostgreSQL: pg_dump's custom format. docs/running.md, "Backup and restore".
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { dialectFor } from './storage/dialects/index.js';
import { DEFAULT_DATABASE_URL } from './storage/dialects/urls.js';

const USAGE = `usage: npm run backup -- <file> [--force]

Copies the database of DATABASE_URL (default ${DEFAULT_DATABASE_URL}) into <file> while
the service keeps serving: every write acknowledged before the backup began is in the copy.
SQLite: SQLite's online backup API, a database file of its own. PostgreSQL: pg_dump's custom
format (the schema of ?schema=), for pg_restore. <file> appears only once it is complete.

  --force   replace <file> if it exists
  --help    this text

Restoring: docs/running.md, "Backup and restore".`;

function fail(message: string, code: number): never {
  console.error(`error: ${message}${code === 2 ? `\n\n${USAGE}` : ''}`);
  process.exit(code);
}

const { values, positionals } = (() => {
  try {
    return parseArgs({ options: { force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, allowPositionals: true });
  } catch (error) {
    return fail((error as Error).message.split('\n')[0]!, 2);
  }
})();
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (positionals.length !== 1) fail('name one file to write the backup to', 2);
const destination = path.resolve(positionals[0]!);
if (existsSync(destination) && !values.force) fail(`${destination} exists; choose another name or add --force`, 2);
if (!existsSync(path.dirname(destination))) fail(`the folder ${path.dirname(destination)} does not exist`, 2);

const url = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
const started = performance.now();
try {
  const dialect = dialectFor(url);
  if (!dialect.adapter.backup.exists()) fail(`there is no database at ${url}`, 1);
  const result = await dialect.adapter.backup.copy(destination);
  console.log(`backup written to ${result.file}: ${result.bytes} bytes in ${Math.round(performance.now() - started)} ms`);
  console.log(`to restore: ${result.restore}`);
} catch (error) {
  fail(`the backup failed: ${error instanceof Error ? error.message : String(error)}`, 1);
}
