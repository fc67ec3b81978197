/**
 * The kinds whose resources the server stores: the schemas' and those of the collections it owns
 * that have one. A leaf (it imports no layer of the server), so that what renders, checks, imports
 * or exports stored resources (wire/, schema-check/, unis/, serve.ts) reads the list without the
 * routes that serve it (server/collections.ts, which mounts them).
 */
import { SERVER_COLLECTIONS, type ServerCollection } from '../../generated/rest/contract.js';
import type { KindDescriptor } from '../../generated/rest/handler.js';
import { kinds } from '../../generated/rest/kinds.js';
import { registerKind } from './register-kind.js';

/**
 * The kind of each collection the server owns that the REST operations serve as the schemas'
 * kinds are; server/collections.ts mounts routes of their own for the others, and its table of
 * them is typed over the collections left out here, so each is bound once.
 */
export const SERVER_COLLECTION_KINDS = {
  register: registerKind,
} as const satisfies { readonly [C in ServerCollection]?: KindDescriptor };

/** A collection the server owns whose resources are stored as a kind's. */
export type KindCollection = keyof typeof SERVER_COLLECTION_KINDS;

export function hasKind(collection: ServerCollection): collection is KindCollection {
  return Object.hasOwn(SERVER_COLLECTION_KINDS, collection);
}

for (const [collection, kind] of Object.entries(SERVER_COLLECTION_KINDS)) {
  if (kind.collection !== collection) throw new Error(`the kind bound to /${collection} serves /${kind.collection}`);
}

/** The kinds whose resources the server stores: the schemas', then the server's collections' in the contract table's order. */
export const storedKinds: readonly KindDescriptor[] = [...kinds, ...SERVER_COLLECTIONS.flatMap((c) => (hasKind(c) ? [SERVER_COLLECTION_KINDS[c]] : []))];
