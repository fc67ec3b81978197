import type { RouterMiddleware } from '@koa/router';
import type { Validator } from '../../generated/validators/index.js';

/** What the schema says about one field, in the dot notation of the query language. */
export interface FieldInfo {
  readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'unknown';
  /** Segment positions whose value is an array; a condition compares the elements. */
  readonly arrays: readonly number[];
}

/** Everything the server needs to know about a kind, without reading its schema. */
export interface KindDescriptor<T = unknown> {
  /** Display name, e.g. "Node". */
  readonly name: string;
  /** Schema file name, e.g. "node"; also the last segment of the schema address. */
  readonly slug: string;
  /** Collection path segment, e.g. "nodes". */
  readonly collection: string;
  /** Canonical `$id` of the kind's schema. */
  readonly schemaId: string;
  /** True when the kind accepts only the fields its schema names. */
  readonly closed: boolean;
  /** Fields the storage indexes (`x-index`). */
  readonly indexes: readonly string[];
  /**
   * Reference arrays a POST may fill with whole resources (`x-embed`, composite insert): the
   * array property → the slug of the kind its embedded resources are unless their `$schema` says.
   */
  readonly embeds: Readonly<Record<string, string>>;
  readonly fields: Readonly<Record<string, FieldInfo>>;
  readonly validate: Validator<T>;
}

/**
 * The six operations of a collection, implemented by the server. Generated routes only bind
 * paths and methods to these; all behaviour lives behind this interface.
 */
export interface RestHandlers {
  create<T>(kind: KindDescriptor<T>): RouterMiddleware;
  list<T>(kind: KindDescriptor<T>): RouterMiddleware;
  read<T>(kind: KindDescriptor<T>): RouterMiddleware;
  replace<T>(kind: KindDescriptor<T>): RouterMiddleware;
  patch<T>(kind: KindDescriptor<T>): RouterMiddleware;
  remove<T>(kind: KindDescriptor<T>): RouterMiddleware;
}
