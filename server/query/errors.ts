/** A malformed query; `parameter` names the offending query parameter. */
export class QueryError extends Error {
  constructor(
    readonly parameter: string,
    message: string,
  ) {
    super(message);
    this.name = 'QueryError';
  }
}
