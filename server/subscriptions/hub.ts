import type { KindDescriptor } from '../../generated/rest/handler.js';
import type { Logger } from '../log.js';
import { matches, type Candidate } from '../query/match.js';
import type { EventCondition } from '../query/tree.js';
import type { Representations } from '../wire/representation.js';
import type { ChangeFeed } from '../storage/change-feed.js';
import type { ChangeEvent, Floor, Position } from '../storage/contract/events.js';
import type { ResourceStore } from '../storage/resource-store.js';
import { Registry } from './registry.js';
import type { Published, Subscription } from './subscription.js';

/** Events read back per round trip when a subscriber catches up from the event log. */
const REPLAY_BATCH = 500;

/**
 * A collection whose changes are not documents of the resource store (the measurement store's
 * `data`): what an event carries is read from elsewhere, and published as it is read.
 */
export interface OutsideCollection {
  readonly kind: KindDescriptor;
  /** The JSON text each event carries; an event left out has nothing to publish any more. */
  texts(events: readonly ChangeEvent[]): Promise<ReadonlyMap<number, string>>;
  /** The collection the frames of a change of `id` name (UNIS: `data/<mid>`). */
  frameCollection(id: string): string;
}

/**
 * One change, rendered and parsed at most once however many subscriptions look at it. A deletion
 * matches as the resource was before it (a subscriber to `?name=x` hears that x is gone).
 */
class Prepared {
  readonly published: Published;
  /** The resource as subscriptions match it; null: a deletion of a version no longer readable. */
  private candidate: Candidate | null | undefined;

  constructor(
    private readonly change: ChangeEvent,
    readonly kind: KindDescriptor,
    representations: Representations,
    private readonly hub: Hub,
    /** A change of an outside collection: its frames' collection, and what it carries unless it is a deletion. */
    outside?: { readonly collection: string; readonly text?: string },
  ) {
    const data = outside?.text ?? (change.doc === null ? JSON.stringify({ id: change.id }) : representations.render(kind, { id: change.id, ts: change.ts, doc: change.doc }));
    this.published = { event: change.event, action: change.action, reposted: change.reposted, kind, id: change.id, ts: change.ts, collection: outside?.collection ?? kind.collection, data };
  }

  /** The resource as subscriptions see it; a promise only when a deleted one must be read first. */
  resource(): Candidate | null | Promise<Candidate | null> {
    if (this.candidate !== undefined) return this.candidate;
    const { id, ts } = this.change;
    if (this.change.action !== 'DELETE') return (this.candidate = { id, ts, document: JSON.parse(this.published.data) });
    return this.hub.endedVersion(this.change, this.kind).then((document) => (this.candidate = document === undefined ? null : { id, ts, document }));
  }

  /** Whether `conditions` hold; a promise only when a deleted resource must be read first. */
  matches(conditions: readonly EventCondition[]): boolean | Promise<boolean> {
    if (conditions.length === 0) return true;
    const resource = this.resource();
    if (resource instanceof Promise) return resource.then((r) => r !== null && matches(r, conditions));
    return resource !== null && matches(resource, conditions);
  }
}

/**
 * The subscriptions of this process and the change feed behind them. Each change of the feed is
 * offered to the subscriptions that may want it (see Registry), once, in order; a subscriber that
 * starts from an earlier event (SSE's Last-Event-ID) catches up from the event log first, through
 * the same matching. Without subscriptions the hub does not listen to the feed, which then reads
 * no documents.
 */
export class Hub {
  private readonly registry = new Registry();
  private readonly kinds: ReadonlyMap<string, KindDescriptor>;
  private readonly outside: ReadonlyMap<string, OutsideCollection>;
  private queue: Promise<void> = Promise.resolve();
  /** The position of the last event offered to the subscriptions. */
  private offered: Position = 0n;
  private unlisten: (() => void) | undefined;

  constructor(
    private readonly feed: ChangeFeed,
    private readonly store: ResourceStore,
    private readonly representations: Representations,
    kinds: readonly KindDescriptor[],
    private readonly logger: Logger,
    outside: readonly OutsideCollection[] = [],
  ) {
    this.kinds = new Map([...kinds, ...outside.map((o) => o.kind)].map((k) => [k.collection, k]));
    this.outside = new Map(outside.map((o) => [o.kind.collection, o]));
  }

  /** The number of subscriptions held. */
  get size(): number {
    return this.registry.size;
  }

  /** Register `subscription`; it hears every change after the position returned. Returns how to end it. */
  add(subscription: Subscription): { readonly after: Position; readonly remove: () => void } {
    if (!this.unlisten) {
      this.offered = this.feed.delivered;
      this.unlisten = this.feed.subscribe((events) => {
        this.queue = this.queue.then(() => this.offer(events)).catch((error: unknown) => this.logger.error({ err: error }, 'publishing changes failed'));
      });
    }
    const take = this.registry.add(subscription);
    return {
      after: this.offered,
      remove: () => {
        take();
        if (this.registry.size === 0 && this.unlisten) {
          this.unlisten();
          this.unlisten = undefined;
        }
      },
    };
  }
  /**
   * Deliver to `subscriptions` the changes after `from` up to `until` (the `after` of their add)
   * from the event log, in event order: what a reconnecting client missed. Each change goes to the
   * subscriptions of its collection (and resource) whose conditions it meets. Resolves once they
   * are all delivered; between batches it waits for `ready` (the subscriber can take more).
   */
  async replay(subscriptions: readonly Subscription[], from: Position, until: Position, ready: () => Promise<void>): Promise<void> {
    const collections = [...new Set(subscriptions.map((s) => s.kind.collection))];
    // One resource's stream reads only its rows; a stream of several reads their collections'.
    const id = subscriptions.length === 1 ? subscriptions[0]!.id : undefined;
    for (let position = from; position < until; ) {
      const events = await this.feed.log.after(position, REPLAY_BATCH, collections, id);
      const due = events.filter((e) => e.position <= until);
      const texts = await this.outsideTexts(due);
      for (const event of due) {
        for (const subscription of subscriptions) {
          if (subscription.kind.collection !== event.kind || (subscription.id !== undefined && subscription.id !== event.id)) continue;
          const prepared = this.prepare(event, subscription.kind, texts);
          if (prepared && (await prepared.matches(subscription.conditions))) subscription.deliver(prepared.published);
        }
      }
      if (due.length < REPLAY_BATCH) return;
      position = due.at(-1)!.position;
      await ready();
    }
  }

  /** The changes committed before now, as the event log says now: a new subscriber's floor. */
  now(): Promise<Floor> {
    return this.feed.log.now();
  }

  /** The position of the event with id `event` (an SSE event id); undefined for an id the log does not have. */
  positionOf(event: number): Promise<Position | undefined> {
    return this.feed.log.position(event);
  }

  /** The document of the version a deletion ended, as clients saw it. */
  async endedVersion(change: ChangeEvent, kind: KindDescriptor): Promise<unknown> {
    const ts = await this.feed.log.endedVersion(change.kind, change.id, change.ts);
    const version = ts === undefined ? undefined : await this.store.version(change.kind, change.id, ts);
    return version ? JSON.parse(this.representations.render(kind, version)) : undefined;
  }

  /**
   * What the events of outside collections carry, read in one go per collection. A deletion
   * carries `{"id"}` like any other.
   */
  private async outsideTexts(events: readonly ChangeEvent[]): Promise<ReadonlyMap<number, string>> {
    const texts = new Map<number, string>();
    for (const [collection, outside] of this.outside) {
      const wanted = events.filter((e) => e.kind === collection && e.action !== 'DELETE');
      if (wanted.length > 0) for (const [event, text] of await outside.texts(wanted)) texts.set(event, text);
    }
    return texts;
  }

  /** A change ready to match and deliver; undefined when an outside one has nothing left to publish. */
  private prepare(event: ChangeEvent, kind: KindDescriptor, texts: ReadonlyMap<number, string>): Prepared | undefined {
    const outside = this.outside.get(event.kind);
    if (!outside) return new Prepared(event, kind, this.representations, this);
    const collection = outside.frameCollection(event.id);
    if (event.action === 'DELETE') return new Prepared(event, kind, this.representations, this, { collection });
    const text = texts.get(event.event);
    return text === undefined ? undefined : new Prepared(event, kind, this.representations, this, { collection, text });
  }

  private async offer(events: readonly ChangeEvent[]): Promise<void> {
    // Interest is asked again per event below: a subscription added while this batch is offered
    // hears the events after its floor.
    const texts = await this.outsideTexts(events.filter((e) => this.registry.interest(e.kind, e.id).any));
    for (const event of events) {
      const kind = this.kinds.get(event.kind);
      const interest = this.registry.interest(event.kind, event.id);
      const prepared = kind && interest.any ? this.prepare(event, kind, texts) : undefined;
      if (prepared) {
        const resource = interest.byValue ? await prepared.resource() : undefined;
        for (const subscription of this.registry.candidates(event.kind, event.id, resource?.document)) {
          if (subscription.floor?.covers(event)) continue;
          const matched = prepared.matches(subscription.conditions);
          if (matched === true || (matched !== false && (await matched))) subscription.deliver(prepared.published);
        }
      }
      this.offered = event.position;
    }
  }
}
