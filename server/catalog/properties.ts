import type { AddPropertyRequest, AddPropertyResponse, DeletePropertyRequest, DeletePropertyResponse, DeletePropertyType, UpdatePropertyRequest, UpdatePropertyResponse } from '../../generated/soap/types.js';
import type { InstanceRecord, ObjectRecord } from '../storage/catalog/rows.js';
import type { CatalogWrites } from '../storage/catalog/store.js';
import type { CatalogCall } from './context.js';
import { enforcedDefinitions, type CatalogDependencies } from './dependencies.js';
import { attemptEach } from './items.js';
import { propertyInput } from './property-data.js';
import { fatalStatus, ItemOutcomes, MISSING_DN, Refusal, SUCCESS } from './status.js';

/** An object the caller may change; anything else does not exist as far as mutations go. */
async function ownedObject(w: CatalogWrites, guid: string, dn: string): Promise<ObjectRecord> {
  const object = await w.object(guid);
  if (!object || object.ownerDn !== dn) throw new Refusal('OBJECT_DOES_NOT_EXIST', `no object ${guid} of ${dn}`);
  return object;
}

/** Each catalogProperty (one object, its new instances) is one item; each instance is appended. */
export async function addProperty(deps: CatalogDependencies, request: AddPropertyRequest, call: CatalogCall): Promise<AddPropertyResponse> {
  const delivery = request.errorDeliveryMethod;
  const dn = call.dn;
  if (dn === undefined) return { catalogOperationStatus: fatalStatus('addProperty', delivery, [MISSING_DN]) };
  const enforced = enforcedDefinitions(deps);
  const now = deps.now();
  return deps.store.write([dn], async (w) => {
    const outcomes = new ItemOutcomes('addProperty', delivery);
    await attemptEach(w, outcomes, request.catalogProperty, (p, i) => `catalogProperty[${i + 1}] (objectId ${p.objectId})`, async (item, added) => {
      const object = await ownedObject(item, added.objectId, dn);
      const inputs = added.catalogPropertyAdd.map((p) => propertyInput(p, enforced));
      for (const input of inputs) {
        const position = (await item.instances(object.id, input.name, input.source)).length + 1;
        await item.insertProperty(object.id, null, position, input);
      }
      await item.touch(object.id, now);
    });
    return { catalogOperationStatus: outcomes.status() };
  });
}

/** Replace one instance of (name, source) whole, keeping its position. */
export async function updateProperty(deps: CatalogDependencies, request: UpdatePropertyRequest, call: CatalogCall): Promise<UpdatePropertyResponse> {
  const delivery = request.errorDeliveryMethod;
  const dn = call.dn;
  if (dn === undefined) return { catalogOperationStatus: fatalStatus('updateProperty', delivery, [MISSING_DN]) };
  const update = request.updateProperty;
  const property = update.catalogPropertyUpdate;
  const label = `property ${property.name} (source ${property.source}) of ${update.objectId}`;
  try {
    await deps.store.write([dn], async (w) => {
      const object = await ownedObject(w, update.objectId, dn);
      const input = propertyInput(property, enforcedDefinitions(deps));
      const instances = await w.instances(object.id, property.name, property.source);
      if (instances.length === 0) throw new Refusal('PROPERTY_HAS_NO_INSTANCE', `${label} has no instance to update`);
      let instance: InstanceRecord;
      if (update.position === undefined) {
        if (instances.length > 1) throw new Refusal('NO_UPDATE_POSITION', `${label} has ${instances.length} instances; say which with position`);
        instance = instances[0]!;
      } else {
        if (update.position < 1 || update.position > instances.length) {
          throw new Refusal('UPDATE_POSITION_EXCEEDS_CARDINALITY', `position ${update.position} is outside 1…${instances.length} of ${label}`);
        }
        instance = instances[update.position - 1]!;
      }
      if (update.lastUpdate !== undefined && object.modifiedMs > update.lastUpdate) {
        throw new Refusal('PROPERTY_UPDATE_TIMESTAMP', `${update.objectId} changed at ${object.modifiedMs}, after lastUpdate ${update.lastUpdate}`);
      }
      await w.replacePropertyContent(object.id, instance.id, input);
      await w.touch(object.id, deps.now());
    });
    return { catalogOperationStatus: SUCCESS };
  } catch (error) {
    if (error instanceof Refusal) return { catalogOperationStatus: fatalStatus('updateProperty', delivery, [error]) };
    throw error;
  }
}

/** Which instances a deleteProperty names (docs/catalog-operations.md #14). */
function instancesToDelete(request: DeletePropertyType, instances: readonly InstanceRecord[], label: string): InstanceRecord[] {
  const count = instances.length;
  if (request.propertyRange) {
    const { first, last } = request.propertyRange;
    if (first > last || first < 1) throw new Refusal('INVALID_DELETE_RANGE', `range ${first}…${last} of ${label} is not a range of positions`);
    if (last > count) throw new Refusal('DELETE_RANGE_EXCEEDS_CARDINALITY', `range ${first}…${last} exceeds the ${count} instances of ${label}`);
    return instances.slice(first - 1, last);
  }
  const positions = [...new Set(request.position ?? [])];
  if (positions.length === 0) {
    if (count > 1) throw new Refusal('NO_DELETE_POSITION', `${label} has ${count} instances; say which with position or propertyRange`);
    return [...instances];
  }
  const outside = positions.find((p) => p < 1 || p > count);
  if (outside !== undefined) throw new Refusal('INVALID_DELETE_POSITION', `position ${outside} is outside 1…${count} of ${label}`);
  return positions.map((p) => instances[p - 1]!);
}

export async function deleteProperty(deps: CatalogDependencies, request: DeletePropertyRequest, call: CatalogCall): Promise<DeletePropertyResponse> {
  const delivery = request.errorDeliveryMethod;
  const dn = call.dn;
  if (dn === undefined) return { catalogOperationStatus: fatalStatus('deleteProperty', delivery, [MISSING_DN]) };
  const target = request.deleteProperty;
  const label = `property ${target.propertyName} (source ${target.propertySource}) of ${target.objectId}`;
  try {
    await deps.store.write([dn], async (w) => {
      const object = await ownedObject(w, target.objectId, dn);
      if (object.objectClass === 'WHITEBOARD') throw new Refusal('CANNOT_DELETE_WHITEBOARD_PROPERTIES', `${target.objectId} is a whiteboard; its properties stay`);
      const instances = await w.instances(object.id, target.propertyName, target.propertySource);
      if (instances.length === 0) {
        if (await w.hasSubProperty(object.id, target.propertyName, target.propertySource)) {
          throw new Refusal('CANNOT_DELETE_SUBPROPERTY', `${label} is a sub-property; update its enclosing property instead`);
        }
        throw new Refusal('PROPERTY_HAS_NO_INSTANCE', `${label} has no instance to delete`);
      }
      const doomed = instancesToDelete(target, instances, label);
      // lastUpdate is mandatory in the schema; 0 or less means "do not check" (docs/catalog-operations.md, deleteProperty).
      if (target.lastUpdate > 0 && object.modifiedMs > target.lastUpdate) {
        throw new Refusal('PROPERTY_DELETE_TIMESTAMP', `${target.objectId} changed at ${object.modifiedMs}, after lastUpdate ${target.lastUpdate}`);
      }
      await w.deleteProperties(doomed.map((i) => i.id));
      await w.renumber(object.id, target.propertyName, target.propertySource);
      await w.touch(object.id, deps.now());
    });
    return { catalogOperationStatus: SUCCESS };
  } catch (error) {
    if (error instanceof Refusal) return { catalogOperationStatus: fatalStatus('deleteProperty', delivery, [error]) };
    throw error;
  }
}
