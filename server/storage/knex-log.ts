import type { Knex } from 'knex';
import type { Logger } from '../log.js';

const MIGRATION_LOCK = /^Can't take lock to run migrations|knex migrate:unlock/;
const CONNECTION_ERROR = /^(Connection Error:|Acquire connection error:)/;

/** knex's warnings as log lines; without it knex prints them on stdout, among the JSON logs. */
export function knexLog(logger: Logger | undefined): { log?: Knex.Logger } {
  if (!logger) return {};
  return {
    log: {
      // knex's advice on a migration lock it could not take names its own CLI (`knex
      // migrate:unlock`), which does not apply here: the start's one-line error says why.
      // A pooled connection found dead ("Connection Error: …") is the database's outage, which the
      // storage logs once per change of state: one line per connection of the pool was noise.
      warn: (message: unknown) => (MIGRATION_LOCK.test(String(message)) || CONNECTION_ERROR.test(String(message)) ? logger.debug : logger.warn).call(logger, { component: 'knex' }, String(message)),
      error: (message: unknown) => logger.error({ component: 'knex' }, String(message)),
      debug: (message: unknown) => logger.debug({ component: 'knex' }, String(message)),
      deprecate: (method: string, alternative: string) => logger.warn({ component: 'knex' }, `${method} is deprecated; use ${alternative}`),
    },
  };
}
