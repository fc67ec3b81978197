import type { StartError, StartFailure } from '../contract/start-error.js';
import { postgresStartFailure } from './postgres/start-failure.js';
import { sqliteStartFailure } from './sqlite/start-failure.js';
import { engineOf, type EngineName } from './urls.js';

/** Each engine's reading of a failed start; known from the error alone: no driver is loaded. */
const FAILURES: Record<EngineName, StartFailure> = { sqlite: sqliteStartFailure, postgres: postgresStartFailure };

/** What the engine of DATABASE_URL `url` says of `error` (see StartFailure); undefined when it knows nothing of it. */
export function engineStartFailure(url: string, error: StartError, database: string): string | undefined {
  const engine = engineOf(url);
  return engine === undefined ? undefined : FAILURES[engine](error, database);
}
