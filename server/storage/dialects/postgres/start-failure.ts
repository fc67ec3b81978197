import type { StartFailure } from '../../contract/start-error.js';

/** A PostgreSQL server that refused the credentials or has no such database (SQLSTATE): what to change (server/start-failure.ts). */
export const postgresStartFailure: StartFailure = ({ code }, database) => {
  if (code === '28P01' || code === '28000') return `the database refused the credentials of DATABASE_URL (${database})`;
  if (code === '3D000') return `the database named in DATABASE_URL (${database}) does not exist; create it first`;
  return undefined;
};
