import type { CatalogStore } from '../storage/catalog/store.js';
import type { Definitions } from './definitions.js';

/** Who may do what beyond ownership (catalog-contract §4.0). */
export interface CatalogPolicy {
  /** DNs that may create, update and delete other users; empty: anyone may. */
  readonly adminDns: readonly string[];
  /** DNs whose objects every caller may read. */
  readonly publicDns: readonly string[];
  /** Added and updated properties must follow the definitions. */
  readonly enforceDefinitions: boolean;
}

/** What the operations work with. */
export interface CatalogDependencies {
  readonly store: CatalogStore;
  readonly definitions: Definitions;
  readonly policy: CatalogPolicy;
  /** Epoch milliseconds; creation and modification times and query timestamps. */
  readonly now: () => number;
  /** checkStatus statistics. */
  readonly version: string;
  readonly startTime: number;
}

/** The DN may act on users other than itself. */
export function isAdmin(policy: CatalogPolicy, dn: string): boolean {
  return policy.adminDns.length === 0 || policy.adminDns.includes(dn);
}

/** Owners whose objects `dn` sees: its own and the public DNs'. */
export function visibleOwners(policy: CatalogPolicy, dn: string): string[] {
  return [...new Set([dn, ...policy.publicDns])];
}

/** The definitions to enforce, when enforcement is on. */
export function enforcedDefinitions(deps: CatalogDependencies): Definitions | undefined {
  return deps.policy.enforceDefinitions ? deps.definitions : undefined;
}
