import type { ResourceStore } from '../storage/resource-store.js';
import { chosenReading } from '../storage/id-segment.js';
import { defineMember, type Representations } from '../wire/representation.js';

/** Most distinct resources one answer expands; references past it stay references. */
const MAX_INLINED = 10_000;

function isReference(value: unknown): value is { href: string } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const { href, rel, ref } = value as Record<string, unknown>;
  // Link endpoints mark their references with `ref` instead of `rel`.
  return typeof href === 'string' && (rel === 'full' || ref === 'full');
}

/**
 * `expand` (ours, docs/rest-interface.md; what `inline` did before rest-contract §5's revision of
 * 2026-11-26): references `{href, rel: "full"}` to this service's resources, under any base it
 * has had, are replaced by the newest representation of the resource they name, one level deep
 * (the expanded resources keep their own references).
 * A reference to a resource that does not exist (any more) stays as it is. One instance serves
 * one request, so a resource referenced many times is read once.
 */
export class Expander {
  private readonly read = new Map<string, Promise<unknown>>();

  /** @param at the instant (µs) whose representations are inlined (docs/time.md); absent: the newest. */
  constructor(
    private readonly store: ResourceStore,
    private readonly representations: Representations,
    private readonly at?: number,
  ) {}

  /** A copy of `document` with its references expanded. */
  async expand(document: unknown): Promise<unknown> {
    return this.visit(document, true);
  }

  private async visit(value: unknown, top: boolean): Promise<unknown> {
    if (!top && isReference(value)) return (await this.resource(value.href)) ?? value;
    if (Array.isArray(value)) return Promise.all(value.map((item) => this.visit(item, false)));
    if (value === null || typeof value !== 'object') return value;
    const copy: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value)) defineMember(copy, key, await this.visit(member, false));
    return copy;
  }

  private resource(href: string): Promise<unknown> {
    let found = this.read.get(href);
    if (found === undefined) {
      const named = this.representations.resourceAt(href);
      if (!named || this.read.size >= MAX_INLINED) return Promise.resolve(undefined);
      const { kind, ids } = named;
      const stored = chosenReading(ids, (id) => this.store.known(kind.collection, id)).then((id) => (this.at === undefined ? this.store.current(kind.collection, id) : this.store.at(kind.collection, id, this.at)));
      found = stored.then((r) => (r ? JSON.parse(this.representations.render(kind, r)) : undefined));
      this.read.set(href, found);
    }
    return found;
  }
}
