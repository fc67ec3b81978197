import type { CatalogStore } from '../storage/catalog/store.js';
import type { Definitions } from './definitions.js';
import type { PropertyTreeCache } from './property-trees.js';

/** Who may see what beyond ownership (docs/catalog-interface.md); who administers is soap/access.ts's. */
export interface CatalogPolicy {
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
  /** The property trees results showed, by content version (CATALOG_CACHE_MB). */
  readonly trees: PropertyTreeCache;
  /** Epoch milliseconds; creation and modification times and query timestamps. */
  readonly now: () => number;
  /** checkStatus statistics. */
  readonly version: string;
  readonly startTime: number;
}

/** Owners whose objects `dn` sees: its own and the public DNs'. */
export function visibleOwners(policy: CatalogPolicy, dn: string): string[] {
  return [...new Set([dn, ...policy.publicDns])];
}

/** The definitions to enforce, when enforcement is on. */
export function enforcedDefinitions(deps: CatalogDependencies): Definitions | undefined {
  return deps.policy.enforceDefinitions ? deps.definitions : undefined;
}
