import type { Knex } from 'knex';
import type { TargetQuery } from './conditions.js';
import { ContentReads } from './content.js';
import { GraphReads } from './graph-reads.js';
import type { InstanceRecord, Link, ObjectContent, ObjectRecord, QueryDefinitionRecord, UserRecord } from './rows.js';
import { QueryDefinitionReads } from './saved-queries.js';
import type { CatalogDialect } from './transaction-part.js';
import { UserReads } from './users.js';

/**
 * Reads of the catalog, inside one transaction (a consistent snapshot on SQLite): one façade over
 * the reads of the graph (graph-reads.ts), of what objects hold (content.ts), of the users
 * (users.ts) and of the saved queries (saved-queries.ts).
 */
export class CatalogReads {
  protected readonly graph: GraphReads;
  protected readonly content: ContentReads;
  private readonly users: UserReads;
  private readonly definitions: QueryDefinitionReads;

  constructor(
    protected readonly knex: Knex.Transaction,
    protected readonly dialect: CatalogDialect,
  ) {
    this.graph = new GraphReads(knex, dialect);
    this.content = new ContentReads(knex, dialect);
    this.users = new UserReads(knex, dialect);
    this.definitions = new QueryDefinitionReads(knex, dialect);
  }

  user(dn: string): Promise<UserRecord | undefined> {
    return this.users.user(dn);
  }

  userExists(dn: string): Promise<boolean> {
    return this.users.userExists(dn);
  }

  object(guid: string): Promise<ObjectRecord | undefined> {
    return this.graph.object(guid);
  }

  whiteboardOf(dn: string): Promise<ObjectRecord | undefined> {
    return this.graph.whiteboardOf(dn);
  }

  /** True when `candidateId` is `rootId` or lies below it. */
  inSubtree(rootId: number, candidateId: number): Promise<boolean> {
    return this.graph.inSubtree(rootId, candidateId);
  }

  /** The targets of a context query, in (creation time, objectId) order, one page. */
  targets(query: TargetQuery): Promise<ObjectRecord[]> {
    return this.graph.targets(query);
  }

  /** The objects with these objectIds that `owners` own, in no particular order. */
  objectsByGuid(guids: readonly string[], owners: readonly string[]): Promise<ObjectRecord[]> {
    return this.graph.objectsByGuid(guids, owners);
  }

  /** The owner's objects without a parent (the whiteboard and root PROJECTs), one page. */
  workspaceRoots(owner: string, offset: number, limit: number | undefined): Promise<ObjectRecord[]> {
    return this.graph.workspaceRoots(owner, offset, limit);
  }

  /** See GraphReads.descendants: every object below the targets that `owners` own, in creation order. */
  descendants(targetIds: readonly number[], maxDepth: number | undefined, owners: readonly string[]): Promise<ObjectRecord[]> {
    return this.graph.descendants(targetIds, maxDepth, owners);
  }

  /** The links (parent, child) whose child is one of `childIds`: every parent of each. */
  parentLinks(childIds: readonly number[]): Promise<Link[]> {
    return this.graph.parentLinks(childIds);
  }

  /** Which of these objects have at least one child. */
  withChildren(ids: readonly number[]): Promise<Set<number>> {
    return this.graph.withChildren(ids);
  }

  /** The object's parents (none for a root). */
  parentsOf(id: number): Promise<number[]> {
    return this.graph.parentsOf(id);
  }

  /** All property instances (top-level and nested) and elements of these objects, in stored order. */
  properties(objectIds: readonly number[]): Promise<ObjectContent> {
    return this.content.properties(objectIds);
  }

  /** The object's top-level instances of (name, source), by position. */
  instances(objectId: number, name: string, source: string): Promise<InstanceRecord[]> {
    return this.content.instances(objectId, name, source);
  }

  /** True when (name, source) occurs on the object only as a sub-property somewhere. */
  hasSubProperty(objectId: number, name: string, source: string): Promise<boolean> {
    return this.content.hasSubProperty(objectId, name, source);
  }

  queryDefinition(queryId: string): Promise<QueryDefinitionRecord | undefined> {
    return this.definitions.queryDefinition(queryId);
  }

  /** The public definitions and `dn`'s own, in the order they were first saved. */
  queryDefinitionsFor(dn: string): Promise<QueryDefinitionRecord[]> {
    return this.definitions.queryDefinitionsFor(dn);
  }
}
