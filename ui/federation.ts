import type { ElementDefinition } from 'cytoscape';
import type { Http } from '../generated/client/rest.js';
import { elementsOf } from './graph.js';
import { DRAWN, Topology, type Resource } from './topology.js';

/**
 * /ui of a lookup (LOOKUP=true, docs/federation.md): every instance's topology, read with
 * `federate=true` (one query over all the registered instances) and drawn side by side, each
 * instance in a box of its own colour named by its accessPoint. Elements keep the ids their
 * instance gave them, prefixed with the instance's place in the legend, so two instances may
 * use the same ids.
 */

/** One colour per instance, in the legend's order (then again from the start). */
export const COLOURS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#ca8a04', '#db2777'] as const;

export interface Instance {
  readonly accessPoint: string;
  readonly colour: string;
  readonly topology: Topology;
  /** Why the lookup got nothing from it (its `Federation-Partial` reason), if it failed. */
  failure?: string;
}

export interface Federated {
  readonly instances: readonly Instance[];
  readonly elements: ElementDefinition[];
}

/** Whether the service is a lookup: its `/about` says it has children. */
export async function isLookup(http: Http): Promise<boolean> {
  const about = (await http.request('GET', '/about')).body as { haschild?: unknown } | undefined;
  return about?.haschild === true;
}

/** The instances registered with the lookup and their topologies, read with `federate=true`. */
export async function readFederated(http: Http): Promise<Federated> {
  // The unexpired instances as the lookup itself counts them (its grace included: server/federation/
  // expiry.ts), not decided again here: a query on `ts` alone names every unexpired instance
  // (rest-contract §13); `[]` when nothing is registered.
  const named = (await http.request('GET', `/${DRAWN[0]}?ts=gte=0`)).body as { instances?: string[] } | unknown[];
  const accessPoints = [...new Set(Array.isArray(named) ? [] : (named.instances ?? []))].sort();
  const instances: Instance[] = accessPoints.map((accessPoint, i) => ({ accessPoint, colour: COLOURS[i % COLOURS.length]!, topology: new Topology() }));
  // The longest accessPoint that starts an element's selfRef is the instance that answered it.
  const byLength = [...instances].sort((a, b) => b.accessPoint.length - a.accessPoint.length);
  const answers = await Promise.all(DRAWN.map(async (collection) => [collection, await http.request('GET', `/${collection}?federate=true`)] as const));
  for (const [collection, answer] of answers) {
    for (const resource of answer.body as Resource[]) {
      const selfRef = typeof resource.selfRef === 'string' ? resource.selfRef : '';
      byLength.find((instance) => selfRef.startsWith(`${instance.accessPoint}/`))?.topology.put(collection, resource);
    }
    for (const [, accessPoint, reason] of (answer.headers.get('federation-partial') ?? '').matchAll(/([^\s,;]+); reason="([^"]*)"/g)) {
      const instance = instances.find((i) => i.accessPoint === accessPoint);
      if (instance) instance.failure = reason;
    }
  }
  return { instances, elements: instances.flatMap((instance, i) => elementsOfInstance(instance, `i${i}:`)) };
}

/** An instance's box and its topology's elements inside it, every id prefixed with `prefix`. */
function elementsOfInstance(instance: Instance, prefix: string): ElementDefinition[] {
  const box = `${prefix}instance`;
  const inside = elementsOf(instance.topology).map((element): ElementDefinition => {
    const data: Record<string, unknown> = { ...element.data, id: prefix + element.data.id!, instance: instance.accessPoint, colour: instance.colour };
    for (const key of ['parent', 'node', 'source', 'target'] as const) if (typeof element.data[key] === 'string') data[key] = prefix + (element.data[key] as string);
    if (element.group !== 'edges' && data.parent === undefined) data.parent = box;
    return { ...element, data } as ElementDefinition;
  });
  return [{ group: 'nodes', data: { id: box, kind: 'instances', label: instance.failure ? `${instance.accessPoint} (${instance.failure})` : instance.accessPoint, instance: instance.accessPoint, colour: instance.colour } }, ...inside];
}

/** The element of a prefixed id, as its instance answered it. */
export function resourceOf(federated: Federated, id: string): Resource | undefined {
  const match = /^i(\d+):(.*)$/.exec(id);
  return match ? federated.instances[Number(match[1])]?.topology.get(match[2]!) : undefined;
}

/** The legend: each instance's colour and accessPoint, and why it is missing when it failed. */
export function showLegend(legend: HTMLElement, instances: readonly Instance[]): void {
  const items = instances.map((instance) => {
    const item = document.createElement('li');
    const swatch = document.createElement('i');
    swatch.style.background = instance.colour;
    item.dataset.accessPoint = instance.accessPoint;
    item.append(swatch, instance.failure ? `${instance.accessPoint} — ${instance.failure}` : instance.accessPoint);
    if (instance.failure) item.className = 'failed';
    return item;
  });
  const list = document.createElement('ul');
  list.append(...items);
  const title = document.createElement('span');
  title.textContent = instances.length === 0 ? 'No instance is registered with this lookup' : `${instances.length} instances registered with this lookup:`;
  legend.replaceChildren(title, list);
  legend.hidden = false;
}
