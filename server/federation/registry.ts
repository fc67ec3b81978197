import type { ResourceStore } from '../storage/resource-store.js';
import type { Manifest } from '../storage/manifests.js';
import { expiresAt } from './expiry.js';
import { normalAccessPoint, REGISTER } from '../kinds/register-kind.js';

/** An unexpired registration as a lookup uses it. */
export interface Registered {
  readonly accessPoint: string;
  readonly depth: number;
  /** Until when it counts (µs, the unit of `ts`): `ts + ttl` and the grace of half the ttl (expiry.ts). */
  readonly expires: number;
  /** Collection → field → the values it may hold, or `*`. */
  readonly manifests: ReadonlyMap<string, ReadonlyMap<string, ReadonlySet<string> | '*'>>;
}

/** How long a lookup answers from the registrations it read before reading them again (another process may have stored one). */
const FRESH_MS = 1_000;

/**
 * The registrations a lookup answers from (rest-contract §13): read from `/register` at most
 * once a second and whenever this process stores one, parsed once, so a redirect costs a walk
 * over the manifests in memory, not a read. Values are kept as their text (`"a"` → `a`, `3` →
 * `3`), the form a query string gives them.
 */
export class Registry {
  private loaded: { readonly at: number; readonly all: readonly Registered[] } | undefined;
  private loading: Promise<readonly Registered[]> | undefined;

  constructor(private readonly store: ResourceStore) {
    store.onCommitted(() => {
      this.loaded = undefined;
    });
  }

  /** Every registration stored, unexpired or not (expired ones are filtered by `unexpired`). */
  async all(): Promise<readonly Registered[]> {
    if (this.loaded && Date.now() - this.loaded.at < FRESH_MS) return this.loaded.all;
    this.loading ??= this.read().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  /** The registrations whose `ts + ttl` plus its grace (half the ttl) has not passed. */
  async unexpired(): Promise<Registered[]> {
    const now = Date.now() * 1000;
    return (await this.all()).filter((r) => r.expires > now);
  }

  private async read(): Promise<readonly Registered[]> {
    const all: Registered[] = [];
    for await (const { ts, doc } of this.store.list(REGISTER, { conditions: [], sort: [] })) {
      const parsed = registered(ts, JSON.parse(doc) as Record<string, unknown>);
      if (parsed) all.push(parsed);
    }
    this.loaded = { at: Date.now(), all };
    return all;
  }
}

function registered(ts: number, doc: Record<string, unknown>): Registered | undefined {
  const accessPoint = normalAccessPoint(doc.accessPoint);
  if (accessPoint === undefined) return undefined;
  const ttl = typeof doc.ttl === 'number' && doc.ttl > 0 ? doc.ttl : 0;
  const properties = (doc.properties ?? {}) as { summary?: unknown; depth?: unknown };
  const manifests = new Map<string, Map<string, Set<string> | '*'>>();
  for (const manifest of Array.isArray(properties.summary) ? (properties.summary as Manifest[]) : []) {
    const fields = new Map<string, Set<string> | '*'>();
    for (const [field, set] of Object.entries(manifest.properties ?? {})) fields.set(field, set === '*' ? '*' : new Set((set as unknown[]).map((v) => String(v))));
    manifests.set(manifest.$collection, fields);
  }
  return { accessPoint, depth: typeof properties.depth === 'number' ? properties.depth : 0, expires: expiresAt(ts, ttl), manifests };
}
