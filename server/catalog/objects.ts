import { randomUUID } from 'node:crypto';
import type { CatalogCall } from './context.js';
import type { AssignObjectRequest, AssignObjectResponse, CatalogAggregationType, CatalogDataType, LastUpdateRequest, LastUpdateResponse, CreateObjectRequest, CreateObjectResponse, DeleteObjectRequest, DeleteObjectResponse, InitialObjectType, MoveObjectRequest, MoveObjectResponse, ObjectExistsRequest, ObjectExistsResponse, PropertyType } from '../../generated/soap/types.js';
import { ResourceConflict } from '../storage/errors.js';
import type { ObjectRecord, PropertyInput } from '../storage/catalog/rows.js';
import type { CatalogWrites } from '../storage/catalog/store.js';
import { enforcedDefinitions, visibleOwners, type CatalogDependencies } from './dependencies.js';
import { attemptEach } from './items.js';
import { propertyInput } from './property-data.js';
import { parentRefusal, storedClass } from './rules.js';
import { fatalStatus, ItemOutcomes, MISSING_DN, Refusal, SUCCESS } from './status.js';

/** An object placed in the tree: enough to hang children under it. */
interface Placed {
  readonly id: number;
  readonly guid: string;
  readonly objectClass: CatalogAggregationType;
  readonly ownerDn: string;
}

function placed(record: ObjectRecord): Placed {
  return { id: record.id, guid: record.guid, objectClass: storedClass(record.objectClass), ownerDn: record.ownerDn };
}

function checkParent(parent: Placed, childClass: CatalogAggregationType): void {
  const refusal = parentRefusal(parent.objectClass, childClass);
  if (refusal) throw refusal;
}

/**
 * The parent of a new or moved object owned by `owner`: the named one, or by the no-parent rule
 * (docs/catalog-interface.md) none for a PROJECT (a workspace root) and the owner's whiteboard for
 * anything else. Null means "a root".
 */
async function parentFor(w: CatalogWrites, owner: string, childClass: CatalogAggregationType, parentGuid: string | undefined): Promise<Placed | null> {
  if (parentGuid === undefined) {
    if (childClass === 'PROJECT') return null;
    const whiteboard = await w.whiteboardOf(owner);
    if (!whiteboard) throw new Refusal('WHITEBOARD_MISSING', `${owner} has no whiteboard to hold an object without parentId`);
    const parent = placed(whiteboard);
    checkParent(parent, childClass);
    return parent;
  }
  const record = await w.object(parentGuid);
  if (!record) throw new Refusal('PARENT_DOES_NOT_EXIST', `parent ${parentGuid} does not exist`);
  const parent = placed(record);
  checkParent(parent, childClass);
  if (parent.ownerDn !== owner) throw new Refusal('INVALID_OWNER', `parent ${parentGuid} belongs to another user`);
  return parent;
}

function propertyInputs(deps: CatalogDependencies, properties: readonly PropertyType[] | undefined): PropertyInput[] {
  const enforced = enforcedDefinitions(deps);
  return (properties ?? []).map((p) => propertyInput(p, enforced));
}

/** Insert an object with its initial properties, numbered per (name, source) in request order. */
async function insertWithProperties(w: CatalogWrites, object: { guid: string; objectClass: CatalogAggregationType; parent: Placed | null; ownerDn: string }, properties: readonly PropertyInput[], now: number): Promise<Placed> {
  let id: number;
  try {
    id = await w.insertObject({ guid: object.guid, objectClass: object.objectClass, parentId: object.parent?.id ?? null, ownerDn: object.ownerDn }, now);
  } catch (error) {
    if (error instanceof ResourceConflict) throw new Refusal('OBJECT_ALREADY_EXISTS', `object ${object.guid} exists already`);
    throw error;
  }
  const counts = new Map<string, number>();
  for (const property of properties) {
    const key = JSON.stringify([property.name, property.source]);
    const position = (counts.get(key) ?? 0) + 1;
    counts.set(key, position);
    await w.insertProperty(id, null, position, property);
  }
  return { id, guid: object.guid, objectClass: object.objectClass, ownerDn: object.ownerDn };
}

/** Create one object of `owner`: under `enclosing` (an initialObject tree), else by its parentId. */
export async function createObjectOf(w: CatalogWrites, deps: CatalogDependencies, owner: string, data: CatalogDataType, enclosing: Placed | undefined, now: number): Promise<Placed> {
  if (data.objectId.trim() === '') throw new Refusal('NO_GUID', 'objectId is empty');
  if (data.objectClass === 'WHITEBOARD') throw new Refusal('INVALID_OBJECT_TYPE', 'a WHITEBOARD is created only with its user');
  const properties = propertyInputs(deps, data.catalogPropertyAdd);
  if (await w.object(data.objectId)) throw new Refusal('OBJECT_ALREADY_EXISTS', `object ${data.objectId} exists already`);
  let parent: Placed | null;
  if (enclosing) {
    checkParent(enclosing, data.objectClass);
    parent = enclosing;
  } else {
    parent = await parentFor(w, owner, data.objectClass, data.parentId);
  }
  return insertWithProperties(w, { guid: data.objectId, objectClass: data.objectClass, parent, ownerDn: owner }, properties, now);
}

/** Create the user's whiteboard (from initialWorkspace/whiteboard when given) and what hangs under it. */
export async function createWhiteboard(w: CatalogWrites, deps: CatalogDependencies, owner: string, initial: InitialObjectType | undefined, now: number): Promise<void> {
  const data = initial?.catalogData;
  const guid = data ? data.objectId : `urn:uuid:${randomUUID()}`;
  if (guid.trim() === '') throw new Refusal('NO_GUID', 'the whiteboard objectId is empty');
  if (data?.parentId !== undefined) throw new Refusal('PARENT_NOT_COMPATIBLE', 'a WHITEBOARD never has a parent');
  const properties = propertyInputs(deps, data?.catalogPropertyAdd);
  if (await w.object(guid)) throw new Refusal('OBJECT_ALREADY_EXISTS', `object ${guid} exists already`);
  const whiteboard = await insertWithProperties(w, { guid, objectClass: 'WHITEBOARD', parent: null, ownerDn: owner }, properties, now);
  for (const child of initial?.initialObject ?? []) await createInitialTree(w, deps, owner, child, whiteboard, now);
}

/** An initialObject and its nested ones, each the child of its enclosing node. */
export async function createInitialTree(w: CatalogWrites, deps: CatalogDependencies, owner: string, node: InitialObjectType, enclosing: Placed | undefined, now: number): Promise<void> {
  const object = await createObjectOf(w, deps, owner, node.catalogData, enclosing, now);
  for (const child of node.initialObject ?? []) await createInitialTree(w, deps, owner, child, object, now);
}

/**
 * The new parent of a move or an assignment of `object` (owned by `owner`), with the checks of
 * docs/catalog-operations.md in their order: it exists, is not the object, does not lie inside
 * the object's subtree (the graph stays without cycles), and takes the object's class. The
 * owners' locks are held, so the cycle check and the change are one atomic step.
 */
async function newParent(w: CatalogWrites, object: ObjectRecord, parentGuid: string): Promise<Placed> {
  const record = await w.object(parentGuid);
  if (!record) throw new Refusal('PARENT_DOES_NOT_EXIST', `parent ${parentGuid} does not exist`);
  if (record.id === object.id) throw new Refusal('SELF_PARENT_NOT_ALLOWED', `${object.guid} cannot be its own parent`);
  if (await w.inSubtree(object.id, record.id)) throw new Refusal('NO_CIRCULAR_OWNERSHIP', `${parentGuid} lies below ${object.guid}`);
  const parent = placed(record);
  checkParent(parent, storedClass(object.objectClass));
  return parent;
}

/**
 * Move an object the caller owns (checked by the caller: check 1) under `parentGuid`: it leaves
 * every parent it had. With `newOwner` the subtree changes owner, which an object of it that also
 * hangs outside it would not allow (its other parent stays with the old owner).
 */
async function moveChecked(w: CatalogWrites, caller: string, object: ObjectRecord, parentGuid: string, newOwner: string | undefined, now: number): Promise<void> {
  if (object.objectClass === 'WHITEBOARD') throw new Refusal('CANNOT_MOVE_WHITEBOARD', `${object.guid} is a whiteboard`);
  const parent = await newParent(w, object, parentGuid);
  const owner = newOwner ?? caller;
  if (newOwner !== undefined && !(await w.userExists(newOwner))) throw new Refusal('DN_DOES_NOT_EXIST', `user ${newOwner} does not exist`);
  if (parent.ownerDn !== owner) throw new Refusal('INVALID_OWNER', `parent ${parent.guid} is not owned by ${owner}`);
  if (newOwner !== undefined && newOwner !== object.ownerDn) {
    const [shared] = await w.sharedWithOutside(object.id);
    if (shared !== undefined) throw new Refusal('INVALID_OWNER', `an object below ${object.guid} also hangs under an object outside it, which stays with ${object.ownerDn}`);
  }
  await w.move(object.id, parent.id, newOwner, now);
}

/**
 * Attach an object the caller owns under one more parent (`parentGuid`, or by the no-parent rule
 * the owner's whiteboard, or nothing for a PROJECT). Already one of its parents: nothing changes.
 */
async function assignChecked(w: CatalogWrites, caller: string, object: ObjectRecord, parentGuid: string | undefined, now: number): Promise<void> {
  const objectClass = storedClass(object.objectClass);
  if (objectClass === 'WHITEBOARD') throw new Refusal('PARENT_NOT_COMPATIBLE', `${object.guid} is a whiteboard, which never has a parent`);
  let parent: Placed | null;
  if (parentGuid === undefined) parent = await parentFor(w, caller, objectClass, undefined);
  else {
    parent = await newParent(w, object, parentGuid);
    if (parent.ownerDn !== caller) throw new Refusal('INVALID_OWNER', `parent ${parent.guid} belongs to another user`);
  }
  if (parent === null || (await w.parentsOf(object.id)).includes(parent.id)) return;
  await w.link(parent.id, object.id);
  await w.touch(object.id, now);
}

export async function createObject(deps: CatalogDependencies, request: CreateObjectRequest, call: CatalogCall): Promise<CreateObjectResponse> {
  const delivery = request.errorDeliveryMethod;
  const dn = call.dn;
  if (dn === undefined) return { catalogOperationStatus: fatalStatus('createObject', delivery, [MISSING_DN]) };
  const now = deps.now();
  return deps.store.write([dn], async (w) => {
    if (!(await w.userExists(dn))) {
      return { catalogOperationStatus: fatalStatus('createObject', delivery, [{ cause: 'DN_DOES_NOT_EXIST', description: `user ${dn} does not exist` }]) };
    }
    const outcomes = new ItemOutcomes('createObject', delivery);
    await attemptEach(w, outcomes, request.catalogData, (data, i) => `catalogData[${i + 1}] (objectId ${data.objectId})`, async (item, data) => {
      if (data.objectId.trim() === '') throw new Refusal('NO_GUID', 'objectId is empty');
      const existing = await item.object(data.objectId);
      if (existing && request.assignIfExists === true && existing.ownerDn === dn) {
        // The existing object gets this parent as well (assignObject's counterpart).
        await assignChecked(item, dn, existing, data.parentId, now);
        return;
      }
      await createObjectOf(item, deps, dn, data, undefined, now);
    });
    return { catalogOperationStatus: outcomes.status() };
  });
}

/**
 * Deletes each object with what hangs only below it: an object of its subtree that also hangs
 * under an object outside the subtree stays, losing only its links from the deleted objects.
 */
export async function deleteObject(deps: CatalogDependencies, request: DeleteObjectRequest, call: CatalogCall): Promise<DeleteObjectResponse> {
  const delivery = request.errorDeliveryMethod;
  const dn = call.dn;
  if (dn === undefined) return { catalogOperationStatus: fatalStatus('deleteObject', delivery, [MISSING_DN]) };
  return deps.store.write([dn], async (w) => {
    const outcomes = new ItemOutcomes('deleteObject', delivery);
    await attemptEach(w, outcomes, request.objectId, (guid, i) => `objectId[${i + 1}] (${guid})`, async (item, guid) => {
      const object = await item.object(guid);
      if (!object || object.ownerDn !== dn) throw new Refusal('OBJECT_DOES_NOT_EXIST', `no object ${guid} of ${dn}`);
      if (object.objectClass === 'WHITEBOARD') throw new Refusal('CANNOT_DELETE_WHITEBOARD', `${guid} is a whiteboard`);
      await item.deleteSubtree(object.id);
    });
    return { catalogOperationStatus: outcomes.status() };
  });
}

export async function moveObject(deps: CatalogDependencies, request: MoveObjectRequest, call: CatalogCall): Promise<MoveObjectResponse> {
  const delivery = request.errorDeliveryMethod;
  const dn = call.dn;
  if (dn === undefined) return { catalogOperationStatus: fatalStatus('moveObject', delivery, [MISSING_DN]) };
  const newOwner = request.newUserId?.trim();
  try {
    await deps.store.write(newOwner ? [dn, newOwner] : [dn], async (w) => {
      const object = await w.object(request.objectId);
      if (!object || object.ownerDn !== dn) throw new Refusal('OBJECT_MISSING', `no object ${request.objectId} of ${dn}`);
      await moveChecked(w, dn, object, request.parentId, newOwner || undefined, deps.now());
    });
    return { catalogOperationStatus: SUCCESS };
  } catch (error) {
    if (error instanceof Refusal) return { catalogOperationStatus: fatalStatus('moveObject', delivery, [error]) };
    throw error;
  }
}

/** `assignObject`: the object hangs under `parentId` as well as under the parents it has. */
export async function assignObject(deps: CatalogDependencies, request: AssignObjectRequest, call: CatalogCall): Promise<AssignObjectResponse> {
  const delivery = request.errorDeliveryMethod;
  const dn = call.dn;
  if (dn === undefined) return { catalogOperationStatus: fatalStatus('assignObject', delivery, [MISSING_DN]) };
  try {
    await deps.store.write([dn], async (w) => {
      const object = await w.object(request.objectId);
      if (!object || object.ownerDn !== dn) throw new Refusal('OBJECT_MISSING', `no object ${request.objectId} of ${dn}`);
      await assignChecked(w, dn, object, request.parentId, deps.now());
    });
    return { catalogOperationStatus: SUCCESS };
  } catch (error) {
    if (error instanceof Refusal) return { catalogOperationStatus: fatalStatus('assignObject', delivery, [error]) };
    throw error;
  }
}

/** `lastUpdate`: when an object the caller may see last changed (its modificationDate). */
export async function lastUpdate(deps: CatalogDependencies, request: LastUpdateRequest, call: CatalogCall): Promise<LastUpdateResponse> {
  const delivery = request.errorDeliveryMethod;
  const dn = call.dn;
  if (dn === undefined) return { lastUpdated: 0, catalogOperationStatus: fatalStatus('lastUpdate', delivery, [MISSING_DN]) };
  const owners = visibleOwners(deps.policy, dn);
  const object = await deps.store.read((r) => r.object(request.objectId));
  if (!object || !owners.includes(object.ownerDn)) {
    return { lastUpdated: 0, catalogOperationStatus: fatalStatus('lastUpdate', delivery, [{ cause: 'OBJECT_DOES_NOT_EXIST', description: `no object ${request.objectId} visible to ${dn}` }]) };
  }
  return { lastUpdated: object.modifiedMs, catalogOperationStatus: SUCCESS };
}

/** Existence anywhere, whoever owns it: objectIds are global and clients avoid collisions with it. */
export async function objectExists(deps: CatalogDependencies, request: ObjectExistsRequest, call: CatalogCall): Promise<ObjectExistsResponse> {
  if (call.dn === undefined) return { catalogOperationStatus: fatalStatus('objectExists', request.errorDeliveryMethod, [MISSING_DN]), objectExists: false };
  const exists = await deps.store.read(async (r) => (await r.object(request.objectId)) !== undefined);
  return { catalogOperationStatus: SUCCESS, objectExists: exists };
}
