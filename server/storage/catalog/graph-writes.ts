import type { Knex } from 'knex';
import { chunks } from '../contract/rows.js';
import type { GraphReads } from './graph-reads.js';
import { ADD_LINK, DROP_EMPTY_PATHS, INSERT_OBJECT, INSERT_PATHS_FROM_PARENT, INSERT_SELF_PATH, OBJECT_BY_GUID, REMOVE_LINK_PATHS, REPOINT_FIRST_PARENT, SHARED_WITH_OUTSIDE } from './graph-sql.js';
import { CHUNK, insertedId, objectRecord, type ObjectRow } from './records.js';
import type { ObjectRecord } from './rows.js';
import { CLOSURE, OBJECTS } from './tables.js';
import { type CatalogDialect, TransactionPart } from './transaction-part.js';

/** What a new object is. */
export interface NewObject {
  readonly guid: string;
  readonly objectClass: string;
  readonly parentId: number | null;
  readonly ownerDn: string;
}

/**
 * Changes of the graph of objects inside a write transaction, under the owners' locks (see
 * CatalogStore.write): new objects, links and unlinks with their closure rows, moves, deletions.
 */
export class GraphWrites extends TransactionPart {
  constructor(
    knex: Knex.Transaction,
    dialect: CatalogDialect,
    private readonly reads: GraphReads,
  ) {
    super(knex, dialect);
  }

  /** An object by its objectId, as a prepared statement on the write's connection. */
  async object(guid: string): Promise<ObjectRecord | undefined> {
    const [row] = (await this.run(OBJECT_BY_GUID, [guid])).rows;
    return row ? objectRecord(row as unknown as ObjectRow) : undefined;
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
    for (const parent of await this.reads.parentsOf(id)) await this.unlink(parent, id);
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
      const crossing = (await this.reads.parentLinks([...staying])).filter((l) => doomed.has(l.parentId));
      for (const link of crossing) await this.unlink(link.parentId, link.childId);
    }
    // parent_id cascades too, but only ever to objects deleted here.
    for (const part of chunks([...doomed], CHUNK)) await this.knex(OBJECTS).whereIn('id', part).delete();
  }

  /** The object's content changed: its modification time, and its content version moves (ObjectRecord.contentVersion). */
  async touch(objectId: number, now: number): Promise<void> {
    await this.knex(OBJECTS).where({ id: objectId }).update({ modified_ms: now, content_version: this.knex.raw('content_version + 1') });
  }
}
