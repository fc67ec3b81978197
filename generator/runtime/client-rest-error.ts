/*
 * The REST client's base exception. Each status of the contract table (generator/model/http.ts)
 * has a class of its own that extends it (generated/client/rest-errors.ts).
 */
import type { ErrorBody, ErrorDetail } from '../../generated/rest/contract.js';

/** Any non-success answer. `body` is the service's error body, parsed. */
export class TopocatError extends Error {
  readonly status: number;
  readonly body: ErrorBody;
  constructor(status: number, body: ErrorBody) {
    super(`${status} ${body.error.message}`);
    this.name = new.target.name;
    this.status = status;
    this.body = body;
  }
  /** The reasons, each with the JSON pointer or parameter it is about. */
  get details(): readonly ErrorDetail[] {
    return this.body.error.details ?? [];
  }
  get requestId(): string | undefined {
    return this.body.error.requestId;
  }
}
