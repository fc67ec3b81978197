import type { Principal } from '../auth.js';

/**
 * What the middleware of a request leaves in `ctx.state` for the steps after it. Koa's own
 * `DefaultState` is declared for augmenting (its base is `any`): these members are typed
 * wherever a context is, without a cast.
 */
export interface RequestState {
  /** The request's id (the client's X-Request-Id when it is sane), set first by requestContext. */
  requestId: string;
  /** Who the credentials name, when they were accepted (authentication). */
  principal?: Principal;
  /** Why the credentials were rejected: every protected path answers 401 with it (authentication). */
  credentialProblem?: string;
  /** What was wrong with a request answered 4xx, for its access line (the error handler). */
  reason?: string;
  /** The operation a SOAP request named, for its access line. */
  operation?: string;
}

declare module 'koa' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging: the members come from RequestState
  interface DefaultState extends RequestState {}
}
