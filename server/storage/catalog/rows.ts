import type { ContactColumn } from './tables.js';

/** A user as stored: the DN and whichever contact fields are set. */
export interface UserRecord {
  readonly dn: string;
  readonly contact: Readonly<Partial<Record<ContactColumn, string>>>;
}

/** An object as queries and checks read it. */
export interface ObjectRecord {
  /** Internal key. */
  readonly id: number;
  /** The client's objectId. */
  readonly guid: string;
  readonly objectClass: string;
  /** The first of its parents (the one it was created or moved under), null for a root. */
  readonly parentId: number | null;
  readonly parentGuid: string | null;
  readonly ownerDn: string;
  readonly createdMs: number;
  readonly modifiedMs: number;
  /**
   * Moves with every change of what the object holds (GraphWrites.touch, in the changing
   * transaction) and never goes back; ids are never used twice. So (id, contentVersion) names
   * one content for the database's life: a reader may keep what it rendered under it.
   */
  readonly contentVersion: number;
}

/** One edge of the graph of objects: `childId` hangs under `parentId`. */
export interface Link {
  readonly parentId: number;
  readonly childId: number;
}

/** A leaf value to store. */
export interface ElementInput {
  readonly name: string;
  readonly source: string;
  readonly value: string;
  /** The property's `value` shorthand rather than an `element`. */
  readonly shorthand: boolean;
}

/** A property instance to store, with its sub-properties. */
export interface PropertyInput {
  readonly name: string;
  readonly source: string;
  readonly elements: readonly ElementInput[];
  readonly properties: readonly PropertyInput[];
}

/** A stored property instance (flat; `parentPropertyId` rebuilds the tree). */
export interface PropertyRecord {
  readonly id: number;
  readonly objectId: number;
  readonly parentPropertyId: number | null;
  readonly name: string;
  readonly source: string;
  readonly position: number;
}

export interface ElementRecord {
  readonly propertyId: number;
  /** Its place among its property's elements, from 1. */
  readonly ordinal: number;
  readonly name: string;
  readonly source: string;
  readonly value: string;
  readonly shorthand: boolean;
}

/** Every property instance (top-level and nested) and element of some objects, in stored order. */
export interface ObjectContent {
  readonly properties: PropertyRecord[];
  readonly elements: ElementRecord[];
}

/** A top-level instance of one (name, source) on an object. */
export interface InstanceRecord {
  readonly id: number;
  readonly position: number;
}

/** A saved query definition; `definition` is its queryDefinition element as XML text. */
export interface QueryDefinitionRecord {
  readonly queryId: string;
  readonly ownerDn: string;
  readonly title: string;
  readonly description: string;
  readonly public: boolean;
  readonly definition: string;
}
