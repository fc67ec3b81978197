/**
 * The collections the server owns (`/events`, `/data`, `/register`): the one list of them is the
 * generator's HTTP contract table (generator/model/http.ts `SERVER_COLLECTIONS`, emitted into
 * generated/rest/contract.ts), from which the OpenAPI description describes them too; here each
 * is bound to how it is served, in the list's order. One with a kind (kinds/stored-kinds.ts) is
 * served by the REST operations as the schemas' kinds are, and its kind is stored, rendered and
 * checked with theirs (`storedKinds`); the others mount routes of their own.
 */
import type { Router } from '@koa/router';
import { SERVER_COLLECTIONS, type ServerCollection } from '../generated/rest/contract.js';
import type { KindDescriptor, RestHandlers } from '../generated/rest/handler.js';
import { hasKind, SERVER_COLLECTION_KINDS, type KindCollection } from './kinds/stored-kinds.js';
import { mountData, mountSeries, type MeasurementContext } from './measurements/routes.js';
import type { KeyedKind } from './rest/keyed.js';
import { mountKindRoutes } from './rest/kind-routes.js';

/** What the routes of the server's collections are made with. */
export interface ServerCollectionParts {
  /** The REST operations, for the collections of a kind. */
  readonly handlers: RestHandlers;
  readonly measurements: MeasurementContext;
}

/** The kinds of the server's collections, as the REST operations take them: registrations are keyed by accessPoint, the operations derive their ids (rest/keyed.ts). */
const KINDS: { readonly [C in KindCollection]: KindDescriptor } & { readonly register: KeyedKind } = SERVER_COLLECTION_KINDS;

/** Every collection of the list without a kind must be mounted (a mapped type over them), and nothing else. */
const MOUNTS: { readonly [C in Exclude<ServerCollection, KindCollection>]: (router: Router, parts: ServerCollectionParts) => void } = {
  events: (router, { measurements }) => mountSeries(router, measurements),
  data: (router, { measurements }) => mountData(router, measurements),
};

/** The routes of the collections the server owns. */
export function mountServerCollections(router: Router, parts: ServerCollectionParts): void {
  for (const collection of SERVER_COLLECTIONS) {
    if (hasKind(collection)) mountKindRoutes(router, parts.handlers, KINDS[collection]);
    else MOUNTS[collection](router, parts);
  }
}
