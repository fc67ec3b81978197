import type { ErrorClassifier } from '../../contract/driver.js';

/** Network failures of the driver's socket: the server is down, unreachable or gone. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'EHOSTDOWN', 'ENETUNREACH', 'ENETDOWN',
  'ENOTFOUND', 'EAI_AGAIN', 'ENOENT',
]);

/**
 * SQLSTATEs of a server that cannot serve now: class 08 (connection exception), 53 (insufficient
 * resources: too many connections, disk full, out of memory), 58 (I/O error), 57P0x (terminated
 * by shutdown, crash, "cannot connect now" while starting, stopping or in recovery, dropped), and
 * 25006 (read-only transaction: a write reached a standby, or a node being promoted that waits
 * to learn the old primary is demoted; rest-contract §16). topocat's writes never run in a
 * read-only transaction of its own making, so 25006 always means the host, never the request.
 */
function unavailableState(code: string, message: unknown): boolean {
  if (code === '25006') return true;
  // 55000 "recovery is in progress": a function of the primary (the WAL position) asked of a standby.
  if (code === '55000') return typeof message === 'string' && /recovery is in progress/.test(message);
  return code.startsWith('08') || code.startsWith('53') || code.startsWith('58') || code.startsWith('57P0');
}

/** Driver errors that carry no code; knex prefixes the message with the query, hence no anchor. */
const DRIVER_GONE = /Connection terminated|timeout expired|is not queryable|Connection ended unexpectedly/;

function isUnavailable(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  const { code, name, message, errors, cause } = error as { code?: unknown; name?: unknown; message?: unknown; errors?: unknown; cause?: unknown };
  if (name === 'KnexTimeoutError') return true;
  // Connecting to a name with several addresses fails with all of them at once.
  if (Array.isArray(errors) && errors.some((e) => isUnavailable(e))) return true;
  if (typeof code === 'string') {
    // Before the SQLSTATEs: `EPIPE` has their shape (five capitals), and was read as a query's
    // own error, a 500 (a list whose standby ended its session, issue 39).
    if (NETWORK_CODES.has(code)) return true;
    // A SQLSTATE decides alone: a query's own error is never a reason to answer 503.
    if (/^[0-9A-Z]{5}$/.test(code)) return unavailableState(code, message);
  }
  if (code === undefined && typeof message === 'string' && DRIVER_GONE.test(message)) return true;
  return cause !== undefined && cause !== error && isUnavailable(cause);
}

export const postgresErrors: ErrorClassifier = {
  isUnavailable,
  // The provider of the primary (primary.ts) and the standby routing (standbys.ts) log each change of state.
  reportsOutages: true,
  isUniqueViolation(error: unknown): boolean {
    return (error as { code?: string } | null)?.code === '23505';
  },
  isQueryTooLarge(error: unknown): boolean {
    // Class 54, program_limit_exceeded: statement too complex (stack depth), too many columns
    // or arguments, target lists over 1,664 entries.
    const code = (error as { code?: unknown } | null)?.code;
    return typeof code === 'string' && code.startsWith('54');
  },
  isLockBusy(error: unknown): boolean {
    // PostgreSQL waits for locks unless told not to (lock_timeout, NOWAIT): 55P03 lock_not_available.
    return (error as { code?: string } | null)?.code === '55P03';
  },
};
