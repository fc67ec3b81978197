/** Storage outcomes the caller must handle; none of them knows about HTTP. */

/** A live resource already has the id (or a PUT replays an existing `ts`). */
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

/** The write was conditional on a version that is no longer the newest. */
export class PreconditionFailed extends Error {
  constructor(message = 'the resource has changed') {
    super(message);
    this.name = 'PreconditionFailed';
  }
}

/** The database cannot be reached; the operation may succeed when retried. */
export class StorageUnavailable extends Error {
  constructor(cause: unknown) {
    super('the database is unavailable', { cause });
    this.name = 'StorageUnavailable';
  }
}
