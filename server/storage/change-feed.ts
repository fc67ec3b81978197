import type { Logger } from '../log.js';
import type { Database } from './database.js';
import { EventLog, KEY_READ_EVENTS, type ChangeEvent } from './events.js';

/** Events read per round trip: as many as the key reader reads at once (see KEY_READ_EVENTS). */
const BATCH = KEY_READ_EVENTS;
/**
 * How often the feed looks at the event log on its own while anyone listens: the bound on the
 * delay of a change whose announcement was lost (a dropped LISTEN connection, a relay that
 * failed), which the next announcement would otherwise have to find.
 */
const POLL_MS = 1_000;

export type ChangeListener = (events: readonly ChangeEvent[]) => void;

/**
 * Every committed change of the database, as it happens, for this process: after a write of its
 * own, when another process announces one (PostgreSQL NOTIFY, or the cluster primary's relay),
 * and at a slow poll. It always reads the changes back from the event log after the last one it
 * delivered, so each is delivered once, in commit order, and none is lost to a lost message.
 */
export class ChangeFeed {
  readonly log: EventLog;
  private position = 0;
  private readonly listeners = new Set<ChangeListener>();
  private reading: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private stopListening: (() => Promise<void>) | undefined;

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
  ) {
    this.log = new EventLog(db);
  }

  /** Start after the newest committed event, and hear other processes' announcements. */
  async start(): Promise<void> {
    this.position = await this.log.last();
    this.stopListening = await this.db.dialect.announcements.listen(
      () => this.poke(),
      (error) => this.logger.warn({ err: error }, 'change announcements: connection lost; reopening'),
    );
    this.timer = setInterval(() => {
      if (this.listeners.size > 0) this.poke();
    }, POLL_MS);
    this.timer.unref();
  }

  /** The id of the last event delivered: everything up to it has been. */
  get delivered(): number {
    return this.position;
  }

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Something may have been committed: read what is new (once, however often poked meanwhile). */
  poke(): void {
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = this.drain()
      .catch((error: unknown) => this.logger.warn({ err: error }, 'reading the event log failed; the next change or poll tries again'))
      .finally(() => {
        this.reading = undefined;
        if (this.again) {
          this.again = false;
          this.poke();
        }
      });
  }

  private async drain(): Promise<void> {
    // Nobody listens: keep up with the log's end only, without reading documents. Unless someone
    // began to listen meanwhile: they were promised every event after the position they saw.
    if (this.listeners.size === 0) {
      const last = await this.log.last();
      if (this.listeners.size === 0) {
        this.position = Math.max(this.position, last);
        return;
      }
    }
    for (;;) {
      const events = await this.log.after(this.position, BATCH);
      if (events.length === 0) return;
      this.position = events.at(-1)!.event;
      for (const listener of this.listeners) {
        try {
          listener(events);
        } catch (error) {
          this.logger.error({ err: error }, 'a change listener failed');
        }
      }
      if (events.length < BATCH) return;
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.stopListening?.();
    await this.reading;
  }
}
