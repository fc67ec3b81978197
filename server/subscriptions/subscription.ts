import type { KindDescriptor } from '../../generated/rest/handler.js';
import type { EventCondition } from '../query/tree.js';
import type { ChangeAction, Floor } from '../storage/contract/events.js';

// What the hub hands on and what it files: a change as subscribers receive it, and a
// subscription. The hub (hub.ts), its registry (registry.ts) and the transports share them.

/** A change as subscribers receive it. */
export interface Published {
  readonly event: number;
  readonly action: ChangeAction;
  /** A PUT that a POST of a live id made: UNIS's WebSocket publishes it as POST (frames.ts). */
  readonly reposted: boolean;
  readonly kind: KindDescriptor;
  readonly id: string;
  readonly ts: number;
  /** The collection a UNIS frame names in its headers: the kind's, or an outside collection's own (`data/<mid>`). */
  readonly collection: string;
  /** What the change carries, as JSON text: the representation clients see, or `{"id"}` of a deletion. */
  readonly data: string;
}

/** Interest in changes: of a collection (or one resource of it) that meet the conditions. */
export interface Subscription {
  readonly kind: KindDescriptor;
  readonly id?: string;
  readonly conditions: readonly EventCondition[];
  /** Changes it is not sent: it has them, or they were committed before it asked. */
  readonly floor?: Floor;
  /** Called for each change that matches, in event order; must not throw. */
  deliver(change: Published): void;
}
