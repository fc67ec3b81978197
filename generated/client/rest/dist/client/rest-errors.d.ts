// Compiled from generated/client/rest-errors.ts by npm run generate; do not edit. source 39e143dcf5facd273324646a054022b7552fe18b42ed8b41e6576f80f08b47f8 output 19e8485adecd1dbdbc2fcfbe081484622102f9676a65e6e88a4edef766a3e7ae
import { TopocatError } from './rest-error.js';
/** 400: validation failed, malformed JSON, or a bad query parameter or header. */
export declare class BadRequestError extends TopocatError {
}
/** 401: credentials missing, unknown or without the scope the operation needs. */
export declare class UnauthorizedError extends TopocatError {
}
/** 404: no such collection, path, id or version. */
export declare class NotFoundError extends TopocatError {
}
/** 405: the path does not answer this method. */
export declare class MethodNotAllowedError extends TopocatError {
}
/** 406: no media type the client accepts can be produced. */
export declare class NotAcceptableError extends TopocatError {
}
/** 409: a live resource has that id, or a PUT replays an existing `ts`. */
export declare class ConflictError extends TopocatError {
}
/** 412: `If-Match` does not match the newest representation. */
export declare class PreconditionFailedError extends TopocatError {
}
/** 413: the body or a POSTed array is over the limit. */
export declare class PayloadTooLargeError extends TopocatError {
}
/** 415: the Content-Type is not one the operation takes. */
export declare class UnsupportedMediaTypeError extends TopocatError {
}
/** 500: the operation failed; the request id identifies it in the server log. */
export declare class ServerError extends TopocatError {
}
/** 501: the method is not implemented. */
export declare class NotImplementedError extends ServerError {
}
/** 503: the database is unavailable, or the service is still starting (every request until it is ready); retry after `Retry-After` seconds. */
export declare class ServiceUnavailableError extends ServerError {
}
/** @internal The class of each status the service answers with the error body (the runtime's `errorFor`). */
export declare const ERROR_CLASSES: Readonly<Record<number, typeof TopocatError>>;
