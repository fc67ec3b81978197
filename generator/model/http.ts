/**
 * The error answers of the HTTP interface, in one table: every status the server answers with
 * the error body, the exception class the REST client raises for it, and the shape of the body.
 * The OpenAPI description, the server's error module (generated/rest/errors.ts) and the client
 * runtime are all generated from it.
 */
import type { JsonSchema } from '../load/schemas.js';

export interface ErrorStatus {
  readonly status: number;
  /** The REST client's exception class for this status, e.g. `NotFoundError`. */
  readonly className: string;
  /** The class it extends: `TopocatError`, or `ServerError` for the 5xx family. */
  readonly parent: 'TopocatError' | 'ServerError';
  /** When the service answers with it. */
  readonly meaning: string;
}

export const ERROR_STATUSES: readonly ErrorStatus[] = [
  { status: 400, className: 'BadRequestError', parent: 'TopocatError', meaning: 'validation failed, malformed JSON, or a bad query parameter or header' },
  { status: 401, className: 'UnauthorizedError', parent: 'TopocatError', meaning: 'credentials missing, unknown or without the scope the operation needs' },
  { status: 404, className: 'NotFoundError', parent: 'TopocatError', meaning: 'no such collection, path, id or version' },
  { status: 405, className: 'MethodNotAllowedError', parent: 'TopocatError', meaning: 'the path does not answer this method' },
  { status: 406, className: 'NotAcceptableError', parent: 'TopocatError', meaning: 'no media type the client accepts can be produced' },
  { status: 409, className: 'ConflictError', parent: 'TopocatError', meaning: 'a live resource has that id, or a PUT replays an existing `ts`' },
  { status: 412, className: 'PreconditionFailedError', parent: 'TopocatError', meaning: '`If-Match` does not match the newest representation' },
  { status: 413, className: 'PayloadTooLargeError', parent: 'TopocatError', meaning: 'the body or a POSTed array is over the limit' },
  { status: 415, className: 'UnsupportedMediaTypeError', parent: 'TopocatError', meaning: 'the Content-Type is not one the operation takes' },
  { status: 500, className: 'ServerError', parent: 'TopocatError', meaning: 'the operation failed; the request id identifies it in the server log' },
  { status: 501, className: 'NotImplementedError', parent: 'ServerError', meaning: 'the method is not implemented' },
  { status: 503, className: 'ServiceUnavailableError', parent: 'ServerError', meaning: 'the database is unavailable, or the service is still starting (every request until it is ready); retry after `Retry-After` seconds' },
];

/** The one error body, as JSON Schema; `ErrorDetail` is its named part. */
export const ERROR_BODY: JsonSchema = {
  title: 'ErrorBody',
  description: 'The one error body of the service.',
  type: 'object',
  required: ['error'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'object',
      required: ['status', 'message'],
      additionalProperties: false,
      properties: {
        status: { type: 'integer', description: 'The HTTP status, repeated.' },
        message: { type: 'string', description: 'What went wrong, for a person.' },
        details: {
          type: 'array',
          description: 'One entry per reason (at most 100).',
          items: { $ref: '#/$defs/ErrorDetail' },
        },
        requestId: { type: 'string', description: 'The request id, also in `X-Request-Id` and the server log.' },
      },
    },
  },
  $defs: {
    ErrorDetail: {
      title: 'ErrorDetail',
      description: 'One reason the service rejected a request.',
      type: 'object',
      required: ['path', 'message'],
      additionalProperties: false,
      properties: {
        path: { type: 'string', description: 'A JSON pointer into the request body (prefixed with the array index for arrays), or the name of the offending parameter or header.' },
        message: { type: 'string' },
      },
    },
  },
};
