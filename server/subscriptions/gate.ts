import type { SubscriptionLimits } from '../config.js';

/**
 * A subscriber refused, or let go, in words every transport sends as they are: an event stream
 * as its HTTP answer, a WebSocket as its upgrade's answer or as an error frame.
 */
export interface Refusal {
  readonly admitted: false;
  readonly status: 400 | 503;
  readonly message: string;
  /** Seconds after which the same request may succeed (Retry-After), where waiting helps. */
  readonly retryAfter?: number;
}

/** A subscriber's place: the bound of its unsent bytes, the subscriptions it may hold, and its leaving. */
export interface Ticket {
  readonly admitted: true;
  /** Most bytes the subscriber may have unsent (MAX_SUBSCRIBER_BUFFER_BYTES). */
  readonly bufferedBytes: number;
  /**
   * Whether `bytes` more may be queued behind what the subscriber has unsent; when not, it does
   * not read, and the transport lets it go with `SubscriberGate.slow`.
   */
  fits(bytes: number): boolean;
  /** A refusal when a subscriber holding `count` subscriptions may add none (a WebSocket's messages); undefined when it may. */
  another(count: number): Refusal | undefined;
  /** Give the place back; later calls do nothing. */
  leave(): void;
}

/**
 * The one admission of subscribers (WebSockets and event streams) of this process: how many may
 * be connected at once, how many unsent bytes each may hold, how many subscriptions one
 * WebSocket may carry, and how each refusal is worded. A transport asks `admit` and translates
 * the answer; a new limit touches the configuration, this gate and a test.
 */
export class SubscriberGate {
  /** Why a subscriber that does not read is let go (its unsent data passed the bound). */
  static readonly slow = 'the subscriber does not read: unsent data over the limit';
  /** The refusal when where the subscriber starts could not be read from the event log. */
  static readonly feedUnavailable: Refusal = { admitted: false, status: 503, message: 'the change feed is unavailable; try again', retryAfter: 1 };

  /** Each open subscriber's unsent bytes, for /metrics. */
  private readonly unsent = new Set<() => number>();

  constructor(private readonly limits: Pick<SubscriptionLimits, 'connections' | 'perConnection' | 'bufferedBytes'>) {}

  /** A place for one more subscriber whose unsent bytes `unsent` tells, or the refusal when none is free. */
  admit(unsent: () => number): Ticket | Refusal {
    if (this.unsent.size >= this.limits.connections) {
      return { admitted: false, status: 503, message: `at most ${this.limits.connections} subscribers at once`, retryAfter: 5 };
    }
    // One closure per ticket, so the same probe admitted twice holds two places.
    const probe = (): number => unsent();
    this.unsent.add(probe);
    const { bufferedBytes, perConnection } = this.limits;
    return {
      admitted: true,
      bufferedBytes,
      fits: (bytes) => unsent() + bytes <= bufferedBytes,
      another: (count) => (count >= perConnection ? { admitted: false, status: 400, message: `at most ${perConnection} subscriptions on one socket` } : undefined),
      leave: () => void this.unsent.delete(probe),
    };
  }

  /** Subscribers connected now. */
  get count(): number {
    return this.unsent.size;
  }

  /** Bytes waiting to be sent to every subscriber of this process. */
  bufferedBytes(): number {
    let bytes = 0;
    for (const probe of this.unsent) bytes += probe();
    return bytes;
  }
}
