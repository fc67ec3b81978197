import type { Limits } from '../../config.js';
import type { ResourceStore } from '../../storage/resource-store.js';
import type { EventStreamOptions } from '../../subscriptions/event-stream.js';
import type { CompositePlanner } from '../composite.js';
import type { Representations } from '../../wire/representation.js';
import type { Responder } from '../respond.js';

/** What the REST operations share: storage, the wire form of resources, limits, the one responder. */
export interface OperationContext {
  readonly store: ResourceStore;
  readonly representations: Representations;
  readonly limits: Limits;
  readonly respond: Responder;
  readonly planner: CompositePlanner;
  /** Where `Accept: text/event-stream` reads go. */
  readonly events: EventStreamOptions;
}
