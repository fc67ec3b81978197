import type { Config } from './config.js';
import { engineStartFailure } from './storage/dialects/start-failures.js';
import { describeDatabase } from './storage/dialects/urls.js';
import { NewerDatabase } from './storage/migrations.js';
import { StartLockTimeout } from './storage/start-lock.js';

/** What a system or driver error carries that says why the start failed. */
interface Cause {
  readonly code?: unknown;
  readonly syscall?: unknown;
  readonly hostname?: unknown;
  readonly message?: unknown;
  readonly cause?: unknown;
}

/** The error and the errors it wraps, outermost first (knex wraps the driver's). */
function chain(error: unknown): Cause[] {
  const all: Cause[] = [];
  for (let at = error; at !== null && typeof at === 'object' && all.length < 5; at = (at as Cause).cause) all.push(at as Cause);
  return all;
}

/**
 * One line that says why the service could not start and what to change, for the failures a
 * person running it meets: the port, the address, the database (what only its engine knows, the
 * engine says). Undefined for anything else.
 */
export function describeStartFailure(error: unknown, config: Config): string | undefined {
  const causes = chain(error);
  const has = (test: (cause: Cause) => boolean): boolean => causes.some(test);
  const codeIs = (...codes: string[]): boolean => has((c) => codes.includes(String(c.code)));
  const says = (text: string): boolean => has((c) => String(c.message ?? '').includes(text));
  const { code, syscall, hostname } = causes[0] ?? {};
  const where = `${config.host}:${config.port}`;
  const database = describeDatabase(config.databaseUrl);
  if (error instanceof NewerDatabase) return `the database ${database} ${error.message}`;
  if (code === 'EADDRINUSE') return `port ${config.port} on ${config.host} is already in use; stop the other server or set PORT to a free port (PORT=0 picks one)`;
  if (code === 'EACCES' && syscall === 'listen') return `not allowed to listen on ${where} (ports below 1024 need privileges); set PORT`;
  const lookup = code === 'ENOTFOUND' || code === 'EAI_AGAIN';
  if (code === 'EADDRNOTAVAIL' || (lookup && syscall === 'getaddrinfo' && hostname === config.host)) return `HOST ${config.host} is not an address of this machine; set HOST (127.0.0.1, 0.0.0.0, ::)`;
  if (lookup) return `the database host ${typeof hostname === 'string' ? hostname : ''} of DATABASE_URL (${database}) does not resolve (${String(code)}); check the host name`.replace('host  of', 'host of');
  if (error instanceof StartLockTimeout) return `the database ${database} stayed locked by another process for ${error.waitedMs} ms; stop the other server on it first, or raise START_LOCK_TIMEOUT_MS`;
  // What only the engine knows (its codes and messages: storage/dialects/*/start-failure.ts).
  const engine = engineStartFailure(config.databaseUrl, { code, codeIs, says }, database);
  if (engine !== undefined) return engine;
  if (code === 'ECONNREFUSED' || code === 'ETIMEDOUT' || code === 'EHOSTUNREACH') return `cannot reach the database ${database} (${String(code)}); is it running?`;
  return undefined;
}
