import type { CatalogAggregationType } from '../../generated/soap/types.js';
import { Refusal } from './status.js';

/** Hierarchy levels of the object classes (docs/catalog-interface.md); internal, never sent. */
const LEVELS: Readonly<Record<CatalogAggregationType, number>> = {
  WHITEBOARD: 0,
  PROJECT: 1,
  EXPERIMENT: 2,
  COLLECTION: 3,
  DATAPRODUCT: 3,
  FILE: 4,
};

export function isObjectClass(value: string): value is CatalogAggregationType {
  return Object.hasOwn(LEVELS, value);
}

/**
 * Why an object of class `child` may not sit under one of class `parent`, or undefined when it
 * may: a whiteboard takes anything but a whiteboard, a COLLECTION takes COLLECTIONs, otherwise
 * the parent's level must be above the child's; a FILE has no children and a WHITEBOARD no
 * parent. Ownership of the parent is checked by the caller.
 */
export function parentRefusal(parent: CatalogAggregationType, child: CatalogAggregationType): Refusal | undefined {
  if (child === 'WHITEBOARD') return new Refusal('PARENT_NOT_COMPATIBLE', 'a WHITEBOARD never has a parent');
  if (parent === 'FILE') return new Refusal('PARENT_NOT_COMPATIBLE', 'a FILE cannot have children');
  if (parent === 'WHITEBOARD') return undefined;
  if (parent === 'COLLECTION' && child === 'COLLECTION') return undefined;
  if (LEVELS[parent] < LEVELS[child]) return undefined;
  if (LEVELS[parent] > LEVELS[child]) return new Refusal('PARENT_BELOW_CHILD_LEVEL', `a ${parent} sits below a ${child} in the hierarchy and cannot be its parent`);
  return new Refusal('PARENT_NOT_COMPATIBLE', `a ${child} cannot be placed under a ${parent}`);
}

/** Stored classes come from this code only, so anything else is a corrupted row. */
export function storedClass(value: string): CatalogAggregationType {
  if (!isObjectClass(value)) throw new Error(`stored object class "${value}" is not a catalogAggregationType`);
  return value;
}
