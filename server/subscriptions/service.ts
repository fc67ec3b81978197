import type { Server } from 'node:http';
import type { KindDescriptor } from '../../generated/rest/handler.js';
import type { Authenticator } from '../auth.js';
import type { SubscriptionLimits } from '../config.js';
import type { Logger } from '../log.js';
import type { Representations } from '../wire/representation.js';
import { ChangeFeed } from '../storage/change-feed.js';
import type { Database } from '../storage/contract/database.js';
import type { ResourceStore } from '../storage/resource-store.js';
import { SubscriberGate } from './gate.js';
import type { EventStreamOptions } from './event-stream.js';
import { Hub, type OutsideCollection } from './hub.js';
import { attachUnisSockets } from './unis-socket.js';

export interface SubscriptionOptions {
  readonly database: Database;
  readonly store: ResourceStore;
  readonly representations: Representations;
  readonly kinds: readonly KindDescriptor[];
  readonly authenticator: Authenticator;
  readonly limits: SubscriptionLimits;
  readonly logger: Logger;
  /** Collections whose changes are not resource documents (the measurement store's data). */
  readonly outside?: readonly OutsideCollection[];
}

export interface Subscriptions {
  /** For the REST operations' event streams. */
  readonly events: EventStreamOptions;
  /** Something was committed elsewhere (the cluster primary's relay): read the event log. */
  poke(): void;
  /** UNIS's WebSocket endpoints on `server`. */
  attach(server: Server): void;
  /** For /metrics: open subscriber connections, and the bytes they hold unsent. */
  gauges(): { subscribers: number; bufferedBytes: number };
  /** Close every subscriber and stop the feed. */
  close(): Promise<void>;
}

/**
 * Publish/subscribe of changes (docs/subscriptions.md) for one process: the change feed over the
 * event log, the hub of subscriptions, UNIS's WebSocket endpoints and the event streams, under
 * one admission gate (gate.ts). Writes of this process poke the feed as they commit.
 */
export async function startSubscriptions(options: SubscriptionOptions): Promise<Subscriptions> {
  const { database, store, representations, kinds, authenticator, limits, logger, outside = [] } = options;
  const feed = new ChangeFeed(database, logger);
  await feed.start();
  store.onCommitted(() => feed.poke());
  const hub = new Hub(feed, store, representations, kinds, logger, outside);
  const gate = new SubscriberGate(limits);
  const events: EventStreamOptions = { hub, gate, logger, streams: new Set() };
  let sockets: { close(): void } | undefined;
  return {
    events,
    poke: () => feed.poke(),
    gauges: () => ({ subscribers: gate.count, bufferedBytes: gate.bufferedBytes() }),
    attach(server) {
      sockets = attachUnisSockets(server, { hub, store, kinds: [...kinds, ...outside.map((o) => o.kind)], authenticator, gate, limits, logger });
    },
    async close() {
      sockets?.close();
      for (const close of [...events.streams]) close();
      await feed.stop();
    },
  };
}
