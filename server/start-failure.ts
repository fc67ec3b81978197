import type { Config } from './config.js';
import { NewerDatabase } from './storage/migrations.js';
import { StartLockTimeout } from './storage/start-lock.js';

/** What a system or driver error carries that says why the start failed. */
interface Cause {
  readonly code?: unknown;
  readonly syscall?: unknown;
  readonly message?: unknown;
}

/** The database address without a password, for messages. */
function shownDatabase(url: string): string {
  return url.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@');
}

/**
 * One line that says why the service could not start and what to change, for the failures a
 * person running it meets: the port, the address, the database. Undefined for anything else.
 */
export function describeStartFailure(error: unknown, config: Config): string | undefined {
  const { code, syscall } = (error ?? {}) as Cause;
  const where = `${config.host}:${config.port}`;
  if (code === 'EADDRINUSE') return `port ${config.port} on ${config.host} is already in use; stop the other server or set PORT to a free port (PORT=0 picks one)`;
  if (code === 'EACCES' && syscall === 'listen') return `not allowed to listen on ${where} (ports below 1024 need privileges); set PORT`;
  if (code === 'EADDRNOTAVAIL' || (code === 'ENOTFOUND' && syscall === 'getaddrinfo')) return `HOST ${config.host} is not an address of this machine; set HOST (127.0.0.1, 0.0.0.0, ::)`;
  const database = shownDatabase(config.databaseUrl);
  if (error instanceof NewerDatabase) return `${error.message} (DATABASE_URL=${database})`;
  if (error instanceof StartLockTimeout) return `the database of DATABASE_URL=${database} stayed locked by another process for ${error.waitedMs} ms; stop the other server on it first, or raise START_LOCK_TIMEOUT_MS`;
  if (code === 'SQLITE_CANTOPEN') return `cannot open the SQLite database of DATABASE_URL=${database}: check that its folder exists and is writable`;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ETIMEDOUT' || code === 'EHOSTUNREACH') return `cannot reach the database of DATABASE_URL=${database} (${String(code)}); is it running?`;
  if (code === '28P01' || code === '28000') return `the database refused the credentials of DATABASE_URL=${database}`;
  if (code === '3D000') return `the database named in DATABASE_URL=${database} does not exist; create it first`;
  return undefined;
}
