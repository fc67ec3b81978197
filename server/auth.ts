import type { Context, Middleware } from 'koa';
import { HttpError } from './http/errors.js';
import { findToken, storedDigest, TOKEN_SCOPES, type TokenEntry, type TokenScope } from './tokens.js';

/** The scopes a REST operation needs (docs/rest-interface.md). */
export type Scope = Exclude<TokenScope, 'admin' | 'metrics'>;

/** Who is calling, as far as the credentials say. */
export interface Principal {
  readonly name: string;
  readonly scopes: ReadonlySet<TokenScope>;
  /** The catalog identity bound to the credentials, if any. */
  readonly dn?: string;
}

/**
 * The authentication hook. It turns the `Authorization` header into a principal, or throws a
 * 401 for credentials it does not accept; `undefined` means the request carried none.
 */
export interface Authenticator {
  /** True when requests without credentials are allowed everything (no tokens configured). */
  readonly open: boolean;
  authenticate(authorization: string | undefined): Principal | undefined;
}

const EVERYTHING: Principal = { name: 'anonymous', scopes: new Set<TokenScope>(TOKEN_SCOPES) };

/** No tokens configured: every request may do everything. The start-up log says so. */
export class OpenAccess implements Authenticator {
  readonly open = true;
  authenticate(): Principal {
    return EVERYTHING;
  }
}

/** A credential that is present but not acceptable. */
export class CredentialsRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CredentialsRejected';
  }
}

/**
 * Bearer tokens (docs/rest-interface.md): `Authorization: Bearer <token>`, looked up by hash in
 * constant time. A request without credentials is anonymous and may do nothing that needs a
 * scope; an unknown or malformed credential is refused outright.
 */
export class BearerTokens implements Authenticator {
  readonly open = false;
  /** Each token's digest as bytes and its principal, made once rather than on every request. */
  private readonly known: readonly { readonly digest: Buffer; readonly principal: Principal }[];
  /**
   * `Authorization` values already accepted, and their principal: a client sends the same
   * header on every request, and its digest and comparisons are then made once, not each time
   * (they were about 3 µs of every GET). Only accepted values are kept, so an unknown token
   * always takes the whole constant-time path; the map is emptied when it reaches ACCEPTED_MAX.
   */
  private readonly accepted = new Map<string, Principal>();

  constructor(entries: readonly TokenEntry[]) {
    this.known = entries.map((entry) => ({
      digest: storedDigest(entry),
      principal: { name: entry.name, scopes: new Set(entry.scopes), ...(entry.dn !== undefined ? { dn: entry.dn } : {}) },
    }));
  }

  authenticate(authorization: string | undefined): Principal | undefined {
    if (authorization === undefined) return undefined;
    const remembered = this.accepted.get(authorization);
    if (remembered) return remembered;
    const match = /^Bearer[ \t]+([A-Za-z0-9._~+/=-]+)[ \t]*$/i.exec(authorization);
    if (!match) throw new CredentialsRejected('expected Authorization: Bearer <token>');
    const known = findToken(this.known, match[1]!);
    if (!known) throw new CredentialsRejected('unknown token');
    if (this.accepted.size >= ACCEPTED_MAX) this.accepted.clear();
    this.accepted.set(authorization, known.principal);
    return known.principal;
  }
}

/** Most accepted `Authorization` values remembered (spacing variants of one token count apart). */
const ACCEPTED_MAX = 1024;

export function unauthorized(message: string): HttpError {
  return new HttpError(401, message, [], { 'WWW-Authenticate': 'Bearer realm="topocat"' });
}

/** Loopback hosts: an open service there is reachable only from the same machine. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * Identify the caller once per request; handlers then ask for the scope they need. A rejected
 * credential is remembered rather than thrown here, so that open paths (health, discovery)
 * still answer and every protected path answers 401.
 */
export function authentication(authenticator: Authenticator): Middleware {
  return async (ctx, next) => {
    const credentials = credentialsOf(authenticator, ctx.get('authorization') || queryToken(ctx));
    if (credentials.problem !== undefined) ctx.state.credentialProblem = credentials.problem;
    else ctx.state.principal = credentials.principal;
    await next();
  };
}

/** What a request's credentials say: who calls (none without credentials), or why they are refused. */
export type Credentials = { readonly principal: Principal | undefined; readonly problem?: undefined } | { readonly principal?: undefined; readonly problem: string };

/** The credentials of an `Authorization` value ('' or undefined: none), as the middleware and the fast read path take them. */
export function credentialsOf(authenticator: Authenticator, header: string | undefined): Credentials {
  try {
    return { principal: authenticator.authenticate(header === '' ? undefined : header) };
  } catch (error) {
    if (!(error instanceof CredentialsRejected)) throw error;
    return { problem: error.message };
  }
}

/**
 * `access_token=` in the query (RFC 6750 §2.3): browsers cannot set headers on an EventSource,
 * so an event stream may carry its token there. Only there: elsewhere a token in a URL would end
 * up in histories and proxies' logs for no reason.
 */
function queryToken(ctx: Context): string {
  if (!/text\/event-stream/i.test(ctx.get('accept'))) return '';
  const token = ctx.query.access_token;
  return typeof token === 'string' && token !== '' ? `Bearer ${token}` : '';
}

/** Throw 401 unless the caller's credentials carry `scope`. */
export function authorize(ctx: Context, scope: TokenScope): Principal {
  const principal = ctx.state.principal;
  const problem = ctx.state.credentialProblem;
  const refusal = scopeRefusal(problem === undefined ? { principal } : { problem }, scope);
  if (refusal !== undefined) throw unauthorized(refusal);
  return principal!;
}

/** Why these credentials may not do what needs `scope` (the 401's message); undefined when they may. */
export function scopeRefusal(credentials: Credentials, scope: TokenScope): string | undefined {
  const { principal, problem } = credentials;
  if (problem !== undefined) return problem;
  if (!principal) return `credentials with the ${scope} scope are required`;
  if (!principal.scopes.has(scope)) return `the credentials lack the ${scope} scope`;
  return undefined;
}

/** The scope a REST method needs. */
export function scopeOf(method: string): Scope {
  switch (method) {
    case 'POST':
      return 'create';
    case 'PUT':
    case 'PATCH':
      return 'update';
    case 'DELETE':
      return 'delete';
    default:
      return 'read';
  }
}
