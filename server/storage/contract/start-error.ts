// An error that stopped the server's start, as each engine reads it for the operator's one line
// (server/start-failure.ts; the engines' start-failure.ts). Part of storage's contract: it
// imports nothing.

/** What the error and the errors it wraps (knex wraps the driver's), outermost first, carry. */
export interface StartError {
  /** The outermost error's code (a system error's `ECONNREFUSED`, a driver's `SQLITE_CANTOPEN` or SQLSTATE). */
  readonly code: unknown;
  /** One of them has one of these codes. */
  codeIs(...codes: string[]): boolean;
  /** One of their messages holds `text`. */
  says(text: string): boolean;
}

/**
 * The line that says why the start failed on one engine and what to change, for the failures
 * that only it has (`database`: the database as the start line names it); undefined for others.
 */
export type StartFailure = (error: StartError, database: string) => string | undefined;
