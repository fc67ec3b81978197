import type { Knex } from 'knex';
import { Pacer } from '../pace.js';
import { inSavepoint } from '../savepoint.js';
import { ContentWrites } from './content.js';
import { GraphWrites, type NewObject } from './graph-writes.js';
import { CatalogReads } from './reads.js';
import type { ObjectRecord, PropertyInput, QueryDefinitionRecord, UserRecord } from './rows.js';
import { QueryDefinitionWrites } from './saved-queries.js';
import type { CatalogDialect } from './transaction-part.js';
import { UserWrites } from './users.js';

/** The savepoint around each item of a request (see CatalogWrites.attempt). */
const ITEM = 'catalog_item';

/**
 * Reads and writes inside one write transaction. The statements of createObject's path (the
 * objectId lookups, the inserts of objects, paths, properties and elements, the savepoint of
 * each item) run as prepared SQL on the write's connection (Driver.statements), not through
 * the query builder: building each through knex cost more than SQLite spent running it. One
 * façade over the writes of the graph (graph-writes.ts), of what objects hold (content.ts), of
 * the users (users.ts) and of the saved queries (saved-queries.ts).
 */
export class CatalogWrites extends CatalogReads {
  /** Gives the event loop its turns during a long write (a createObject of 1,011 objects). */
  private readonly pacer = new Pacer();
  private readonly graphWrites: GraphWrites;
  private readonly contentWrites: ContentWrites;
  private readonly userWrites: UserWrites;
  private readonly definitionWrites: QueryDefinitionWrites;
  /**
   * What this transaction may have written, by the names a client knows (a user's DN, an
   * objectId, a queryId) or, for what the caller named by row, `object row <id>`: named in the
   * log when its commit cannot be confirmed (Pools.write). Items rolled back stay named.
   */
  readonly written = new Set<string>();

  constructor(knex: Knex.Transaction, dialect: CatalogDialect) {
    super(knex, dialect);
    this.graphWrites = new GraphWrites(knex, dialect, this.graph);
    this.contentWrites = new ContentWrites(knex, dialect, this.content);
    this.userWrites = new UserWrites(knex, dialect);
    this.definitionWrites = new QueryDefinitionWrites(knex, dialect);
  }

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

  /** An object by its objectId, as a prepared statement on the write's connection. */
  override object(guid: string): Promise<ObjectRecord | undefined> {
    return this.graphWrites.object(guid);
  }

  insertUser(dn: string, contact: UserRecord['contact'], now: number): Promise<void> {
    this.written.add(`user ${dn}`);
    return this.userWrites.insertUser(dn, contact, now);
  }

  /** Replace the contact fields; a new DN renames the user and, by cascade, re-owns the objects. */
  replaceUser(dn: string, newDn: string, contact: UserRecord['contact']): Promise<void> {
    this.written.add(`user ${dn}`).add(`user ${newDn}`);
    return this.userWrites.replaceUser(dn, newDn, contact);
  }

  /** Delete the user and every object they own, subtrees included. */
  deleteUser(dn: string): Promise<void> {
    this.written.add(`user ${dn}`);
    return this.userWrites.deleteUser(dn);
  }

  /** Insert an object and its closure rows; ResourceConflict when the objectId is taken. */
  insertObject(object: NewObject, now: number): Promise<number> {
    this.written.add(`object ${object.guid}`);
    return this.graphWrites.insertObject(object, now);
  }

  /** Link `childId` under `parentId` as well; the caller has checked that no cycle follows. */
  link(parentId: number, childId: number): Promise<void> {
    this.rows(parentId, childId);
    return this.graphWrites.link(parentId, childId);
  }

  /** Remove the link from `parentId` to `childId` and every path through it, nothing else. */
  unlink(parentId: number, childId: number): Promise<void> {
    this.rows(parentId, childId);
    return this.graphWrites.unlink(parentId, childId);
  }

  /** See GraphWrites.sharedWithOutside: the objects below `rootId` that also hang outside its subtree. */
  sharedWithOutside(rootId: number): Promise<number[]> {
    return this.graphWrites.sharedWithOutside(rootId);
  }

  /** See GraphWrites.move: an object with its subtree under `parentId` alone, and to `newOwner`. */
  move(id: number, parentId: number, newOwner: string | undefined, now: number): Promise<void> {
    this.rows(id, parentId);
    return this.graphWrites.move(id, parentId, newOwner, now);
  }

  /** See GraphWrites.deleteSubtree: an object with everything below it that hangs nowhere else. */
  deleteSubtree(id: number): Promise<void> {
    this.rows(id);
    return this.graphWrites.deleteSubtree(id);
  }

  touch(objectId: number, now: number): Promise<void> {
    this.rows(objectId);
    return this.graphWrites.touch(objectId, now);
  }

  /** Store a definition under its queryId: a new one, or a replacement of the one with that id. */
  saveQueryDefinition(record: QueryDefinitionRecord, now: number): Promise<void> {
    this.written.add(`query ${record.queryId}`);
    return this.definitionWrites.saveQueryDefinition(record, now);
  }

  deleteQueryDefinition(queryId: string): Promise<void> {
    this.written.add(`query ${queryId}`);
    return this.definitionWrites.deleteQueryDefinition(queryId);
  }

  /** Store a property instance with its elements and sub-properties. */
  insertProperty(objectId: number, parentPropertyId: number | null, position: number, property: PropertyInput): Promise<number> {
    this.rows(objectId);
    return this.contentWrites.insertProperty(objectId, parentPropertyId, position, property);
  }

  /** Replace what an instance holds, keeping the instance (its id, position and place in order). */
  replacePropertyContent(objectId: number, propertyId: number, property: PropertyInput): Promise<void> {
    this.rows(objectId);
    return this.contentWrites.replacePropertyContent(objectId, propertyId, property);
  }

  deleteProperties(ids: readonly number[]): Promise<void> {
    return this.contentWrites.deleteProperties(ids);
  }

  /** Number the remaining top-level instances of (name, source) 1, 2, … in their order. */
  renumber(objectId: number, name: string, source: string): Promise<void> {
    this.rows(objectId);
    return this.contentWrites.renumber(objectId, name, source);
  }

  private rows(...ids: readonly number[]): void {
    for (const id of ids) this.written.add(`object row ${id}`);
  }
}
