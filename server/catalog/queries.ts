import type {
  AllWorkspaceQueryRequest,
  ComparisonType,
  ContextQueryRequest,
  ContextQueryType,
  ObjectIdQueryRequest,
  QueryAndSetType,
  QueryComponentType,
  QueryDefinitionType,
  QueryElementAndSetType,
  QueryElementOrSetType,
  QueryElementType,
  QueryObjectType,
  QueryOrSetType,
  QueryPropertyAndSetType,
  QueryPropertyOrSetType,
  QueryPropertyType,
  QueryResponse,
  QueryResultFormatType,
} from '../../generated/soap/types.js';
import type { Comparator, ConditionSet, ContextCondition, ElementCondition, ObjectCondition, Operand, PropertyCondition, Relation, ValueTest } from '../storage/catalog/conditions.js';
import type { ObjectRecord } from '../storage/catalog/rows.js';
import type { CatalogReads } from '../storage/catalog/store.js';
import { OBJECTS_AT_ONCE } from '../storage/catalog/store.js';
import { numberValue, timeValue } from '../storage/catalog/values.js';
import type { CatalogCall } from './context.js';
import { visibleOwners, type CatalogDependencies } from './dependencies.js';
import type { PropertyTreeSource } from './property-trees.js';
import { assembleResults, TargetsAlone, type ResultReads, type ResultShape } from './results.js';
import { fatalStatus, MISSING_DN, partialStatus, Refusal, SUCCESS, type Problem } from './status.js';

/** allWorkspaceQuery without queryResultFormat (docs/catalog-operations.md #17). */
const WORKSPACE_DEFAULT_FORMAT: QueryResultFormatType = {
  offset: 0,
  count: 0,
  hierarchyFilter: 'SUBTREE',
  contentFilter: 'ID_ONLY',
  resultDeliveryMethod: 'DIRECT',
  errorDeliveryMethod: 'DIRECT',
};

const COMPARATORS: Readonly<Record<ComparisonType, Comparator>> = { EQ: '=', NE: '<>', GT: '>', GTE: '>=', LT: '<', LTE: '<=' };

const RELATIONS = { DIRECT_PARENT: 'parent', PARENT: 'ancestor', DIRECT_CHILD: 'child', CHILD: 'descendant' } as const satisfies Record<QueryComponentType['relation'], Relation>;

function operand(text: string): Operand {
  return { text, number: numberValue(text), time: timeValue(text) };
}

/** A set as the storage compiles it; the schema already demands at least one member. */
function conditionSet<T>(kind: 'any' | 'all', negate: boolean | undefined, items: T[]): ConditionSet<T> {
  if (items.length === 0) throw new Refusal('QRY_INVALID_FILTER', `an empty ${kind === 'any' ? 'OR' : 'AND'} set`);
  return { kind, negate: negate ?? false, items };
}

function valueTest(element: QueryElementType): ValueTest | undefined {
  if (element.queryTextElement) {
    const { value, compare } = element.queryTextElement;
    return compare === 'EXACT' ? { kind: 'exact', text: value } : { kind: compare === 'STARTSWITH' ? 'prefix' : 'substring', text: value };
  }
  if (element.queryValueElement) return { kind: 'compare', comparator: COMPARATORS[element.queryValueElement.comparison], operand: operand(element.queryValueElement.value) };
  if (element.queryRangeElement) return { kind: 'range', start: operand(element.queryRangeElement.start), end: operand(element.queryRangeElement.end) };
  if (element.queryPointElement || element.queryPolygonElement) {
    throw new Refusal('QRY_INVALID_FILTER', `element ${element.name}: spatial comparisons (queryPointElement, queryPolygonElement) are not supported`);
  }
  return undefined;
}

function elementCondition(element: QueryElementType): ElementCondition {
  return { kind: 'element', negate: element.negate ?? false, name: element.name, source: element.source, test: valueTest(element) };
}

function elementOrSet(set: QueryElementOrSetType): ElementCondition {
  return conditionSet('any', set.negate, [...(set.queryElementAndSet ?? []).map(elementAndSet), ...(set.queryElement ?? []).map(elementCondition)]);
}

function elementAndSet(set: QueryElementAndSetType): ElementCondition {
  return conditionSet('all', set.negate, [...(set.queryElementOrSet ?? []).map(elementOrSet), ...(set.queryElement ?? []).map(elementCondition)]);
}

function propertyCondition(property: QueryPropertyType): PropertyCondition {
  return {
    kind: 'property',
    negate: property.negate ?? false,
    name: property.name,
    source: property.source,
    elements: [...(property.queryElementOrSet ?? []).map(elementOrSet), ...(property.queryElement ?? []).map(elementCondition)],
    properties: propertyConditions(property),
  };
}

function propertyConditions(holder: { queryPropertyOrSet?: QueryPropertyOrSetType[]; queryProperty?: QueryPropertyType[] }): PropertyCondition[] {
  return [...(holder.queryPropertyOrSet ?? []).map(propertyOrSet), ...(holder.queryProperty ?? []).map(propertyCondition)];
}

function propertyOrSet(set: QueryPropertyOrSetType): PropertyCondition {
  return conditionSet('any', set.negate, [...(set.queryPropertyAndSet ?? []).map(propertyAndSet), ...(set.queryProperty ?? []).map(propertyCondition)]);
}

function propertyAndSet(set: QueryPropertyAndSetType): PropertyCondition {
  return conditionSet('all', set.negate, [...(set.queryPropertyOrSet ?? []).map(propertyOrSet), ...(set.queryProperty ?? []).map(propertyCondition)]);
}

function dateBound(text: string | undefined, element: string): number | undefined {
  if (text === undefined) return undefined;
  const ms = timeValue(text);
  if (ms === undefined) throw new Refusal('QRY_INVALID_FILTER', `${element} "${text}" is not a date-time this server can compare`);
  return ms;
}

function objectCondition(object: QueryObjectType): ObjectCondition {
  return {
    negate: object.negate ?? false,
    objectClass: object.aggrType,
    guid: object.objectId,
    createdFrom: dateBound(object.createDateStart, 'createDateStart'),
    createdTo: dateBound(object.createDateEnd, 'createDateEnd'),
    properties: propertyConditions(object),
  };
}

/**
 * A component's `negate` belongs to its queryObjectType match (docs/catalog-operations.md: "matches C
 * as a queryObject"): "some related object that is not …". "No related object that is …" is a
 * negated queryOrSet around the component.
 */
function component(c: QueryComponentType): ContextCondition {
  return { kind: 'related', relation: RELATIONS[c.relation], object: objectCondition(c), context: contextItems(c) };
}

function contextItems(holder: { queryOrSet?: QueryOrSetType[]; queryComponent?: QueryComponentType[] }): ContextCondition[] {
  return [...(holder.queryOrSet ?? []).map(orSet), ...(holder.queryComponent ?? []).map(component)];
}

function orSet(set: QueryOrSetType): ContextCondition {
  return conditionSet('any', set.negate, [...(set.queryAndSet ?? []).map(andSet), ...(set.queryComponent ?? []).map(component)]);
}

function andSet(set: QueryAndSetType): ContextCondition {
  return conditionSet('all', set.negate, [...(set.queryOrSet ?? []).map(orSet), ...(set.queryComponent ?? []).map(component)]);
}

function contextCondition(context: ContextQueryType): ConditionSet<ContextCondition> {
  return conditionSet('all', context.negate, contextItems(context));
}

/** Throws the Refusal that `query` would answer for this target and context, if any. */
export function checkQueryDefinition(definition: QueryDefinitionType): void {
  objectCondition(definition.queryTarget);
  if (definition.contextQuery) contextCondition(definition.contextQuery);
}

interface Page {
  readonly offset: number;
  readonly limit: number | undefined;
}

function page(format: QueryResultFormatType): Page {
  if (format.offset < 0 || format.count < 0) throw new Refusal('QRY_INVALID_FILTER', 'offset and count must not be negative');
  return { offset: format.offset, limit: format.count === 0 ? undefined : format.count };
}

function resultShape(format: QueryResultFormatType): ResultShape {
  let maxDepth: number | undefined;
  let excluded = new Set<string>();
  if (format.hierarchyFilterSet) {
    const { parentFilter, childFilter } = format.hierarchyFilterSet;
    if (parentFilter) throw new Refusal('INVALID_HIERARCHY_FILTER', 'parentFilter is not supported; use childFilter, or a context query for ancestors');
    if (childFilter && childFilter.distLimit < 0) throw new Refusal('INVALID_HIERARCHY_FILTER', 'childFilter/distLimit must not be negative');
    maxDepth = childFilter ? childFilter.distLimit : 0;
    excluded = new Set(childFilter?.excluded ?? []);
  } else {
    maxDepth = format.hierarchyFilter === 'CHILDREN' ? 1 : format.hierarchyFilter === 'SUBTREE' ? undefined : 0;
  }
  const exclusions = format.propertyExclusion ?? [];
  let content: ResultShape['content'];
  if (format.propertyFilter && format.propertyFilter.length > 0) content = { kind: 'properties', filters: format.propertyFilter, exclusions };
  else if (format.elementFilter && format.elementFilter.length > 0) content = { kind: 'elements', filters: format.elementFilter };
  else content = format.contentFilter === 'FULL_SCHEMA' ? { kind: 'objects', exclusions } : { kind: 'ids' };
  return {
    hierarchy: { maxDepth, excluded },
    content,
    showHasChildren: format.showHasChildren === true,
    showCreateDate: format.showCreateDate === true,
    showModifyDate: format.showModifyDate === true,
  };
}

/** A failed query: the mandatory queryResponseSet is nil. */
function failedQuery(operation: 'query' | 'objectIdQuery' | 'allWorkspaceQuery', timestamp: number, format: QueryResultFormatType, problems: readonly Problem[]): QueryResponse {
  return { timestamp, catalogOperationStatus: fatalStatus(operation, format.errorDeliveryMethod, problems), queryResponseSet: null };
}

/** The property trees of a result read in a transaction: those kept, and the rest read in it. */
function readIn(deps: CatalogDependencies, reads: CatalogReads): PropertyTreeSource {
  return deps.trees.source((ids) => reads.properties(ids));
}

/** `query`: the caller's and public objects that match the target and the context, evaluated in SQL. */
export async function contextQuery(deps: CatalogDependencies, request: ContextQueryRequest, call: CatalogCall): Promise<QueryResponse> {
  const timestamp = deps.now();
  const format = request.queryResultFormat;
  const dn = call.dn;
  if (dn === undefined) return failedQuery('query', timestamp, format, [MISSING_DN]);
  try {
    const owners = visibleOwners(deps.policy, dn);
    const shape = resultShape(format);
    const { offset, limit } = page(format);
    const target = objectCondition(request.queryTarget);
    const context = request.contextQuery ? contextCondition(request.contextQuery) : undefined;
    const results = await deps.store.read(async (r) => assembleResults(r, readIn(deps, r), await r.targets({ visibleTo: owners, target, context, offset, limit }), shape, owners));
    return { timestamp, catalogOperationStatus: SUCCESS, queryResponseSet: results };
  } catch (error) {
    if (error instanceof Refusal) return failedQuery('query', timestamp, format, [error]);
    throw error;
  }
}

/** `objectIdQuery`: the listed objects in request order; unknown or invisible ones are reported. */
export async function objectIdQuery(deps: CatalogDependencies, request: ObjectIdQueryRequest, call: CatalogCall): Promise<QueryResponse> {
  const timestamp = deps.now();
  const format = request.queryResultFormat;
  const dn = call.dn;
  if (dn === undefined) return failedQuery('objectIdQuery', timestamp, format, [MISSING_DN]);
  try {
    const owners = visibleOwners(deps.policy, dn);
    const shape = resultShape(format);
    const { offset, limit } = page(format);
    const wanted = [...new Set(request.objectId)];
    const answer = async (reads: ResultReads, source: PropertyTreeSource, objects: readonly ObjectRecord[]): Promise<QueryResponse> => {
      const found = new Map(objects.map((o) => [o.guid, o]));
      const missing: Problem[] = wanted.filter((guid) => !found.has(guid)).map((guid) => ({ cause: 'OBJECT_DOES_NOT_EXIST', description: `no object ${guid} visible to ${dn}` }));
      if (found.size === 0) return failedQuery('objectIdQuery', timestamp, format, missing);
      const ordered = wanted.flatMap((guid) => found.get(guid) ?? []);
      const targets: ObjectRecord[] = ordered.slice(offset, limit === undefined ? undefined : offset + limit);
      const results = await assembleResults(reads, source, targets, shape, owners);
      const status = missing.length === 0 ? SUCCESS : partialStatus('objectIdQuery', format.errorDeliveryMethod, missing);
      return { timestamp, catalogOperationStatus: status, queryResponseSet: results };
    };
    if (TargetsAlone.suffice(shape) && wanted.length <= OBJECTS_AT_ONCE) {
      // The targets alone. Mostly their property trees are kept, and one statement reads the
      // objects alone (their content versions say whether what is kept is current).
      if (deps.trees.keeps) {
        const visible = await deps.store.visibleObjects(wanted, owners);
        const kept = deps.trees.kept(visible);
        if (kept) return await answer(TargetsAlone.reads, { treesOf: async () => kept }, visible);
      }
      // Otherwise one statement reads them with everything they hold (a page may show fewer;
      // the few extra properties cost less than a second read), in one snapshot.
      const { objects, content } = await deps.store.objectsWithContent(wanted, owners);
      return await answer(TargetsAlone.reads, deps.trees.source(async () => content), objects);
    }
    return await deps.store.read(async (r) => answer(r, readIn(deps, r), await r.objectsByGuid(wanted, owners)));
  } catch (error) {
    if (error instanceof Refusal) return failedQuery('objectIdQuery', timestamp, format, [error]);
    throw error;
  }
}

/** `allWorkspaceQuery`: the caller's workspace roots, the whiteboard and root PROJECTs. */
export async function allWorkspaceQuery(deps: CatalogDependencies, request: AllWorkspaceQueryRequest, call: CatalogCall): Promise<QueryResponse> {
  const timestamp = deps.now();
  const format = request.queryResultFormat ?? WORKSPACE_DEFAULT_FORMAT;
  const dn = call.dn;
  if (dn === undefined) return failedQuery('allWorkspaceQuery', timestamp, format, [MISSING_DN]);
  try {
    const shape = resultShape(format);
    const { offset, limit } = page(format);
    return await deps.store.read(async (r) => {
      if (!(await r.userExists(dn))) return failedQuery('allWorkspaceQuery', timestamp, format, [{ cause: 'DN_DOES_NOT_EXIST', description: `user ${dn} does not exist` }]);
      const roots = await r.workspaceRoots(dn, offset, limit);
      const results = await assembleResults(r, readIn(deps, r), roots, shape, [dn]);
      return { timestamp, catalogOperationStatus: SUCCESS, queryResponseSet: results };
    });
  } catch (error) {
    if (error instanceof Refusal) return failedQuery('allWorkspaceQuery', timestamp, format, [error]);
    throw error;
  }
}
