import type { Knex } from 'knex';
import type { Logger } from '../log.js';

/** knex's warnings as log lines; without it knex prints them on stdout, among the JSON logs. */
export function knexLog(logger: Logger | undefined): { log?: Knex.Logger } {
  if (!logger) return {};
  return {
    log: {
      warn: (message: unknown) => logger.warn({ component: 'knex' }, String(message)),
      error: (message: unknown) => logger.error({ component: 'knex' }, String(message)),
      debug: (message: unknown) => logger.debug({ component: 'knex' }, String(message)),
      deprecate: (method: string, alternative: string) => logger.warn({ component: 'knex' }, `${method} is deprecated; use ${alternative}`),
    },
  };
}
