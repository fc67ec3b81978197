/**
 * The one error shape of the HTTP interface: `{ "error": { "status", "message", "details"?,
 * "requestId"? } }`. The shape and the statuses come from the generator's error table
 * (generated/rest/contract.ts), as do the OpenAPI description's and the client's.
 */
import { ERROR_STATUSES, type ErrorBody, type ErrorDetail, type ErrorStatus } from '../../generated/rest/contract.js';

export type { ErrorBody, ErrorDetail, ErrorStatus };

/** An error whose status and message are meant for the client. */
export class HttpError extends Error {
  readonly status: ErrorStatus;
  readonly details: readonly ErrorDetail[];
  readonly headers: Readonly<Record<string, string>>;
  constructor(status: ErrorStatus, message: string, details: readonly ErrorDetail[] = [], headers: Readonly<Record<string, string>> = {}) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.details = details;
    this.headers = headers;
  }
}

const KNOWN: ReadonlySet<number> = new Set(ERROR_STATUSES);

/** True for the statuses the error table lists. */
export function isErrorStatus(status: number): status is ErrorStatus {
  return KNOWN.has(status);
}

/** At most this many details go into one answer; a 10,000-item array can fail 10,000 ways. */
const MAX_DETAILS = 100;

export function errorBody(status: ErrorStatus, message: string, details: readonly ErrorDetail[], requestId: string | undefined): ErrorBody {
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
