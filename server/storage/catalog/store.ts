import type { Knex } from 'knex';
import type { Uses } from '../contract/database.js';
import type { StatementResult } from '../contract/driver.js';
import { ResourceConflict, StorageUnavailable } from '../errors.js';
import { chunks, rowsOf } from '../contract/rows.js';
import { Pacer } from '../pace.js';
import { inSavepoint } from '../savepoint.js';
import type { TargetQuery } from './conditions.js';
import { ConditionCompiler } from './query-sql.js';
import type { ElementRecord, InstanceRecord, Link, ObjectContent, ObjectRecord, PropertyInput, PropertyRecord, QueryDefinitionRecord, UserRecord } from './rows.js';
import { CLOSURE, CONTACT_COLUMNS, COUNTS, ELEMENTS, OBJECTS, PROPERTIES, QUERY_DEFINITIONS, USERS, type ContactColumn } from './tables.js';
import { folded, numberValue, textKey, timeValue } from './values.js';

/** What the catalog store uses of the database. */
export type CatalogDatabase = Uses<'reader' | 'keys' | 'write', { sql: 'columns'; driver: 'errors' | 'statements'; adapter: 'locking' }>;

/** Ids per `IN (…)` list: well under every dialect's bind-parameter limit. */
const CHUNK = 500;
/** Most objectIds CatalogStore.objectsWithContent reads in its one statement. */
export const OBJECTS_AT_ONCE = CHUNK;
/** Lock scope of a user's trees: every structural change of them holds it (see write()). */
const OWNER_LOCK = 'catalog-owner';

/** The keys of ObjectRow, in the order of OBJECT_COLUMNS. */
const OBJECT_ROW_KEYS = ['id', 'guid', 'class', 'parent_id', 'parent_guid', 'owner_dn', 'created_ms', 'modified_ms'] as const;
const OBJECT_COLUMNS = [
  'o.id',
  'o.guid',
  'o.class',
  'o.parent_id',
  'parent.guid as parent_guid',
  'o.owner_dn',
  'o.created_ms',
  'o.modified_ms',
];

interface ObjectRow {
  id: number | string;
  guid: string;
  class: string;
  parent_id: number | string | null;
  parent_guid: string | null;
  owner_dn: string;
  created_ms: number | string;
  modified_ms: number | string;
}

function objectRecord(row: ObjectRow): ObjectRecord {
  return {
    id: Number(row.id),
    guid: row.guid,
    objectClass: row.class,
    parentId: row.parent_id === null ? null : Number(row.parent_id),
    parentGuid: row.parent_guid,
    ownerDn: row.owner_dn,
    createdMs: Number(row.created_ms),
    modifiedMs: Number(row.modified_ms),
  };
}

const DEFINITION_COLUMNS = ['query_id', 'owner_dn', 'title', 'description', 'public', 'definition'];

interface DefinitionRow {
  query_id: string;
  owner_dn: string;
  title: string;
  description: string;
  public: boolean | number;
  definition: string;
}

function definitionRecord(row: DefinitionRow): QueryDefinitionRecord {
  return { queryId: row.query_id, ownerDn: row.owner_dn, title: row.title, description: row.description, public: Boolean(row.public), definition: row.definition };
}

/** A property instance as a JSON row (PROPERTY_COLUMNS), and an element (ELEMENT_ROW_COLUMNS). */
type PropertyRow = [number, number, number | null, string, string, number];
type ElementRow = [number, string, string, string, boolean | number];
const PROPERTY_COLUMNS = ['id', 'object_id', 'parent_property_id', 'name', 'source', 'position'];
const PROPERTY_ORDER = 'id';
const ELEMENT_ROW_COLUMNS = ['e.property_id', 'e.name', 'e.source', 'e.text_value', 'e.shorthand'];
const ELEMENT_ORDER = 'e.property_id, e.ordinal';

function addProperties(into: PropertyRecord[], rows: readonly PropertyRow[]): void {
  for (const [id, objectId, parentPropertyId, name, source, position] of rows) {
    into.push({ id: Number(id), objectId: Number(objectId), parentPropertyId: parentPropertyId === null ? null : Number(parentPropertyId), name, source, position: Number(position) });
  }
}

function addElements(into: ElementRecord[], rows: readonly ElementRow[]): void {
  for (const [propertyId, name, source, value, shorthand] of rows) into.push({ propertyId: Number(propertyId), name, source, value, shorthand: Boolean(shorthand) });
}

/** (creation time, objectId by UTF-8 bytes): the order of results (docs/catalog-operations.md). */
function creationOrder(a: ObjectRecord, b: ObjectRecord): number {
  return a.createdMs - b.createdMs || Buffer.compare(Buffer.from(a.guid), Buffer.from(b.guid));
}

function insertedId(row: unknown): number {
  return Number(typeof row === 'object' && row !== null ? (row as { id: unknown }).id : row);
}

/** Reads of the catalog, inside one transaction (a consistent snapshot on SQLite). */
export class CatalogReads {
  constructor(
    protected readonly knex: Knex.Transaction,
    protected readonly dialect: CatalogDatabase['dialect'],
  ) {}

  /** The rows of `from` as arrays of `columns`, ordered by `orderBy`, read as one JSON text. */
  private async jsonRows<T extends unknown[]>(from: Knex.QueryBuilder, columns: readonly string[], orderBy: string): Promise<T[]> {
    const row = (await from.first(this.knex.raw(`${this.dialect.sql.columns.jsonRows(columns, orderBy)} AS rows`))) as { rows: string };
    return JSON.parse(row.rows) as T[];
  }

  private objects(): Knex.QueryBuilder {
    return this.knex({ o: OBJECTS }).leftJoin({ parent: OBJECTS }, 'parent.id', 'o.parent_id').select(OBJECT_COLUMNS);
  }

  async user(dn: string): Promise<UserRecord | undefined> {
    const row = (await this.knex(USERS).first('dn', ...CONTACT_COLUMNS).where({ dn })) as Record<string, string | null> | undefined;
    if (!row) return undefined;
    const contact: Partial<Record<ContactColumn, string>> = {};
    for (const column of CONTACT_COLUMNS) if (row[column] !== null && row[column] !== undefined) contact[column] = row[column]!;
    return { dn: row.dn!, contact };
  }

  async userExists(dn: string): Promise<boolean> {
    return (await this.knex(USERS).first('dn').where({ dn })) !== undefined;
  }

  async object(guid: string): Promise<ObjectRecord | undefined> {
    const row = (await this.objects().where('o.guid', guid).first()) as ObjectRow | undefined;
    return row ? objectRecord(row) : undefined;
  }

  async whiteboardOf(dn: string): Promise<ObjectRecord | undefined> {
    const row = (await this.objects().where({ 'o.owner_dn': dn, 'o.class': 'WHITEBOARD' }).whereNull('o.parent_id').orderBy('o.id').first()) as ObjectRow | undefined;
    return row ? objectRecord(row) : undefined;
  }

  /** True when `candidateId` is `rootId` or lies below it. */
  async inSubtree(rootId: number, candidateId: number): Promise<boolean> {
    return (await this.knex(CLOSURE).first('depth').where({ ancestor_id: rootId, descendant_id: candidateId })) !== undefined;
  }

  /** The targets of a context query, in (creation time, objectId) order, one page. */
  async targets(query: TargetQuery): Promise<ObjectRecord[]> {
    const condition = ConditionCompiler.target(this.dialect, query, 'o');
    const builder = this.objects().whereRaw(condition.text, [...condition.bindings]);
    this.page(this.inCreationOrder(builder), query.offset, query.limit);
    return ((await builder) as ObjectRow[]).map(objectRecord);
  }

  /** The objects with these objectIds that `owners` own, in no particular order. */
  async objectsByGuid(guids: readonly string[], owners: readonly string[]): Promise<ObjectRecord[]> {
    const found: ObjectRecord[] = [];
    for (const part of chunks(guids, CHUNK)) {
      const rows = (await this.objects().whereIn('o.guid', part).whereIn('o.owner_dn', owners)) as ObjectRow[];
      found.push(...rows.map(objectRecord));
    }
    return found;
  }

  /** The owner's objects without a parent (the whiteboard and root PROJECTs), one page. */
  async workspaceRoots(owner: string, offset: number, limit: number | undefined): Promise<ObjectRecord[]> {
    const builder = this.objects().where('o.owner_dn', owner).whereNull('o.parent_id');
    this.page(this.inCreationOrder(builder), offset, limit);
    return ((await builder) as ObjectRow[]).map(objectRecord);
  }

  /**
   * Every object below the targets, at most `maxDepth` links down (all when undefined), that
   * `owners` own, each once, in (creation time, objectId) order.
   */
  async descendants(targetIds: readonly number[], maxDepth: number | undefined, owners: readonly string[]): Promise<ObjectRecord[]> {
    const found = new Map<number, ObjectRecord>();
    for (const part of chunks(targetIds, CHUNK)) {
      const below = this.knex(CLOSURE).select('descendant_id').whereIn('ancestor_id', part).where('depth', '>', 0);
      if (maxDepth !== undefined) below.where('depth', '<=', maxDepth);
      const rows = (await this.inCreationOrder(this.objects().whereIn('o.id', below).whereIn('o.owner_dn', owners))) as ObjectRow[];
      for (const row of rows) found.set(Number(row.id), objectRecord(row));
    }
    // Several chunks come back each in order; one order for all.
    return chunks(targetIds, CHUNK).length > 1 ? [...found.values()].sort(creationOrder) : [...found.values()];
  }

  /** The links (parent, child) whose child is one of `childIds`: every parent of each. */
  async parentLinks(childIds: readonly number[]): Promise<Link[]> {
    const links: Link[] = [];
    for (const part of chunks(childIds, CHUNK)) {
      const rows = (await this.knex(CLOSURE).select('ancestor_id', 'descendant_id').where('depth', 1).whereIn('descendant_id', part)) as { ancestor_id: number | string; descendant_id: number | string }[];
      for (const row of rows) links.push({ parentId: Number(row.ancestor_id), childId: Number(row.descendant_id) });
    }
    return links;
  }

  /** Which of these objects have at least one child. */
  async withChildren(ids: readonly number[]): Promise<Set<number>> {
    const parents = new Set<number>();
    for (const part of chunks(ids, CHUNK)) {
      const rows = (await this.knex(CLOSURE).distinct('ancestor_id').where('depth', 1).whereIn('ancestor_id', part)) as { ancestor_id: number | string }[];
      for (const row of rows) parents.add(Number(row.ancestor_id));
    }
    return parents;
  }

  /** The object's parents (none for a root). */
  async parentsOf(id: number): Promise<number[]> {
    const rows = (await this.knex(CLOSURE).select('ancestor_id').where({ descendant_id: id, depth: 1 }).orderBy('ancestor_id')) as { ancestor_id: number | string }[];
    return rows.map((r) => Number(r.ancestor_id));
  }

  /** All property instances (top-level and nested) and elements of these objects, in stored order. */
  async properties(objectIds: readonly number[]): Promise<ObjectContent> {
    const properties: PropertyRecord[] = [];
    const elements: ElementRecord[] = [];
    for (const part of chunks(objectIds, CHUNK)) {
      // Two rows of JSON text rather than a row object per property and per element.
      addProperties(properties, await this.jsonRows<PropertyRow>(this.knex(PROPERTIES).whereIn('object_id', part), PROPERTY_COLUMNS, PROPERTY_ORDER));
      addElements(elements, await this.jsonRows<ElementRow>(this.knex({ e: ELEMENTS }).join({ p: PROPERTIES }, 'p.id', 'e.property_id').whereIn('p.object_id', part), ELEMENT_ROW_COLUMNS, ELEMENT_ORDER));
    }
    return { properties, elements };
  }

  /** The object's top-level instances of (name, source), by position. */
  async instances(objectId: number, name: string, source: string): Promise<InstanceRecord[]> {
    const rows = (await this.knex(PROPERTIES)
      .select('id', 'position')
      .where({ object_id: objectId, name, source })
      .whereNull('parent_property_id')
      .orderBy(['position', 'id'])) as { id: number | string; position: number | string }[];
    return rows.map((r) => ({ id: Number(r.id), position: Number(r.position) }));
  }

  /** True when (name, source) occurs on the object only as a sub-property somewhere. */
  async hasSubProperty(objectId: number, name: string, source: string): Promise<boolean> {
    return (await this.knex(PROPERTIES).first('id').where({ object_id: objectId, name, source }).whereNotNull('parent_property_id')) !== undefined;
  }

  async queryDefinition(queryId: string): Promise<QueryDefinitionRecord | undefined> {
    const row = (await this.knex(QUERY_DEFINITIONS).first(...DEFINITION_COLUMNS).where({ query_id: queryId })) as DefinitionRow | undefined;
    return row ? definitionRecord(row) : undefined;
  }

  /** The public definitions and `dn`'s own, in the order they were first saved. */
  async queryDefinitionsFor(dn: string): Promise<QueryDefinitionRecord[]> {
    const rows = (await this.knex(QUERY_DEFINITIONS)
      .select(...DEFINITION_COLUMNS)
      .where({ owner_dn: dn })
      .orWhere({ public: true })
      .orderBy('id')) as DefinitionRow[];
    return rows.map(definitionRecord);
  }

  private inCreationOrder(builder: Knex.QueryBuilder): Knex.QueryBuilder {
    return builder.orderBy('o.created_ms').orderByRaw(this.dialect.sql.columns.byteOrder('o.guid'));
  }

  private page(builder: Knex.QueryBuilder, offset: number, limit: number | undefined): void {
    if (limit !== undefined) builder.limit(limit);
    if (offset > 0) builder.offset(offset);
  }
}

/** What a new object is. */
export interface NewObject {
  readonly guid: string;
  readonly objectClass: string;
  readonly parentId: number | null;
  readonly ownerDn: string;
}

/** The savepoint around each item of a request (see CatalogWrites.attempt). */
const ITEM = 'catalog_item';
/** An object by its objectId, on a write's connection. */
const OBJECT_BY_GUID = `SELECT ${OBJECT_COLUMNS.join(', ')} FROM ${OBJECTS} o LEFT JOIN ${OBJECTS} parent ON parent.id = o.parent_id WHERE o.guid = ? LIMIT 1`;
const INSERT_OBJECT = `INSERT INTO ${OBJECTS} (guid, class, parent_id, owner_dn, created_ms, modified_ms) VALUES (?, ?, ?, ?, ?, ?) RETURNING id`;
const INSERT_SELF_PATH = `INSERT INTO ${CLOSURE} (ancestor_id, descendant_id, depth, paths) VALUES (?, ?, 0, 1)`;
/** A new object has no descendants: each path to its parent, one link longer, is a path to it. */
const INSERT_PATHS_FROM_PARENT = `INSERT INTO ${CLOSURE} (ancestor_id, descendant_id, depth, paths) SELECT ancestor_id, CAST(? AS INTEGER), depth + 1, paths FROM ${CLOSURE} WHERE descendant_id = ?`;
/**
 * The paths a link (parent → child) adds: every path into the parent, the link, every path out
 * of the child, counted per (ancestor, descendant, length). Bound: parent, child.
 */
const PATHS_THROUGH_LINK =
  `SELECT a.ancestor_id AS ancestor_id, d.descendant_id AS descendant_id, a.depth + d.depth + 1 AS depth, SUM(a.paths * d.paths) AS paths ` +
  `FROM ${CLOSURE} a CROSS JOIN ${CLOSURE} d WHERE a.descendant_id = ? AND d.ancestor_id = ? GROUP BY a.ancestor_id, d.descendant_id, a.depth + d.depth + 1`;
const ADD_LINK =
  `INSERT INTO ${CLOSURE} (ancestor_id, descendant_id, depth, paths) SELECT ancestor_id, descendant_id, depth, paths FROM (${PATHS_THROUGH_LINK}) x WHERE true ` +
  `ON CONFLICT (ancestor_id, descendant_id, depth) DO UPDATE SET paths = ${CLOSURE}.paths + excluded.paths`;
const REMOVE_LINK_PATHS =
  `UPDATE ${CLOSURE} SET paths = ${CLOSURE}.paths - x.paths FROM (${PATHS_THROUGH_LINK}) x ` +
  `WHERE ${CLOSURE}.ancestor_id = x.ancestor_id AND ${CLOSURE}.descendant_id = x.descendant_id AND ${CLOSURE}.depth = x.depth`;
/** After REMOVE_LINK_PATHS: the rows left without a path, all of them ending in the child's subtree. Bound: child. */
const DROP_EMPTY_PATHS = `DELETE FROM ${CLOSURE} WHERE paths = 0 AND descendant_id IN (SELECT descendant_id FROM ${CLOSURE} WHERE ancestor_id = ?)`;
/** The child's first parent again, when it was the unlinked one: the lowest id left, or none. Bound: child, child, parent. */
const REPOINT_FIRST_PARENT = `UPDATE ${OBJECTS} SET parent_id = (SELECT MIN(ancestor_id) FROM ${CLOSURE} WHERE descendant_id = ? AND depth = 1) WHERE id = ? AND parent_id = ?`;
/** Objects below the root (not itself) with a parent outside its subtree. Bound: root three times. */
const SHARED_WITH_OUTSIDE =
  `SELECT DISTINCT l.descendant_id AS id FROM ${CLOSURE} l WHERE l.depth = 1 AND l.descendant_id <> ? ` +
  `AND l.descendant_id IN (SELECT descendant_id FROM ${CLOSURE} WHERE ancestor_id = ?) AND l.ancestor_id NOT IN (SELECT descendant_id FROM ${CLOSURE} WHERE ancestor_id = ?)`;
const INSERT_PROPERTY = `INSERT INTO ${PROPERTIES} (object_id, parent_property_id, name, source, position) VALUES (?, ?, ?, ?, ?) RETURNING id`;
const ELEMENT_COLUMNS = '(property_id, ordinal, name, source, shorthand, text_value, text_folded, text_key, num_value, time_value)';
/** One element's values; `shorthand` is bound as 1 or 0, which both engines cast to their boolean. */
const ELEMENT_VALUES = '(?, ?, ?, ?, CAST(? AS BOOLEAN), ?, ?, ?, ?, ?)';

/**
 * Reads and writes inside one write transaction. The statements of createObject's path (the
 * objectId lookups, the inserts of objects, paths, properties and elements, the savepoint of
 * each item) run as prepared SQL on the write's connection (Driver.statements), not through
 * the query builder: building each through knex cost more than SQLite spent running it.
 */
export class CatalogWrites extends CatalogReads {
  /** Gives the event loop its turns during a long write (a createObject of 1,011 objects). */
  private readonly pacer = new Pacer();

  /**
   * Run `work` so that it stores everything or nothing: a savepoint, rolled back when it throws.
   * One item of a multi-item request is one attempt.
   */
  async attempt<T>(work: (writes: CatalogWrites) => Promise<T>): Promise<T> {
    try {
      return await inSavepoint(this.dialect.driver.statements, this.knex, ITEM, () => work(this));
    } finally {
      await this.pacer.breathe();
    }
  }

  override async object(guid: string): Promise<ObjectRecord | undefined> {
    const [row] = (await this.run(OBJECT_BY_GUID, [guid])).rows;
    return row ? objectRecord(row as unknown as ObjectRow) : undefined;
  }

  async insertUser(dn: string, contact: UserRecord['contact'], now: number): Promise<void> {
    await this.unique(() => this.knex(USERS).insert({ dn, ...this.contactRow(contact), created_ms: now }), `user ${dn} exists already`);
  }

  /** Replace the contact fields; a new DN renames the user and, by cascade, re-owns the objects. */
  async replaceUser(dn: string, newDn: string, contact: UserRecord['contact']): Promise<void> {
    await this.unique(() => this.knex(USERS).where({ dn }).update({ dn: newDn, ...this.contactRow(contact) }), `user ${newDn} exists already`);
  }

  /** Delete the user and every object they own, subtrees included. */
  async deleteUser(dn: string): Promise<void> {
    await this.knex(OBJECTS).where({ owner_dn: dn }).delete();
    await this.knex(USERS).where({ dn }).delete();
  }

  /** Insert an object and its closure rows; ResourceConflict when the objectId is taken. */
  async insertObject(object: NewObject, now: number): Promise<number> {
    const { rows } = await this.unique(
      () => this.run(INSERT_OBJECT, [object.guid, object.objectClass, object.parentId, object.ownerDn, now, now]),
      `object ${object.guid} exists already`,
    );
    const id = insertedId(rows[0]);
    await this.run(INSERT_SELF_PATH, [id, id]);
    if (object.parentId !== null) await this.run(INSERT_PATHS_FROM_PARENT, [id, object.parentId]);
    return id;
  }

  /** Link `childId` under `parentId` as well; the caller has checked that no cycle follows. */
  async link(parentId: number, childId: number): Promise<void> {
    await this.run(ADD_LINK, [parentId, childId]);
    await this.knex(OBJECTS).where({ id: childId }).whereNull('parent_id').update({ parent_id: parentId });
  }

  /** Remove the link from `parentId` to `childId` and every path through it, nothing else. */
  async unlink(parentId: number, childId: number): Promise<void> {
    await this.run(REMOVE_LINK_PATHS, [parentId, childId]);
    await this.run(DROP_EMPTY_PATHS, [childId]);
    await this.run(REPOINT_FIRST_PARENT, [childId, childId, parentId]);
  }

  /**
   * The objects below `rootId` (not itself) that also hang under an object outside its subtree:
   * they stay when the subtree is deleted, and keep a subtree from changing owner.
   */
  async sharedWithOutside(rootId: number): Promise<number[]> {
    const { rows } = await this.run(SHARED_WITH_OUTSIDE, [rootId, rootId, rootId]);
    return rows.map((r) => Number((r as { id: number | string }).id));
  }

  /**
   * Move an object with its subtree: it leaves every parent it has and hangs under `parentId`
   * alone. With `newOwner`, the whole subtree changes owner; the caller has checked that no
   * object of it hangs under an object outside it, and that the new parent is not inside it,
   * under the owners' locks.
   */
  async move(id: number, parentId: number, newOwner: string | undefined, now: number): Promise<void> {
    for (const parent of await this.parentsOf(id)) await this.unlink(parent, id);
    await this.link(parentId, id);
    await this.knex(OBJECTS).where({ id }).update({ parent_id: parentId, modified_ms: now });
    if (newOwner !== undefined) {
      await this.knex(OBJECTS).whereIn('id', this.knex(CLOSURE).select('descendant_id').where({ ancestor_id: id })).update({ owner_dn: newOwner });
    }
  }

  /**
   * Delete an object with everything below it that hangs nowhere else; properties, elements and
   * paths cascade. An object of the subtree that also hangs under an object outside it stays
   * with its own subtree, and only its links from the deleted objects go.
   */
  async deleteSubtree(id: number): Promise<void> {
    const subtree = (await this.knex(CLOSURE).distinct('descendant_id').where({ ancestor_id: id })) as { descendant_id: number | string }[];
    const doomed = new Set(subtree.map((r) => Number(r.descendant_id)));
    const shared = await this.sharedWithOutside(id);
    if (shared.length > 0) {
      const staying = new Set<number>();
      for (const part of chunks(shared, CHUNK)) {
        const rows = (await this.knex(CLOSURE).distinct('descendant_id').whereIn('ancestor_id', part)) as { descendant_id: number | string }[];
        for (const row of rows) staying.add(Number(row.descendant_id));
      }
      for (const keep of staying) doomed.delete(keep);
      // Every path from a deleted object into what stays crosses exactly one of these links.
      const crossing = (await this.parentLinks([...staying])).filter((l) => doomed.has(l.parentId));
      for (const link of crossing) await this.unlink(link.parentId, link.childId);
    }
    // parent_id cascades too, but only ever to objects deleted here.
    for (const part of chunks([...doomed], CHUNK)) await this.knex(OBJECTS).whereIn('id', part).delete();
  }

  /** Store a definition under its queryId: a new one, or a replacement of the one with that id. */
  async saveQueryDefinition(record: QueryDefinitionRecord, now: number): Promise<void> {
    const values = { owner_dn: record.ownerDn, title: record.title, description: record.description, public: record.public, definition: record.definition, modified_ms: now };
    const updated = await this.knex(QUERY_DEFINITIONS).where({ query_id: record.queryId }).update(values);
    if (updated === 0) await this.unique(() => this.knex(QUERY_DEFINITIONS).insert({ query_id: record.queryId, ...values, created_ms: now }), `query definition ${record.queryId} exists already`);
  }

  async deleteQueryDefinition(queryId: string): Promise<void> {
    await this.knex(QUERY_DEFINITIONS).where({ query_id: queryId }).delete();
  }

  async touch(objectId: number, now: number): Promise<void> {
    await this.knex(OBJECTS).where({ id: objectId }).update({ modified_ms: now });
  }

  /** Store a property instance with its elements and sub-properties. */
  async insertProperty(objectId: number, parentPropertyId: number | null, position: number, property: PropertyInput): Promise<number> {
    const { rows } = await this.run(INSERT_PROPERTY, [objectId, parentPropertyId, property.name, property.source, position]);
    const id = insertedId(rows[0]);
    await this.insertContent(objectId, id, property);
    return id;
  }

  /** Replace what an instance holds, keeping the instance (its id, position and place in order). */
  async replacePropertyContent(objectId: number, propertyId: number, property: PropertyInput): Promise<void> {
    await this.knex(ELEMENTS).where({ property_id: propertyId }).delete();
    await this.knex(PROPERTIES).where({ parent_property_id: propertyId }).delete();
    await this.insertContent(objectId, propertyId, property);
  }

  async deleteProperties(ids: readonly number[]): Promise<void> {
    for (const part of chunks(ids, CHUNK)) await this.knex(PROPERTIES).whereIn('id', part).delete();
  }

  /** Number the remaining top-level instances of (name, source) 1, 2, … in their order. */
  async renumber(objectId: number, name: string, source: string): Promise<void> {
    const instances = await this.instances(objectId, name, source);
    for (const [index, instance] of instances.entries()) {
      if (instance.position !== index + 1) await this.knex(PROPERTIES).where({ id: instance.id }).update({ position: index + 1 });
    }
  }

  private async insertContent(objectId: number, propertyId: number, property: PropertyInput): Promise<void> {
    const rows = property.elements.map((element, index) => [
      propertyId,
      index + 1,
      element.name,
      element.source,
      element.shorthand ? 1 : 0,
      element.value,
      folded(element.value),
      textKey(element.value),
      numberValue(element.value) ?? null,
      timeValue(element.value) ?? null,
    ]);
    for (const part of chunks(rows, 100)) {
      await this.run(`INSERT INTO ${ELEMENTS} ${ELEMENT_COLUMNS} VALUES ${rowsOf(ELEMENT_VALUES, part.length)}`, part.flat());
    }
    for (const [index, sub] of property.properties.entries()) await this.insertProperty(objectId, propertyId, index + 1, sub);
  }

  private run(sql: string, bindings: readonly unknown[]): Promise<StatementResult> {
    return this.dialect.driver.statements.run(this.knex, sql, bindings);
  }

  private contactRow(contact: UserRecord['contact']): Record<ContactColumn, string | null> {
    return Object.fromEntries(CONTACT_COLUMNS.map((column) => [column, contact[column] ?? null])) as Record<ContactColumn, string | null>;
  }

  private async unique<T>(statement: () => Promise<T>, conflict: string): Promise<T> {
    try {
      return await statement();
    } catch (error) {
      if (this.dialect.driver.errors.isUniqueViolation(error)) throw new ResourceConflict(conflict);
      throw error;
    }
  }
}

/**
 * The catalog's storage: typed calls in, records out. Reads run in one transaction on the
 * reading pool; writes in one transaction on the writing pool that starts with the dialect's
 * beginWrite and then takes one lock per owner whose trees it may change.
 *
 * Why per owner: every object has its parent's owner (creation needs the parent's owner to be
 * the caller; a move with newUserId re-owns the whole subtree and needs the new parent to be
 * the new owner's), so each tree belongs to one owner, and a cycle check plus a move, or a
 * closure update under a parent, only races with writers holding that owner's lock.
 */
export class CatalogStore {
  constructor(private readonly db: CatalogDatabase) {}

  /**
   * How many users and objects there are: the counter rows the triggers keep (migration 0003),
   * read by the key reader, since a status probe is called often.
   */
  async counts(): Promise<{ users: number; objects: number }> {
    try {
      const row = (await this.db.keys.one(`SELECT COALESCE(SUM(users), 0) AS users, COALESCE(SUM(objects), 0) AS objects FROM ${COUNTS}`, [])) as { users: number | string; objects: number | string };
      return { users: Number(row.users), objects: Number(row.objects) };
    } catch (error) {
      throw this.db.dialect.driver.errors.isUnavailable(error) ? new StorageUnavailable(error) : error;
    }
  }

  /**
   * The objects with these objectIds (at most CHUNK) that `owners` own, in no particular order,
   * with everything they hold: one statement, so one snapshot without a transaction and one
   * round trip (SQLite: one message to a reader thread instead of five; see objectIdQuery).
   */
  async objectsWithContent(guids: readonly string[], owners: readonly string[]): Promise<{ objects: ObjectRecord[]; content: ObjectContent }> {
    if (guids.length > OBJECTS_AT_ONCE) throw new RangeError(`objectsWithContent: at most ${OBJECTS_AT_ONCE} objectIds`);
    const { columns } = this.db.dialect.sql;
    const list = (values: readonly string[]) => values.map(() => '?').join(', ');
    const targets = `SELECT id FROM ${OBJECTS} WHERE guid IN (${list(guids)}) AND owner_dn IN (${list(owners)})`;
    const objectColumns = OBJECT_COLUMNS.map((c) => c.replace(/ as \w+$/, ''));
    const selected =
      `(SELECT ${columns.jsonRows(objectColumns, 'o.id')} FROM ${OBJECTS} o LEFT JOIN ${OBJECTS} parent ON parent.id = o.parent_id WHERE o.id IN (${targets})) AS objects, ` +
      `(SELECT ${columns.jsonRows(PROPERTY_COLUMNS, PROPERTY_ORDER)} FROM ${PROPERTIES} WHERE object_id IN (${targets})) AS properties, ` +
      `(SELECT ${columns.jsonRows(ELEMENT_ROW_COLUMNS, ELEMENT_ORDER)} FROM ${ELEMENTS} e JOIN ${PROPERTIES} p ON p.id = e.property_id WHERE p.object_id IN (${targets})) AS elements`;
    const bindings = [...guids, ...owners];
    try {
      const reader = this.db.reader;
      const row = (await reader.first(reader.raw(selected, [...bindings, ...bindings, ...bindings]))) as { objects: string; properties: string; elements: string } | undefined;
      const objects = (JSON.parse(row!.objects) as (string | number | null)[][]).map((r) =>
        objectRecord(Object.fromEntries(OBJECT_ROW_KEYS.map((key, i) => [key, r[i]])) as unknown as ObjectRow),
      );
      const content: ObjectContent = { properties: [], elements: [] };
      addProperties(content.properties, JSON.parse(row!.properties) as PropertyRow[]);
      addElements(content.elements, JSON.parse(row!.elements) as ElementRow[]);
      return { objects, content };
    } catch (error) {
      throw this.db.dialect.driver.errors.isUnavailable(error) ? new StorageUnavailable(error) : error;
    }
  }

  async read<T>(work: (reads: CatalogReads) => Promise<T>): Promise<T> {
    try {
      return await this.db.reader.transaction((trx) => work(new CatalogReads(trx, this.db.dialect)));
    } catch (error) {
      throw this.db.dialect.driver.errors.isUnavailable(error) ? new StorageUnavailable(error) : error;
    }
  }

  /** Run `work` in one write transaction holding the locks of `owners` (sorted: no deadlocks). */
  async write<T>(owners: readonly string[], work: (writes: CatalogWrites) => Promise<T>): Promise<T> {
    try {
      return await this.db.write(async (trx) => {
        await this.db.dialect.adapter.locking.lockResources(trx, OWNER_LOCK, [...new Set(owners)]);
        return work(new CatalogWrites(trx, this.db.dialect));
      });
    } catch (error) {
      throw this.db.dialect.driver.errors.isUnavailable(error) ? new StorageUnavailable(error) : error;
    }
  }
}
