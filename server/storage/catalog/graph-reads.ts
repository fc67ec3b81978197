import type { Knex } from 'knex';
import { chunks } from '../contract/rows.js';
import type { TargetQuery } from './conditions.js';
import { ConditionCompiler } from './query-sql.js';
import { CHUNK, creationOrder, OBJECT_COLUMNS, objectRecord, type ObjectRow } from './records.js';
import type { Link, ObjectRecord } from './rows.js';
import { CLOSURE, OBJECTS } from './tables.js';
import { TransactionPart } from './transaction-part.js';

/**
 * Reads of the graph of objects: the objects (each with its first parent's objectId) and the
 * closure table, which holds every path between them, so a subtree is one lookup.
 */
export class GraphReads extends TransactionPart {
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

  private objects(): Knex.QueryBuilder {
    return this.knex({ o: OBJECTS }).leftJoin({ parent: OBJECTS }, 'parent.id', 'o.parent_id').select(OBJECT_COLUMNS);
  }

  private inCreationOrder(builder: Knex.QueryBuilder): Knex.QueryBuilder {
    return builder.orderBy('o.created_ms').orderByRaw(this.dialect.sql.columns.byteOrder('o.guid'));
  }

  private page(builder: Knex.QueryBuilder, offset: number, limit: number | undefined): void {
    if (limit !== undefined) builder.limit(limit);
    if (offset > 0) builder.offset(offset);
  }
}
