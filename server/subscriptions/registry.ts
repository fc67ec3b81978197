import { reachable } from '../query/match.js';
import type { Predicate, Scalar, Target } from '../query/tree.js';
import type { Subscription } from './subscription.js';

type FieldTarget = Exclude<Target, { kind: 'column' }>;

interface Index {
  readonly target: FieldTarget;
  readonly byValue: Map<string, Set<Subscription>>;
}

/** A value as a key: equal scalars, and only they, have equal keys. */
const keyOf = (value: Scalar): string => `${typeof value}:${Object.is(value, -0) ? 0 : value}`;

/**
 * The equality a subscription can be found by: a condition that is one `=` or `IN` on a field.
 * Most subscriptions have one (an id, a serviceType, a name); a change then reaches only the
 * subscriptions whose value it holds, not every subscription of its collection.
 */
function equalityOf(subscription: Subscription): Predicate | undefined {
  for (const condition of subscription.conditions) {
    const [only, ...others] = condition.anyOf;
    if (others.length === 0 && only && only.comparison !== 'MATCHES' && (only.comparison === '=' || only.comparison === 'IN') && only.target.kind !== 'column') return only;
  }
  return undefined;
}

/**
 * The subscriptions of one process, filed so that a change finds the few that may want it: by
 * collection, by the resource they follow, and by the value an equality of theirs asks for.
 * Whatever it returns still has its conditions checked; what it leaves out cannot match.
 */
export class Registry {
  private readonly general = new Map<string, Set<Subscription>>();
  private readonly pinned = new Map<string, Set<Subscription>>();
  private readonly indexed = new Map<string, Map<string, Index>>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(subscription: Subscription): () => void {
    const collection = subscription.kind.collection;
    /** Where it is filed, to take it out again (and drop what becomes empty). */
    const filed: (() => void)[] = [];
    const place = <K>(map: Map<K, Set<Subscription>>, key: K, emptied: () => void = () => undefined): void => {
      const set = map.get(key) ?? map.set(key, new Set()).get(key)!;
      set.add(subscription);
      filed.push(() => {
        set.delete(subscription);
        if (set.size === 0 && map.get(key) === set) {
          map.delete(key);
          emptied();
        }
      });
    };
    const equality = subscription.id === undefined ? equalityOf(subscription) : undefined;
    if (subscription.id !== undefined) {
      place(this.pinned, `${collection}/${subscription.id}`);
    } else if (equality) {
      const target = equality.target as FieldTarget;
      const indexes = this.indexed.get(collection) ?? this.indexed.set(collection, new Map()).get(collection)!;
      const path = JSON.stringify(target);
      const index = indexes.get(path) ?? indexes.set(path, { target, byValue: new Map() }).get(path)!;
      const emptied = () => {
        if (index.byValue.size > 0 || indexes.get(path) !== index) return;
        indexes.delete(path);
        if (indexes.size === 0 && this.indexed.get(collection) === indexes) this.indexed.delete(collection);
      };
      for (const value of equality.values) place(index.byValue, keyOf(value), emptied);
    } else {
      place(this.general, collection);
    }
    this.count++;
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      for (const take of filed) take();
      this.count--;
    };
  }

  /** Whether a change of this resource may interest anyone, and whether that needs its document. */
  interest(collection: string, id: string): { readonly any: boolean; readonly byValue: boolean } {
    const byValue = this.indexed.has(collection);
    return { any: byValue || this.general.has(collection) || this.pinned.has(`${collection}/${id}`), byValue };
  }

  /** The subscriptions a change of `collection`/`id` with `document` (when it has one) may match. */
  candidates(collection: string, id: string, document: unknown): Set<Subscription> {
    const found = new Set<Subscription>();
    for (const subscription of this.general.get(collection) ?? []) found.add(subscription);
    for (const subscription of this.pinned.get(`${collection}/${id}`) ?? []) found.add(subscription);
    if (document !== undefined) {
      for (const { target, byValue } of this.indexed.get(collection)?.values() ?? []) {
        for (const value of reachable(document, target)) for (const subscription of byValue.get(keyOf(value)) ?? []) found.add(subscription);
      }
    }
    return found;
  }
}
