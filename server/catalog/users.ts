import type {
  CheckStatusRequest,
  CheckStatusResponse,
  CreateUserRequest,
  CreateUserResponse,
  DeleteUserRequest,
  DeleteUserResponse,
  DoesUserExistRequest,
  DoesUserExistResponse,
  QueryUserRequest,
  QueryUserResponse,
  UpdateUserRequest,
  UpdateUserResponse,
  UserAddrType,
  UserType,
  WhiteboardIdRequest,
  WhiteboardIdResponse,
} from '../../generated/soap/types.js';
import { ResourceConflict } from '../storage/errors.js';
import type { UserRecord } from '../storage/catalog/rows.js';
import type { ContactColumn } from '../storage/catalog/tables.js';
import type { CatalogCall } from './context.js';
import type { CatalogDependencies } from './dependencies.js';
import { attemptEach } from './items.js';
import { createInitialTree, createWhiteboard } from './objects.js';
import { fatalStatus, ItemOutcomes, MISSING_DN, Refusal, SUCCESS } from './status.js';

/** userType's contact fields and their columns; `address` children are flattened. */
const CONTACT_FIELDS = [
  ['userName', 'user_name'],
  ['organization', 'organization'],
  ['position', 'position'],
  ['phone', 'phone'],
  ['ttdttyPhone', 'ttdtty_phone'],
  ['email', 'email'],
  ['fax', 'fax'],
  ['url', 'url'],
  ['hours', 'hours'],
  ['contactInstructions', 'contact_instructions'],
] as const satisfies readonly (readonly [keyof UserType, ContactColumn])[];

const ADDRESS_FIELDS = [
  ['addrType', 'addr_type'],
  ['addrStreet', 'addr_street'],
  ['addrCity', 'addr_city'],
  ['addrState', 'addr_state'],
  ['addrPostcode', 'addr_postcode'],
  ['addrCountry', 'addr_country'],
] as const satisfies readonly (readonly [keyof UserAddrType, ContactColumn])[];

function contactOf(user: UserType): UserRecord['contact'] {
  const contact: Partial<Record<ContactColumn, string>> = {};
  for (const [field, column] of CONTACT_FIELDS) if (user[field] !== undefined) contact[column] = user[field];
  for (const [field, column] of ADDRESS_FIELDS) if (user.address?.[field] !== undefined) contact[column] = user.address[field];
  return contact;
}

function userTypeOf(record: UserRecord): UserType {
  const user: UserType = { userId: record.dn };
  const address: UserAddrType = {};
  let hasAddress = false;
  for (const [field, column] of ADDRESS_FIELDS) {
    const value = record.contact[column];
    if (value !== undefined) {
      address[field] = value;
      hasAddress = true;
    }
  }
  for (const [field, column] of CONTACT_FIELDS) if (record.contact[column] !== undefined) user[field] = record.contact[column];
  if (hasAddress) user.address = address;
  return user;
}

/** The refusal when the caller may not act on the user `dn`. */
function checkMayManage(call: CatalogCall, caller: string, dn: string): void {
  if (dn !== caller && !call.admin) throw new Refusal('AUTHORIZATION_ERROR', `only an administrator may manage user ${dn}`);
}

export async function checkStatus(deps: CatalogDependencies, _request: CheckStatusRequest): Promise<CheckStatusResponse> {
  const counts = await deps.store.counts();
  return {
    catalogStat: [
      { name: 'version', value: deps.version },
      { name: 'startTime', value: String(deps.startTime) },
      { name: 'users', value: String(counts.users) },
      { name: 'objects', value: String(counts.objects) },
    ],
    catalogOperationStatus: SUCCESS,
  };
}

/** Each user comes with a whiteboard and the initialWorkspace trees, as one item. */
export async function createUser(deps: CatalogDependencies, request: CreateUserRequest, call: CatalogCall): Promise<CreateUserResponse> {
  const delivery = request.errorDeliveryMethod;
  const caller = call.dn;
  if (caller === undefined) return { catalogOperationStatus: fatalStatus('createUser', delivery, [MISSING_DN]) };
  const now = deps.now();
  const dns = request.catalogUser.map((u) => u.userId.trim());
  return deps.store.write(dns.filter(Boolean), async (w) => {
    const outcomes = new ItemOutcomes('createUser', delivery);
    await attemptEach(w, outcomes, request.catalogUser, (u, i) => `catalogUser[${i + 1}] (userId ${u.userId})`, async (item, user) => {
      const dn = user.userId.trim();
      if (dn === '') throw new Refusal('NO_USER_ID', 'userId is empty');
      checkMayManage(call, caller, dn);
      if (await item.userExists(dn)) throw new Refusal('DUPLICATE_DN', `user ${dn} exists already`);
      try {
        await item.insertUser(dn, contactOf(user), now);
      } catch (error) {
        if (error instanceof ResourceConflict) throw new Refusal('DUPLICATE_DN', `user ${dn} exists already`);
        throw error;
      }
      await createWhiteboard(item, deps, dn, user.initialWorkspace?.whiteboard, now);
      for (const node of user.initialWorkspace?.initialObject ?? []) await createInitialTree(item, deps, dn, node, undefined, now);
    });
    return { catalogOperationStatus: outcomes.status() };
  });
}

/** Replace the contact fields; a different catalogUser/userId renames the user and re-owns its objects. */
export async function updateUser(deps: CatalogDependencies, request: UpdateUserRequest, call: CatalogCall): Promise<UpdateUserResponse> {
  const delivery = request.errorDeliveryMethod;
  const caller = call.dn;
  if (caller === undefined) return { catalogOperationStatus: fatalStatus('updateUser', delivery, [MISSING_DN]) };
  const dn = request.userId.trim();
  const replacement = request.catalogUser[0]!;
  const newDn = replacement.userId.trim();
  try {
    await deps.store.write([dn, newDn].filter(Boolean), async (w) => {
      checkMayManage(call, caller, dn);
      if (!(await w.userExists(dn))) throw new Refusal('DN_DOES_NOT_EXIST', `user ${dn} does not exist`);
      if (newDn === '') throw new Refusal('UPDATE_USER_ERROR', 'catalogUser/userId is empty');
      if (newDn !== dn && (await w.userExists(newDn))) throw new Refusal('DUPLICATE_DN', `user ${newDn} exists already`);
      try {
        await w.replaceUser(dn, newDn, contactOf(replacement));
      } catch (error) {
        if (error instanceof ResourceConflict) throw new Refusal('DUPLICATE_DN', `user ${newDn} exists already`);
        throw error;
      }
    });
    return { catalogOperationStatus: SUCCESS };
  } catch (error) {
    if (error instanceof Refusal) return { catalogOperationStatus: fatalStatus('updateUser', delivery, [error]) };
    throw error;
  }
}

/** Each user goes with every object they own, the whiteboard included. */
export async function deleteUser(deps: CatalogDependencies, request: DeleteUserRequest, call: CatalogCall): Promise<DeleteUserResponse> {
  const delivery = request.errorDeliveryMethod;
  const caller = call.dn;
  if (caller === undefined) return { catalogOperationStatus: fatalStatus('deleteUser', delivery, [MISSING_DN]) };
  const dns = request.deletedUserId.map((dn) => dn.trim());
  return deps.store.write(dns.filter(Boolean), async (w) => {
    const outcomes = new ItemOutcomes('deleteUser', delivery);
    await attemptEach(w, outcomes, dns, (dn, i) => `deletedUserId[${i + 1}] (${dn})`, async (item, dn) => {
      checkMayManage(call, caller, dn);
      if (!(await item.userExists(dn))) throw new Refusal('DN_DOES_NOT_EXIST', `user ${dn} does not exist`);
      await item.deleteUser(dn);
    });
    return { catalogOperationStatus: outcomes.status() };
  });
}

export async function queryUser(deps: CatalogDependencies, request: QueryUserRequest, call: CatalogCall): Promise<QueryUserResponse> {
  const delivery = request.errorDeliveryMethod;
  if (call.dn === undefined) return { catalogOperationStatus: fatalStatus('queryUser', delivery, [MISSING_DN]), catalogUser: [] };
  const dn = request.userId.trim();
  const user = await deps.store.read((r) => r.user(dn));
  if (!user) return { catalogOperationStatus: fatalStatus('queryUser', delivery, [{ cause: 'DN_DOES_NOT_EXIST', description: `user ${dn} does not exist` }]), catalogUser: [] };
  return { catalogOperationStatus: SUCCESS, catalogUser: [userTypeOf(user)] };
}

/** About the caller: an unknown DN is an answer (false), not an error. */
export async function doesUserExist(deps: CatalogDependencies, request: DoesUserExistRequest, call: CatalogCall): Promise<DoesUserExistResponse> {
  const dn = call.dn;
  if (dn === undefined) return { catalogOperationStatus: fatalStatus('doesUserExist', request.errorDeliveryMethod, [MISSING_DN]), userExists: false };
  return { catalogOperationStatus: SUCCESS, userExists: await deps.store.read((r) => r.userExists(dn)) };
}

export async function whiteboardId(deps: CatalogDependencies, request: WhiteboardIdRequest, call: CatalogCall): Promise<WhiteboardIdResponse> {
  const delivery = request.errorDeliveryMethod;
  const dn = call.dn;
  if (dn === undefined) return { catalogOperationStatus: fatalStatus('whiteboardId', delivery, [MISSING_DN]), objectId: null };
  const found = await deps.store.read(async (r) => ((await r.userExists(dn)) ? { whiteboard: await r.whiteboardOf(dn) } : undefined));
  if (!found) return { catalogOperationStatus: fatalStatus('whiteboardId', delivery, [{ cause: 'DN_DOES_NOT_EXIST', description: `user ${dn} does not exist` }]), objectId: null };
  if (!found.whiteboard) return { catalogOperationStatus: fatalStatus('whiteboardId', delivery, [{ cause: 'WHITEBOARD_MISSING', description: `user ${dn} has no whiteboard` }]), objectId: null };
  return { catalogOperationStatus: SUCCESS, objectId: found.whiteboard.guid };
}
