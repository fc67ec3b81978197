import type { Context, Middleware } from 'koa';
import { HttpError } from './http/errors.js';

/** What a credential allows (rest-contract §8). */
export type Scope = 'read' | 'create' | 'update' | 'delete';
export const SCOPES: readonly Scope[] = ['read', 'create', 'update', 'delete'];

/** Who is calling, as far as the credentials say. */
export interface Principal {
  readonly name: string;
  readonly scopes: ReadonlySet<Scope>;
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

const EVERYTHING: Principal = { name: 'anonymous', scopes: new Set(SCOPES) };

/** No tokens configured: every request may do everything. The start-up log says so. */
export class OpenAccess implements Authenticator {
  readonly open = true;
  authenticate(): Principal {
    return EVERYTHING;
  }
}

export function unauthorized(message: string): HttpError {
  return new HttpError(401, message, [], { 'WWW-Authenticate': 'Bearer realm="topocat"' });
}

/** Identify the caller once per request; handlers then ask for the scope they need. */
export function authentication(authenticator: Authenticator): Middleware {
  return async (ctx, next) => {
    const header = ctx.get('authorization');
    ctx.state.principal = authenticator.authenticate(header === '' ? undefined : header);
    await next();
  };
}

/** Throw 401 unless the caller's credentials carry `scope`. */
export function authorize(ctx: Context, scope: Scope): Principal {
  const principal = ctx.state.principal as Principal | undefined;
  if (!principal) throw unauthorized(`credentials with the ${scope} scope are required`);
  if (!principal.scopes.has(scope)) throw unauthorized(`the credentials lack the ${scope} scope`);
  return principal;
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
