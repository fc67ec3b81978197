/**
 * The topology as the page holds it: the newest representation of every resource of the drawn
 * collections, by collection and id, and the references between them. Pure data: graph.ts draws
 * it, main.ts keeps it current (the collections' event streams).
 */

/** The collections the picture is made of. */
export const DRAWN = ['domains', 'networks', 'nodes', 'ports', 'links', 'paths'] as const;
export type Drawn = (typeof DRAWN)[number];

/** A resource as the service represents it; only the members the picture reads are typed. */
export interface Resource {
  readonly id: string;
  readonly ts: number;
  readonly name?: string;
  readonly [member: string]: unknown;
}

/** An element's id in the picture: `<collection>/<id>`, as in the resource's address. */
export const elementId = (collection: string, id: string): string => `${collection}/${id}`;

/**
 * The element a reference points at: the last two segments of its `href` (`…/ports/p1` →
 * `ports/p1`), or undefined when it is not the address of a resource.
 */
export function referenced(reference: unknown): string | undefined {
  const href = typeof reference === 'string' ? reference : typeof reference === 'object' && reference !== null ? (reference as { href?: unknown }).href : undefined;
  if (typeof href !== 'string') return undefined;
  const match = /\/([A-Za-z]+)\/([^/?#]+)\/?(?:[?#].*)?$/.exec(href);
  if (!match) return undefined;
  try {
    return elementId(match[1]!, decodeURIComponent(match[2]!));
  } catch {
    return undefined;
  }
}

/** The references of an array member (`ports`, `nodes`, `hops`, …), as element ids. */
export function references(resource: Resource, member: string): string[] {
  const value = resource[member];
  if (!Array.isArray(value)) return [];
  return value.map(referenced).filter((id): id is string => id !== undefined);
}

/** A link's ends and whether it is directed (`{source, sink}`) or not (an array of two). */
export function linkEnds(link: Resource): { source: string; target: string; directed: boolean } | undefined {
  const endpoints = link.endpoints;
  if (Array.isArray(endpoints) && endpoints.length === 2) {
    const [source, target] = endpoints.map(referenced);
    return source && target ? { source, target, directed: false } : undefined;
  }
  if (typeof endpoints === 'object' && endpoints !== null) {
    const { source, sink } = endpoints as { source?: unknown; sink?: unknown };
    const [from, to] = [referenced(source), referenced(sink)];
    return from && to ? { source: from, target: to, directed: link.directed === true } : undefined;
  }
  return undefined;
}

export class Topology {
  private readonly held = new Map<Drawn, Map<string, Resource>>(DRAWN.map((c) => [c, new Map()]));

  /** The resources of a collection. */
  of(collection: Drawn): ReadonlyMap<string, Resource> {
    return this.held.get(collection)!;
  }

  get(element: string): Resource | undefined {
    const slash = element.indexOf('/');
    return this.held.get(element.slice(0, slash) as Drawn)?.get(element.slice(slash + 1));
  }

  /** Keep `resource` unless a newer representation is held (events may repeat what a list read). */
  put(collection: Drawn, resource: Resource): void {
    const resources = this.held.get(collection)!;
    const known = resources.get(resource.id);
    if (!known || known.ts <= resource.ts) resources.set(resource.id, resource);
  }

  remove(collection: Drawn, id: string): void {
    this.held.get(collection)!.delete(id);
  }

  /** How many resources of each collection are held. */
  counts(): Record<Drawn, number> {
    return Object.fromEntries(DRAWN.map((c) => [c, this.held.get(c)!.size])) as Record<Drawn, number>;
  }

  /** The paths through an element: its hops include it (a node stands for its ports too; a link, both its ends). */
  pathsThrough(element: string): Resource[] {
    const touched = new Set([element]);
    const resource = this.get(element);
    if (resource && element.startsWith('nodes/')) for (const port of references(resource, 'ports')) touched.add(port);
    if (resource && element.startsWith('links/')) {
      const ends = linkEnds(resource);
      if (ends) return [...this.of('paths').values()].filter((path) => onPath(references(path, 'hops'), ends));
    }
    return [...this.of('paths').values()].filter((path) => references(path, 'hops').some((hop) => touched.has(hop)));
  }
}

/** Whether a link lies on a path: both its ends are hops of it. */
export function onPath(hops: readonly string[], ends: { readonly source: string; readonly target: string }): boolean {
  return hops.includes(ends.source) && hops.includes(ends.target);
}
