import { randomUUID } from 'node:crypto';
import type { CatalogCall } from './context.js';
import type { CatalogAggregationType, CatalogDataType, CreateObjectRequest, CreateObjectResponse, DeleteObjectRequest, DeleteObjectResponse, InitialObjectType, MoveObjectRequest, MoveObjectResponse, ObjectExistsRequest, ObjectExistsResponse, PropertyType } from '../../generated/soap/types.js';
import { ResourceConflict } from '../storage/errors.js';
import type { ObjectRecord, PropertyInput } from '../storage/catalog/rows.js';
import type { CatalogWrites } from '../storage/catalog/store.js';
import { enforcedDefinitions, type CatalogDependencies } from './dependencies.js';
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
 * Move an object the caller owns (checked by the caller: check 1) under `parentGuid`, with the
 * checks of docs/catalog-operations.md #10 in their order, then the ownership of the new parent.
 * The owners' locks are held, so the cycle check and the move are one atomic step.
 */
async function moveChecked(w: CatalogWrites, caller: string, object: ObjectRecord, parentGuid: string | undefined, newOwner: string | undefined, now: number): Promise<void> {
  const moved = placed(object);
  if (moved.objectClass === 'WHITEBOARD') throw new Refusal('CANNOT_MOVE_WHITEBOARD', `${object.guid} is a whiteboard`);
  const owner = newOwner ?? caller;
  let parent: Placed | null;
  if (parentGuid === undefined) {
    parent = await parentFor(w, owner, moved.objectClass, undefined);
  } else {
    const record = await w.object(parentGuid);
    if (!record) throw new Refusal('PARENT_DOES_NOT_EXIST', `parent ${parentGuid} does not exist`);
    if (record.id === object.id) throw new Refusal('SELF_PARENT_NOT_ALLOWED', `${object.guid} cannot be its own parent`);
    if (await w.inSubtree(object.id, record.id)) throw new Refusal('NO_CIRCULAR_OWNERSHIP', `${parentGuid} lies inside the subtree of ${object.guid}`);
    parent = placed(record);
    checkParent(parent, moved.objectClass);
  }
  if (newOwner !== undefined && !(await w.userExists(newOwner))) throw new Refusal('DN_DOES_NOT_EXIST', `user ${newOwner} does not exist`);
  if (parent && parent.ownerDn !== owner) throw new Refusal('INVALID_OWNER', `parent ${parent.guid} is not owned by ${owner}`);
  await w.move(object.id, parent?.id ?? null, newOwner, now);
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
        // Single parent only (docs/catalog-interface.md): assigning an existing object moves it.
        await moveChecked(item, dn, existing, data.parentId, undefined, now);
        return;
      }
      await createObjectOf(item, deps, dn, data, undefined, now);
    });
    return { catalogOperationStatus: outcomes.status() };
  });
}

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

/** Existence anywhere, whoever owns it: objectIds are global and clients avoid collisions with it. */
export async function objectExists(deps: CatalogDependencies, request: ObjectExistsRequest, call: CatalogCall): Promise<ObjectExistsResponse> {
  if (call.dn === undefined) return { catalogOperationStatus: fatalStatus('objectExists', request.errorDeliveryMethod, [MISSING_DN]), objectExists: false };
  const exists = await deps.store.read(async (r) => (await r.object(request.objectId)) !== undefined);
  return { catalogOperationStatus: SUCCESS, objectExists: exists };
}
