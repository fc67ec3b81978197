import type { Rejection } from '../../generated/soap/service.js';
import { XmlSchemaError } from '../../generated/soap/runtime.js';
import type { Logger } from '../log.js';
import { StorageUnavailable } from '../storage/errors.js';
import type { CatalogCall } from './context.js';
import { failureResponse } from './responses.js';
import { fatalStatus, reportStatus } from './status.js';

/**
 * The response of an operation that could not run normally. The request's errorDeliveryMethod
 * is unknown here (the request may not even have been read), so the summary is always sent.
 * - A request that breaks the schema: NOT_SCHEMA_VALID, naming the offending element's path.
 * - The database unreachable: the operation's fatal code with cause NO_DATABASE_CONNECTION.
 * - Anything else: UNHANDLED_EXCEPTION with the request id; the error itself goes to the log only.
 */
export function catalogRejection(logger: Logger): Rejection<CatalogCall> {
  return async (operation, error, call) => {
    if (error instanceof XmlSchemaError) {
      const problem = { cause: 'NOT_SCHEMA_VALID', description: `${error.path}: ${error.problem}` } as const;
      return failureResponse(operation, reportStatus(operation, 'DIRECT', 'NOT_SCHEMA_VALID', [problem], true));
    }
    if (error instanceof StorageUnavailable) {
      // Where the storage logs the outage once per change of state (PostgreSQL, rest-contract §16),
      // not again per request; else (SQLite's busy file) each request is the only word of it.
      (error.reported ? logger.debug : logger.warn).call(logger, { err: error.cause, requestId: call.requestId, operation }, 'catalog storage unavailable');
      const problem = { cause: 'NO_DATABASE_CONNECTION', description: `the catalog database is unavailable; retry later (request id ${call.requestId})` } as const;
      return failureResponse(operation, fatalStatus(operation, 'DIRECT', [problem]));
    }
    logger.error({ err: error, requestId: call.requestId, operation }, 'catalog operation failed');
    const problem = { cause: 'UNHANDLED_EXCEPTION', description: `internal error (request id ${call.requestId})` } as const;
    return failureResponse(operation, reportStatus(operation, 'DIRECT', 'UNHANDLED_EXCEPTION', [problem], true));
  };
}
