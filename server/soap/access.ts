import type { CatalogServiceOperation } from '../../generated/soap/service.js';
import type { Principal } from '../auth.js';
import type { TokenScope } from '../tokens.js';

/** The scope each catalog operation needs, by what it does (as REST methods do). */
const OPERATION_SCOPES: Readonly<Record<CatalogServiceOperation, TokenScope>> = {
  checkStatus: 'read',
  queryUser: 'read',
  doesUserExist: 'read',
  whiteboardId: 'read',
  objectExists: 'read',
  query: 'read',
  objectIdQuery: 'read',
  allWorkspaceQuery: 'read',
  queryPropertyDefinitions: 'read',
  lastUpdate: 'read',
  getAllQueryDescriptions: 'read',
  getQueryDefinition: 'read',
  saveQueryDefinition: 'create',
  createUser: 'create',
  createObject: 'create',
  addProperty: 'create',
  updateUser: 'update',
  moveObject: 'update',
  assignObject: 'update',
  updateProperty: 'update',
  deleteUser: 'delete',
  deleteObject: 'delete',
  deleteProperty: 'delete',
  deleteQueryDefinition: 'delete',
};

export interface CatalogAccessInput {
  readonly operation: CatalogServiceOperation;
  /** The DN of the Username header, if any. */
  readonly headerDn: string | undefined;
  /** True when no tokens are configured. */
  readonly open: boolean;
  readonly principal: Principal | undefined;
  /** Why the presented credential was refused, if it was. */
  readonly credentialProblem: string | undefined;
  /** CATALOG_ADMIN_DNS. */
  readonly adminDns: readonly string[];
}

export type CatalogAccess = { readonly granted: true; readonly dn: string | undefined; readonly admin: boolean } | { readonly granted: false; readonly reason: string };

/**
 * Who a SOAP call acts as, and whether it may (issue: credentials). Open mode trusts the
 * Username header, as XMC Cat did, and admins are CATALOG_ADMIN_DNS (everyone when empty).
 * With tokens, a token is required and needs the operation's scope; a token bound to a DN acts
 * as that DN (the header may repeat it, not change it); only a token with the `admin` scope may
 * act as any DN, and administers users along with CATALOG_ADMIN_DNS.
 */
export function catalogAccess(input: CatalogAccessInput): CatalogAccess {
  const { operation, headerDn, adminDns } = input;
  const listedAdmin = (dn: string | undefined) => dn !== undefined && adminDns.includes(dn);
  if (input.open) return { granted: true, dn: headerDn, admin: adminDns.length === 0 || listedAdmin(headerDn) };

  if (input.credentialProblem !== undefined) return { granted: false, reason: input.credentialProblem };
  const principal = input.principal;
  if (!principal) return { granted: false, reason: 'credentials are required: Authorization: Bearer <token>' };
  const scope = OPERATION_SCOPES[operation];
  if (!principal.scopes.has(scope)) return { granted: false, reason: `the credentials lack the ${scope} scope that ${operation} needs` };

  const tokenAdmin = principal.scopes.has('admin');
  if (tokenAdmin) {
    const dn = headerDn ?? principal.dn;
    return { granted: true, dn, admin: true };
  }
  if (principal.dn === undefined) {
    // A token bound to no identity may only ask what needs none.
    if (operation === 'checkStatus') return { granted: true, dn: undefined, admin: false };
    return { granted: false, reason: `token "${principal.name}" is not bound to a catalog DN` };
  }
  if (headerDn !== undefined && headerDn !== principal.dn) {
    return { granted: false, reason: `token "${principal.name}" may not act as another DN than its own` };
  }
  return { granted: true, dn: principal.dn, admin: listedAdmin(principal.dn) };
}
