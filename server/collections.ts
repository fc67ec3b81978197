/**
 * The collections the server owns (`/events`, `/data`, `/register`): the one list of them is the
 * generator's HTTP contract table (generator/model/http.ts `SERVER_COLLECTIONS`, emitted into
 * generated/rest/contract.ts), from which the OpenAPI description describes them too; here each
 * is bound to how it is served, in the list's order. One with a kind is served by the REST
 * operations as the schemas' kinds are, and its kind is stored, rendered and checked with theirs
 * (`storedKinds`); the others mount routes of their own.
 */
import type { Router } from '@koa/router';
import { SERVER_COLLECTIONS, type ServerCollection } from '../generated/rest/contract.js';
import type { KindDescriptor, RestHandlers } from '../generated/rest/handler.js';
import { kinds } from '../generated/rest/kinds.js';
import { registerKind } from './federation/register-kind.js';
import { mountData, mountSeries, type MeasurementContext } from './measurements/routes.js';
import type { KeyedKind } from './rest/keyed.js';
import { mountKindRoutes } from './rest/kind-routes.js';

/** What the routes of the server's collections are made with. */
export interface ServerCollectionParts {
  /** The REST operations, for the collections of a kind. */
  readonly handlers: RestHandlers;
  readonly measurements: MeasurementContext;
}

type Binding = { readonly kind: KindDescriptor } | { readonly mount: (router: Router, parts: ServerCollectionParts) => void };

/** Registrations are keyed by accessPoint: the REST operations derive their ids (rest/keyed.ts). */
const register: KeyedKind = registerKind;

/** Every collection of the list must be bound (a mapped type over it), and nothing else. */
const BINDINGS: { readonly [C in ServerCollection]: Binding } = {
  events: { mount: (router, { measurements }) => mountSeries(router, measurements) },
  data: { mount: (router, { measurements }) => mountData(router, measurements) },
  register: { kind: register },
};

const bound = SERVER_COLLECTIONS.map((collection) => {
  const binding = BINDINGS[collection];
  if ('kind' in binding && binding.kind.collection !== collection) throw new Error(`the kind bound to /${collection} serves /${binding.kind.collection}`);
  return binding;
});

/** The kinds whose resources the server stores: the schemas' and those of the collections it owns. */
export const storedKinds: readonly KindDescriptor[] = [...kinds, ...bound.flatMap((b) => ('kind' in b ? [b.kind] : []))];

/** The routes of the collections the server owns. */
export function mountServerCollections(router: Router, parts: ServerCollectionParts): void {
  for (const binding of bound) {
    if ('kind' in binding) mountKindRoutes(router, parts.handlers, binding.kind);
    else binding.mount(router, parts);
  }
}
