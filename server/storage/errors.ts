import type { ErrorClassifier } from './contract/driver.js';

/** Storage outcomes the caller must handle; none of them knows about HTTP. */

/** A write replays a version: its id and `ts` equal a stored representation. */
export class ResourceConflict extends Error {
  constructor(
    message: string,
    /** Position in the inserted batch, when the conflict comes from an insert. */
    readonly index?: number,
  ) {
    super(message);
    this.name = 'ResourceConflict';
  }
}

/** No live resource with that id. */
export class ResourceMissing extends Error {
  constructor(message = 'no resource with that id') {
    super(message);
    this.name = 'ResourceMissing';
  }
}

/**
 * The write was conditional and the condition fails: the newest version is another one
 * (If-Match), or a create-only insert met a live id (If-None-Match: *).
 */
export class PreconditionFailed extends Error {
  constructor(
    message = 'the resource has changed',
    /** Position in the inserted batch, when it comes from an insert. */
    readonly index?: number,
  ) {
    super(message);
    this.name = 'PreconditionFailed';
  }
}

/** The database cannot be reached; the operation may succeed when retried. */
export class StorageUnavailable extends Error {
  /**
   * @param reported whether the storage has logged this outage already, as a change of state
   * (ErrorClassifier.reportsOutages): then a request it fails is not logged again.
   */
  constructor(
    cause: unknown,
    readonly reported = false,
  ) {
    super('the database is unavailable', { cause });
    this.name = 'StorageUnavailable';
  }
}

/** Whether `error` is an outage the storage has logged already as a change of state: worth a debug line, not another warning. */
export function reportedOutage(error: unknown): boolean {
  return error instanceof StorageUnavailable && error.reported;
}

/** The database refused a query for its size (too many terms, too deep): the client's to make smaller. */
export class QueryTooLarge extends Error {
  /** `cause`: the engine's error, or what the query would pass. */
  constructor(cause: unknown) {
    super(`the query is too large for the database (${cause instanceof Error ? cause.message.slice(0, 200) : String(cause)}); use fewer terms or values`, { cause });
    this.name = 'QueryTooLarge';
  }
}

/**
 * The dialect's errors that mean something to the client, as this module's classes; others as
 * they are. With `conflict`, a unique violation is ResourceConflict(conflict). An error that is
 * one of these classes already stays as it is (work classified inside work classified).
 */
export function classify(errors: ErrorClassifier, error: unknown, conflict?: string): unknown {
  if (error instanceof StorageUnavailable || error instanceof QueryTooLarge || error instanceof ResourceConflict) return error;
  if (conflict !== undefined && errors.isUniqueViolation(error)) return new ResourceConflict(conflict);
  if (errors.isUnavailable(error)) return new StorageUnavailable(error, errors.reportsOutages);
  if (errors.isQueryTooLarge(error)) return new QueryTooLarge(error);
  return error;
}

/** No measurement series with that mid (not registered with `POST /events`, or deleted). */
export class SeriesMissing extends Error {
  constructor(
    readonly mid: string,
    /** Position in the posted batches, when it comes from an append. */
    readonly index?: number,
  ) {
    super(`no measurement series "${mid.slice(0, 200)}"; register it with POST /events`);
    this.name = 'SeriesMissing';
  }
}

/**
 * Run storage work with the dialect's errors classified (StorageUnavailable, QueryTooLarge; with
 * `conflict`, a unique violation as ResourceConflict): the one wrapper of the stores.
 */
export async function classified<T>(errors: ErrorClassifier, work: () => Promise<T> | PromiseLike<T>, conflict?: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw classify(errors, error, conflict);
  }
}

/** `items` as they are iterated, with the dialect's errors classified as `classified` does. */
export function classifiedItems<T>(errors: ErrorClassifier, items: AsyncIterable<T>): AsyncIterable<T> {
  return {
    async *[Symbol.asyncIterator]() {
      try {
        yield* items;
      } catch (error) {
        throw classify(errors, error);
      }
    },
  };
}
