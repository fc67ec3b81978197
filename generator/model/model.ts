/**
 * The intermediate model: the one description of the service that every emitter reads.
 *
 * Both interfaces feed it. JSON Schemas become `kinds` (REST resources) and their six
 * operations; the WSDL (see load/wsdl.ts) adds its own message types and operations. Emitters
 * never look at schema files or WSDL directly, so a new protocol detail is added here once and
 * every artifact (types, validators, routes, SDKs, API description) can follow it.
 */

import type { ProjectInfo } from '../load/project.js';
import type { JsonSchema, SchemaDocument } from '../load/schemas.js';
import type { ErrorStatus, HttpContract, RestAction } from './http.js';
import type { References } from './refs.js';
import type { SoapService } from './xml.js';

export type { JsonSchema, SchemaDocument } from '../load/schemas.js';

/** Scalar and container types a field can have, as far as the schema says. */
export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'unknown';

/**
 * One addressable field of a kind, in the dot notation of the query language.
 * `arrays` lists the segment positions whose value is an array, so that `hops.href` can be
 * compared element by element (UNIS's Mongo semantics) instead of as one value.
 */
export interface Field {
  readonly path: string;
  readonly type: FieldType;
  readonly arrays: readonly number[];
  /** Marked `x-index`: the storage keeps an index on it. */
  readonly indexed: boolean;
}

/** A top-level reference array whose items a POST may give as whole resources (composite insert). */
export interface Embed {
  /** The array property, e.g. `nodes`. */
  readonly property: string;
  /** Slug of the kind its embedded resources are, unless their `$schema` names another. */
  readonly kind: string;
}

/** A resource kind served as a REST collection. */
export interface Kind extends SchemaDocument {
  /** Display name, e.g. `Node`. */
  readonly name: string;
  /** The `x-collection` annotation, e.g. `nodes`. */
  readonly collection: string;
  /** True when the schema forbids fields it does not name (Metadata). */
  readonly closed: boolean;
  /** Every field the schema names, sorted by path. */
  readonly fields: readonly Field[];
  /** Reference arrays that may embed whole resources (`x-embed`), sorted by property. */
  readonly embeds: readonly Embed[];
  /** Documents this kind's schema refers to, directly or not (slugs, sorted). */
  readonly dependencies: readonly string[];
}

export type { RestAction } from './http.js';

/** An operation of either protocol. */
export interface Operation {
  /** Unique name, e.g. `createNode` or `checkStatus`. */
  readonly name: string;
  readonly summary: string;
  readonly rest?: {
    readonly kind: string;
    readonly action: RestAction;
    readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
    /** Path template in OpenAPI form, e.g. `/nodes/{id}`. */
    readonly path: string;
  };
  readonly soap?: SoapBinding;
}

/** How a SOAP operation appears on the wire; the message types live in `Model.soap`. */
export interface SoapBinding {
  readonly action: string;
  /** Local names of the request and response elements in the types namespace. */
  readonly requestElement: string;
  readonly responseElement: string;
}

/** The REST side of the model, built from the schemas. */
export interface RestModel {
  /** Canonical schema base shared by every `$id`, e.g. `https://topocat.dev/schema/20120709`. */
  readonly schemaBase: string;
  /** The version segment of the schema base (`20120709`). */
  readonly schemaVersion: string;
  /** Every schema document, kinds and shared definitions alike, sorted by slug. */
  readonly documents: readonly SchemaDocument[];
  /** Every `$ref` of those documents, resolved. */
  readonly refs: References;
  /** REST kinds, sorted by slug. */
  readonly kinds: readonly Kind[];
  /** Every operation of every protocol, in a stable order: REST first, then SOAP. */
  readonly operations: readonly Operation[];
  /** The error answers of the HTTP interface: statuses, client exception classes, body shape. */
  readonly errors: { readonly statuses: readonly ErrorStatus[]; readonly body: JsonSchema };
  /** The rest of the HTTP contract: media types, the server's own paths, each action's statuses. */
  readonly http: HttpContract;
}

export interface Model extends RestModel {
  /** Version, licence and dependency ranges of the project, for the SDK packages. */
  readonly project: ProjectInfo;
  /** The SOAP service of `wsdl/`, with its message types; absent when there is no WSDL. */
  readonly soap?: SoapService;
}
