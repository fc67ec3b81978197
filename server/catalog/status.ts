import type { CatalogServiceOperation } from '../../generated/soap/service.js';
import type { CatalogDeliveryType, CatalogOperationStatusType, CatalogStatusType, ErrorDetailType } from '../../generated/soap/types.js';

/**
 * The status policy (docs/catalog-interface.md, XMC Cat's W-CAT table in §2.0): a response says
 * OPERATION_SUCCESSFUL, NOT_SCHEMA_VALID, UNHANDLED_EXCEPTION or its operation's own fatal or
 * partial code; the specific cause goes in the operationSummary.
 */
export const STATUS_CODES: Readonly<Record<CatalogServiceOperation, { readonly fatal: CatalogStatusType; readonly partial: CatalogStatusType }>> = {
  checkStatus: { fatal: 'FATAL_STATUS_ERROR', partial: 'NON_FATAL_STATUS_ERROR' },
  lastUpdate: { fatal: 'FATAL_QUERY_ERROR', partial: 'NON_FATAL_QUERY_ERROR' },
  createUser: { fatal: 'FATAL_CREATE_ERROR', partial: 'NON_FATAL_CREATE_ERROR' },
  updateUser: { fatal: 'FATAL_UPDATE_ERROR', partial: 'NON_FATAL_UPDATE_ERROR' },
  deleteUser: { fatal: 'FATAL_DELETE_ERROR', partial: 'NON_FATAL_DELETE_ERROR' },
  queryUser: { fatal: 'FATAL_QUERY_ERROR', partial: 'NON_FATAL_QUERY_ERROR' },
  doesUserExist: { fatal: 'FATAL_QUERY_ERROR', partial: 'NON_FATAL_QUERY_ERROR' },
  whiteboardId: { fatal: 'FATAL_QUERY_ERROR', partial: 'NON_FATAL_QUERY_ERROR' },
  // Like a move: one link, no partial outcome.
  assignObject: { fatal: 'FATAL_UPDATE_ERROR', partial: 'OPERATION_SUCCESSFUL' },
  createObject: { fatal: 'FATAL_CREATE_ERROR', partial: 'NON_FATAL_CREATE_ERROR' },
  deleteObject: { fatal: 'FATAL_DELETE_ERROR', partial: 'NON_FATAL_DELETE_ERROR' },
  // XMC Cat: a move has no partial outcome; anything that goes wrong after commit is success.
  moveObject: { fatal: 'FATAL_UPDATE_ERROR', partial: 'OPERATION_SUCCESSFUL' },
  objectExists: { fatal: 'FATAL_QUERY_ERROR', partial: 'NON_FATAL_QUERY_ERROR' },
  addProperty: { fatal: 'FATAL_UPDATE_ERROR', partial: 'NON_FATAL_UPDATE_ERROR' },
  updateProperty: { fatal: 'FATAL_UPDATE_ERROR', partial: 'NON_FATAL_UPDATE_ERROR' },
  deleteProperty: { fatal: 'FATAL_DELETE_ERROR', partial: 'NON_FATAL_DELETE_ERROR' },
  query: { fatal: 'FATAL_QUERY_ERROR', partial: 'NON_FATAL_QUERY_ERROR' },
  objectIdQuery: { fatal: 'FATAL_QUERY_ERROR', partial: 'NON_FATAL_QUERY_ERROR' },
  allWorkspaceQuery: { fatal: 'FATAL_QUERY_ERROR', partial: 'NON_FATAL_QUERY_ERROR' },
  queryPropertyDefinitions: { fatal: 'FATAL_QUERY_ERROR', partial: 'NON_FATAL_QUERY_ERROR' },
  getAllQueryDescriptions: { fatal: 'FATAL_QUERY_ERROR', partial: 'NON_FATAL_QUERY_ERROR' },
  getQueryDefinition: { fatal: 'FATAL_QUERY_ERROR', partial: 'NON_FATAL_QUERY_ERROR' },
  saveQueryDefinition: { fatal: 'FATAL_CREATE_ERROR', partial: 'NON_FATAL_CREATE_ERROR' },
  deleteQueryDefinition: { fatal: 'FATAL_DELETE_ERROR', partial: 'NON_FATAL_DELETE_ERROR' },
};

/** One thing that went wrong, as the operationSummary reports it. */
export interface Problem {
  readonly cause: CatalogStatusType;
  readonly description: string;
}

/** A business rule refuses an operation, or one item of it. Thrown, then reported. */
export class Refusal extends Error implements Problem {
  constructor(
    override readonly cause: CatalogStatusType,
    readonly description: string,
  ) {
    super(description);
    this.name = 'Refusal';
  }
}

export const SUCCESS: CatalogOperationStatusType = { status: 'OPERATION_SUCCESSFUL' };

/**
 * `status` with, unless the caller asked for no error delivery, a summary of `problems`:
 * its operationStatus is the first problem's cause. STREAMING is answered as DIRECT.
 */
export function reportStatus(
  operation: CatalogServiceOperation,
  delivery: CatalogDeliveryType,
  status: CatalogStatusType,
  problems: readonly Problem[],
  fatal: boolean,
): CatalogOperationStatusType {
  if (delivery === 'NONE' || problems.length === 0) return { status };
  const details: ErrorDetailType[] = problems.map((p) => ({ cause: p.cause, className: 'CatalogService', methodName: operation, description: p.description }));
  return {
    status,
    operationSummary: {
      hasFatalErrors: fatal,
      hasNonFatalErrors: !fatal,
      operationStatus: problems[0]!.cause,
      operationName: operation,
      fatalError: fatal ? details : [],
      nonFatalError: fatal ? [] : details,
    },
  };
}

/** The operation failed as a whole. */
export function fatalStatus(operation: CatalogServiceOperation, delivery: CatalogDeliveryType, problems: readonly Problem[]): CatalogOperationStatusType {
  return reportStatus(operation, delivery, STATUS_CODES[operation].fatal, problems, true);
}

/** Some items failed, others were stored. */
export function partialStatus(operation: CatalogServiceOperation, delivery: CatalogDeliveryType, problems: readonly Problem[]): CatalogOperationStatusType {
  return reportStatus(operation, delivery, STATUS_CODES[operation].partial, problems, false);
}

/** Tallies the items of a multi-item operation: all stored, some failed, or all failed. */
export class ItemOutcomes {
  private readonly problems: Problem[] = [];
  private stored = 0;

  constructor(
    private readonly operation: CatalogServiceOperation,
    private readonly delivery: CatalogDeliveryType,
  ) {}

  succeeded(): void {
    this.stored++;
  }

  failed(problem: Problem): void {
    this.problems.push(problem);
  }

  status(): CatalogOperationStatusType {
    if (this.problems.length === 0) return SUCCESS;
    return this.stored === 0 ? fatalStatus(this.operation, this.delivery, this.problems) : partialStatus(this.operation, this.delivery, this.problems);
  }
}

export const MISSING_DN: Problem = { cause: 'MISSING_DN', description: 'the request has no Username SOAP header naming the caller' };
