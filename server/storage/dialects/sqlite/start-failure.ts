import type { StartFailure } from '../../contract/start-error.js';

/** A SQLite file that cannot be opened, written or locked: what to change (server/start-failure.ts). */
export const sqliteStartFailure: StartFailure = ({ code, codeIs, says }, database) => {
  if (code === 'SQLITE_CANTOPEN') return `cannot open the SQLite database ${database}: check that its folder exists and is writable`;
  if (codeIs('SQLITE_READONLY', 'SQLITE_READONLY_DBMOVED', 'SQLITE_READONLY_DIRECTORY') || says('attempt to write a readonly database')) {
    return `the SQLite database ${database} is read-only: make the file and its folder writable by this user (SQLite writes its -wal and -shm files beside it)`;
  }
  if (codeIs('SQLITE_BUSY', 'SQLITE_LOCKED') || says('database is locked')) {
    return `the SQLite database ${database} is locked by another process (a write transaction held open by a tool, or another server migrating it); stop that process or wait, then start again`;
  }
  return undefined;
};
