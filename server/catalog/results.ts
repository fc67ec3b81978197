import type {
  ElementFilterType,
  ElementResponseType,
  GuidResponseType,
  MetadataElementType,
  ObjectResponseType,
  PropertyExclusionType,
  PropertyFilterType,
  PropertyResponseType,
  PropertyType,
  QueryResponseSetType,
  ResultNodeType,
} from '../../generated/soap/types.js';
import type { ObjectRecord } from '../storage/catalog/rows.js';
import type { CatalogReads } from '../storage/catalog/store.js';
import type { PropertyTrees, PropertyTreeSource } from './property-trees.js';
import { storedClass } from './rules.js';

/** Which objects below each target a result nests (docs/catalog-operations.md "Result assembly"). */
export interface HierarchyShape {
  /** Deepest descendant level; 0 for the targets alone, undefined for whole subtrees. */
  readonly maxDepth: number | undefined;
  /** Classes left out; their descendants move up to the nearest node shown. */
  readonly excluded: ReadonlySet<string>;
}

/** Which result node type, with what inside. */
export type ContentShape =
  | { readonly kind: 'ids' }
  | { readonly kind: 'objects'; readonly exclusions: readonly PropertyExclusionType[] }
  | { readonly kind: 'properties'; readonly filters: readonly PropertyFilterType[]; readonly exclusions: readonly PropertyExclusionType[] }
  | { readonly kind: 'elements'; readonly filters: readonly ElementFilterType[] };

export interface ResultShape {
  readonly hierarchy: HierarchyShape;
  readonly content: ContentShape;
  readonly showHasChildren: boolean;
  readonly showCreateDate: boolean;
  readonly showModifyDate: boolean;
}

/** The reads of the graph a result makes; the property trees come from a PropertyTreeSource. */
export type ResultReads = Pick<CatalogReads, 'descendants' | 'withChildren' | 'parentLinks'>;

/**
 * A result of the targets alone, which reads nothing of the graph: for a shape that shows the
 * targets alone and not whether they have children (objectIdQuery reads them in one statement).
 */
export const TargetsAlone = {
  /** Whether a result of `shape` reads nothing of the graph. */
  suffice(shape: ResultShape): boolean {
    return shape.hierarchy.maxDepth === 0 && !shape.showHasChildren;
  },
  reads: {
    descendants(): never {
      throw new Error('TargetsAlone: a result of the targets alone reads no descendants');
    },
    withChildren(): never {
      throw new Error('TargetsAlone: a result without hasChildren reads no children');
    },
    parentLinks(): never {
      throw new Error('TargetsAlone: a result of the targets alone reads no links');
    },
  } satisfies ResultReads,
};

const excludedBy = (exclusions: readonly PropertyExclusionType[]) => (p: PropertyType) =>
  exclusions.some((x) => x.propertyName === p.name && (x.propertySource === undefined || x.propertySource === p.source));

function metadataElements(properties: readonly PropertyType[], filters: readonly ElementFilterType[]): MetadataElementType[] {
  const out: MetadataElementType[] = [];
  for (const filter of filters) {
    for (const property of properties) {
      if (property.name !== filter.propertyName || property.source !== filter.propertySource) continue;
      // The value shorthand is an element named like its property (docs/catalog-interface.md).
      const leaves = [...(property.value !== undefined ? [{ name: property.name, source: property.source, value: property.value }] : []), ...(property.element ?? [])];
      for (const leaf of leaves) {
        if (leaf.name === filter.elementName && (leaf.source ?? property.source) === filter.elementSource) out.push({ name: filter.elementFilter ?? filter.elementName, value: leaf.value });
      }
    }
  }
  return out;
}

/**
 * Build the queryResponseSet for `targets` (already sorted and paged): load what lies below
 * them and what they hold with a fixed number of batched reads, never one read per object.
 * Objects form a graph: an object with several parents is shown under each of them that the
 * result reaches, each time with that parent as its parentId.
 */
export async function assembleResults(reads: ResultReads, source: PropertyTreeSource, targets: readonly ObjectRecord[], shape: ResultShape, owners: readonly string[]): Promise<QueryResponseSetType> {
  const { hierarchy, content } = shape;
  const maxDepth = hierarchy.maxDepth ?? Infinity;
  const targetIds = targets.map((t) => t.id);
  const below = maxDepth === 0 || targets.length === 0 ? [] : await reads.descendants(targetIds, hierarchy.maxDepth, owners);
  const shown = new Map<number, ObjectRecord>();
  for (const object of [...targets, ...below]) shown.set(object.id, object);
  const withChildren = shape.showHasChildren ? await reads.withChildren([...shown.keys()]) : undefined;
  const trees: PropertyTrees = content.kind === 'ids' || shown.size === 0 ? new Map() : await source.treesOf([...shown.values()]);

  // The children of each object among those loaded, in (creation time, objectId) order: the
  // order `below` comes in. A child deeper than maxDepth on one path may be shallower on another.
  const order = new Map(below.map((d, i) => [d.id, i]));
  const byId = new Map(below.map((d) => [d.id, d]));
  const childrenOf = new Map<number, ObjectRecord[]>();
  for (const link of below.length === 0 ? [] : await reads.parentLinks(below.map((d) => d.id))) {
    const child = byId.get(link.childId)!;
    const list = childrenOf.get(link.parentId);
    if (list) list.push(child);
    else childrenOf.set(link.parentId, [child]);
  }
  for (const list of childrenOf.values()) list.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  /** What is shown below `parent` at `depth`: its children, or those of an excluded child in its place. */
  const shownChildren = (parent: ObjectRecord, depth: number): { object: ObjectRecord; parent: ObjectRecord; depth: number }[] =>
    depth >= maxDepth
      ? []
      : (childrenOf.get(parent.id) ?? []).flatMap((child) => (hierarchy.excluded.has(child.objectClass) ? shownChildren(child, depth + 1) : [{ object: child, parent, depth: depth + 1 }]));

  const attributes = (object: ObjectRecord, parent: ObjectRecord | undefined): ResultNodeType => ({
    objectClass: storedClass(object.objectClass),
    objectId: object.guid,
    parentId: parent ? parent.guid : (object.parentGuid ?? undefined),
    hasChildren: withChildren ? withChildren.has(object.id) : undefined,
    creationDate: shape.showCreateDate ? object.createdMs : undefined,
    modificationDate: shape.showModifyDate ? object.modifiedMs : undefined,
  });
  /** A node of the result: a target (depth 0, no parent) or a child shown below one. */
  interface At {
    readonly object: ObjectRecord;
    readonly parent?: ObjectRecord;
    readonly depth: number;
  }
  const roots: At[] = targets.map((object) => ({ object, depth: 0 }));
  const propertiesOf = (object: ObjectRecord): readonly PropertyType[] => trees.get(object.id) ?? [];

  switch (content.kind) {
    case 'ids': {
      const node = (at: At): GuidResponseType => ({
        ...attributes(at.object, at.parent),
        guidResponse: shownChildren(at.object, at.depth).map(node),
      });
      return { guidResponse: roots.map(node) };
    }
    case 'objects': {
      const excluded = excludedBy(content.exclusions);
      const node = (at: At): ObjectResponseType => ({
        ...attributes(at.object, at.parent),
        property: propertiesOf(at.object).filter((p) => !excluded(p)),
        objectResponse: shownChildren(at.object, at.depth).map(node),
      });
      return { objectResponse: roots.map(node) };
    }
    case 'properties': {
      const excluded = excludedBy(content.exclusions);
      const wanted = (p: PropertyType) => content.filters.some((f) => f.propertyName === p.name && f.propertySource === p.source);
      const node = (at: At): PropertyResponseType => ({
        ...attributes(at.object, at.parent),
        property: propertiesOf(at.object).filter((p) => wanted(p) && !excluded(p)),
        propertyResponse: shownChildren(at.object, at.depth).map(node),
      });
      return { propertyResponse: roots.map(node) };
    }
    case 'elements': {
      const node = (at: At): ElementResponseType => ({
        ...attributes(at.object, at.parent),
        metadataElement: metadataElements(propertiesOf(at.object), content.filters),
        elementResponse: shownChildren(at.object, at.depth).map(node),
      });
      return { elementResponse: roots.map(node) };
    }
  }
}
