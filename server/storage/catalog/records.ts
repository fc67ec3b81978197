import type { ElementRecord, ObjectContent, ObjectRecord, PropertyRecord } from './rows.js';

/** Ids per `IN (…)` list: well under every dialect's bind-parameter limit. */
export const CHUNK = 500;

export const OBJECT_COLUMNS = [
  'o.id',
  'o.guid',
  'o.class',
  'o.parent_id',
  'parent.guid as parent_guid',
  'o.owner_dn',
  'o.created_ms',
  'o.modified_ms',
  'o.content_version',
];

/** An object as OBJECT_COLUMNS read it (`o` joined to its first parent). */
export interface ObjectRow {
  id: number | string;
  guid: string;
  class: string;
  parent_id: number | string | null;
  parent_guid: string | null;
  owner_dn: string;
  created_ms: number | string;
  modified_ms: number | string;
  content_version: number | string;
}

export function objectRecord(row: ObjectRow): ObjectRecord {
  return {
    id: Number(row.id),
    guid: row.guid,
    objectClass: row.class,
    parentId: row.parent_id === null ? null : Number(row.parent_id),
    parentGuid: row.parent_guid,
    ownerDn: row.owner_dn,
    createdMs: Number(row.created_ms),
    modifiedMs: Number(row.modified_ms),
    contentVersion: Number(row.content_version),
  };
}

/** An object as a JSON row of OBJECT_COLUMNS (jsonRows). */
export type ObjectTuple = [number, string, string, number | null, string | null, string, number, number, number];

export function objectFromTuple([id, guid, objectClass, parentId, parentGuid, ownerDn, createdMs, modifiedMs, contentVersion]: ObjectTuple): ObjectRecord {
  return objectRecord({ id, guid, class: objectClass, parent_id: parentId, parent_guid: parentGuid, owner_dn: ownerDn, created_ms: createdMs, modified_ms: modifiedMs, content_version: contentVersion });
}

/** (creation time, objectId by UTF-8 bytes): the order of results (docs/catalog-operations.md). */
export function creationOrder(a: ObjectRecord, b: ObjectRecord): number {
  return a.createdMs - b.createdMs || Buffer.compare(Buffer.from(a.guid), Buffer.from(b.guid));
}

/** A property instance as a JSON row (PROPERTY_COLUMNS), and an element (ELEMENT_ROW_COLUMNS). */
export type PropertyRow = [number, number, number | null, string, string, number];
export type ElementRow = [number, number, string, string, string, boolean | number];
export const PROPERTY_COLUMNS = ['id', 'object_id', 'parent_property_id', 'name', 'source', 'position'];
export const ELEMENT_ROW_COLUMNS = ['e.property_id', 'e.ordinal', 'e.name', 'e.source', 'e.text_value', 'e.shorthand'];

export function addProperties(into: PropertyRecord[], rows: readonly PropertyRow[]): void {
  for (const [id, objectId, parentPropertyId, name, source, position] of rows) {
    into.push({ id: Number(id), objectId: Number(objectId), parentPropertyId: parentPropertyId === null ? null : Number(parentPropertyId), name, source, position: Number(position) });
  }
}

export function addElements(into: ElementRecord[], rows: readonly ElementRow[]): void {
  for (const [propertyId, ordinal, name, source, value, shorthand] of rows) into.push({ propertyId: Number(propertyId), ordinal: Number(ordinal), name, source, value, shorthand: Boolean(shorthand) });
}

/**
 * Content read in no particular order (jsonRows), put in stored order: properties by id (an
 * enclosing instance before its sub-properties), elements by property and ordinal. The rows
 * mostly come nearly in order, which the sort (TimSort) passes over in about one comparison each.
 */
export function inStoredOrder(content: ObjectContent): ObjectContent {
  content.properties.sort((a, b) => a.id - b.id);
  content.elements.sort((a, b) => a.propertyId - b.propertyId || a.ordinal - b.ordinal);
  return content;
}

/** The id an `INSERT … RETURNING id` answered (a row or the value, as each engine has it). */
export function insertedId(row: unknown): number {
  return Number(typeof row === 'object' && row !== null ? (row as { id: unknown }).id : row);
}
