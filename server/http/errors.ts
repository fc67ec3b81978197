/**
 * The one error shape of the HTTP interface (rest-contract §7):
 * `{ "error": { "status", "message", "details"?, "requestId"? } }`.
 */

export interface ErrorDetail {
  /** JSON pointer into the request body, or the name of the offending parameter or header. */
  readonly path: string;
  readonly message: string;
}

/** An error whose status and message are meant for the client. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: readonly ErrorDetail[] = [],
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export interface ErrorBody {
  readonly error: {
    readonly status: number;
    readonly message: string;
    readonly details?: readonly ErrorDetail[];
    readonly requestId?: string;
  };
}

/** At most this many details go into one answer; a 10,000-item array can fail 10,000 ways. */
const MAX_DETAILS = 100;

export function errorBody(status: number, message: string, details: readonly ErrorDetail[], requestId: string | undefined): ErrorBody {
  return {
    error: {
      status,
      message,
      ...(details.length > 0 ? { details: details.slice(0, MAX_DETAILS) } : {}),
      ...(requestId !== undefined ? { requestId } : {}),
    },
  };
}

export const badRequest = (message: string, details: readonly ErrorDetail[] = []): HttpError => new HttpError(400, message, details);
export const notFound = (message: string): HttpError => new HttpError(404, message);
