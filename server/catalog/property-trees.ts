import type { PropertyType } from '../../generated/soap/types.js';
import type { KeptTreeGauges } from '../metrics/metrics.js';
import type { ElementRecord, ObjectContent, ObjectRecord, PropertyRecord } from '../storage/catalog/rows.js';

/** Each object's top-level properties as trees, in stored order, by object id. Never changed once made. */
export type PropertyTrees = ReadonlyMap<number, readonly PropertyType[]>;

/** Where a result finds the property trees of the objects it shows. */
export interface PropertyTreeSource {
  /** The trees of `objects` (an object without properties may be left out). */
  treesOf(objects: readonly ObjectRecord[]): Promise<PropertyTrees>;
}

/** The trees of stored properties and their elements (in stored order: an enclosing instance before its sub-properties). */
export function propertyTrees(properties: readonly PropertyRecord[], elements: readonly ElementRecord[]): Map<number, PropertyType[]> {
  const byProperty = new Map<number, ElementRecord[]>();
  for (const element of elements) {
    const list = byProperty.get(element.propertyId);
    if (list) list.push(element);
    else byProperty.set(element.propertyId, [element]);
  }
  const nodes = new Map<number, PropertyType>();
  const trees = new Map<number, PropertyType[]>();
  for (const record of properties) {
    const leaves = byProperty.get(record.id) ?? [];
    const shorthand = leaves.find((e) => e.shorthand);
    const node: PropertyType = {
      name: record.name,
      source: record.source,
      value: shorthand?.value,
      element: leaves.filter((e) => !e.shorthand).map((e) => ({ name: e.name, source: e.source, value: e.value })),
      property: [],
    };
    nodes.set(record.id, node);
    if (record.parentPropertyId === null) {
      const list = trees.get(record.objectId);
      if (list) list.push(node);
      else trees.set(record.objectId, [node]);
    } else {
      nodes.get(record.parentPropertyId)?.property!.push(node);
    }
  }
  return trees;
}

interface Kept {
  readonly version: number;
  readonly trees: readonly PropertyType[];
  /** What it is counted as against the budget (kept()). */
  readonly bytes: number;
}

/** Trees that later answers share: a change by mistake throws instead of changing what they show. */
function frozen(trees: PropertyType[]): readonly PropertyType[] {
  for (const p of trees) {
    for (const e of p.element ?? []) Object.freeze(e);
    Object.freeze(p.element);
    frozen(p.property ?? []);
    Object.freeze(p);
  }
  return Object.freeze(trees);
}

/** Counted per property and per element beyond their strings' characters: about what V8 spends on such an object and its array slot. */
const NODE_BYTES = 96;

function bytesOf(trees: readonly PropertyType[]): number {
  let bytes = 0;
  for (const p of trees) {
    bytes += NODE_BYTES + 2 * (p.name!.length + p.source!.length + (p.value?.length ?? 0));
    for (const e of p.element ?? []) bytes += NODE_BYTES + 2 * (e.name.length + (e.source?.length ?? 0) + e.value.length);
    bytes += bytesOf(p.property ?? []);
  }
  return bytes;
}

/**
 * The property trees of objects that results showed, kept in memory by (object id, content
 * version), least recently used out past a budget (CATALOG_CACHE_MB).
 *
 * Why it is never stale: an object's content version moves in every transaction that changes
 * what it holds, never goes back, and ids are never used twice (ObjectRecord.contentVersion), so
 * a version names one content for the database's life, whichever process wrote it. Trees are
 * kept only under the version read in the same snapshot as the rows they were made from, and
 * answered only for an object record whose version is theirs. A process that keeps nothing
 * (budget 0) reads everything, as before.
 *
 * Why: objectIdQuery of 100 objects with 5 properties of 2 elements each spent about 3,900 µs of
 * CPU, of which reading the properties and elements (the statement's largest part, in a reader
 * thread), parsing them and making the trees was about half (docs/benchmarks/2026-11-28-issue-37-objectidquery-and-get.md).
 */
export class PropertyTreeCache {
  private readonly entries = new Map<number, Kept>();
  private bytes = 0;
  /** Objects whose trees results took from memory, and objects whose properties they read (/metrics). */
  private readonly counts = { memory: 0, database: 0 };

  constructor(private readonly budget: number) {}

  /** Whether it keeps anything (a budget above 0). */
  get keeps(): boolean {
    return this.budget > 0;
  }

  /** What /metrics reports: what is kept, and where results found their trees so far. */
  gauges(): KeptTreeGauges {
    return { objects: this.entries.size, bytes: this.bytes, fromMemory: this.counts.memory, fromDatabase: this.counts.database };
  }

  /** The trees of every one of `objects` from memory, or undefined when one of them is not kept at its version. */
  kept(objects: readonly ObjectRecord[]): PropertyTrees | undefined {
    const trees = new Map<number, readonly PropertyType[]>();
    for (const object of objects) {
      const hit = this.hit(object);
      if (hit === undefined) return undefined;
      trees.set(object.id, hit);
    }
    this.counts.memory += objects.length;
    return trees;
  }

  /**
   * A source that answers from memory what it keeps and reads the rest with `read`, which must
   * read in the snapshot the records came from (the same transaction or statement), and keeps
   * what it read under the records' versions.
   */
  source(read: (ids: readonly number[]) => Promise<ObjectContent>): PropertyTreeSource {
    return {
      treesOf: async (objects) => {
        const trees = new Map<number, readonly PropertyType[]>();
        const missing: ObjectRecord[] = [];
        for (const object of objects) {
          const hit = this.hit(object);
          if (hit === undefined) missing.push(object);
          else trees.set(object.id, hit);
        }
        this.counts.memory += trees.size;
        if (missing.length === 0) return trees;
        this.counts.database += missing.length;
        const content = await read(missing.map((o) => o.id));
        const made = propertyTrees(content.properties, content.elements);
        for (const object of missing) {
          const own = made.get(object.id) ?? [];
          trees.set(object.id, own);
          this.keep(object, own);
        }
        return trees;
      },
    };
  }

  private hit(object: ObjectRecord): readonly PropertyType[] | undefined {
    const kept = this.entries.get(object.id);
    if (kept === undefined || kept.version !== object.contentVersion) return undefined;
    // Most recently used last: the Map's order is the eviction order.
    this.entries.delete(object.id);
    this.entries.set(object.id, kept);
    return kept.trees;
  }

  private keep(object: ObjectRecord, trees: PropertyType[]): void {
    if (this.budget === 0) return;
    const old = this.entries.get(object.id);
    // Versions only grow: a read of an older snapshot finishing late keeps nothing.
    if (old !== undefined) {
      if (old.version > object.contentVersion) return;
      this.entries.delete(object.id);
      this.bytes -= old.bytes;
    }
    const bytes = bytesOf(trees) + NODE_BYTES;
    if (bytes > this.budget) return;
    this.entries.set(object.id, { version: object.contentVersion, trees: frozen(trees), bytes });
    this.bytes += bytes;
    for (const [id, oldest] of this.entries) {
      if (this.bytes <= this.budget) break;
      this.entries.delete(id);
      this.bytes -= oldest.bytes;
    }
  }
}
