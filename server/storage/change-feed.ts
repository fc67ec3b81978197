import type { Logger } from '../log.js';
import type { Uses } from './contract/database.js';
import { onPrimary } from './on-primary.js';
import { StorageUnavailable } from './errors.js';
import { EventLog, KEY_READ_EVENTS, type EventLogDatabase } from './events.js';
import { type ChangeEvent, type Position, START } from './contract/events.js';

/** What the change feed uses of the database (and its EventLog). */
export type ChangeFeedDatabase = EventLogDatabase & Uses<'keys' | 'standbys', { adapter: 'announcements'; features: 'history' }>;

/** Events read per round trip: as many as the key reader reads at once (see KEY_READ_EVENTS). */
const BATCH = KEY_READ_EVENTS;
/**
 * How often the feed looks at the event log on its own: while anyone listens, the bound on the
 * delay of a change whose announcement was lost (a dropped LISTEN connection, a relay that
 * failed, a process that died between its commit and its announcement); while nobody listens,
 * how stale its position may grow (a first listener then has at most this much to read past).
 */
const POLL_MS = 1_000;

export type ChangeListener = (events: readonly ChangeEvent[]) => void;

/**
 * Every committed change of the database, as it happens, for this process: after a write of its
 * own, when another process announces one (PostgreSQL NOTIFY, or the cluster primary's relay),
 * and at a slow poll. It always reads the changes back from the event log after the last one it
 * delivered, in the log's order (see Position), so each is delivered once, each resource's in
 * commit order, and none is lost to a lost message. While nobody listens it reads nothing after a
 * write: it only moves its position to the log's end once per poll.
 */
export class ChangeFeed {
  readonly log: EventLog;
  private position: Position = START;
  private readonly listeners = new Set<ChangeListener>();
  private reading: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private stopListening: (() => Promise<void>) | undefined;

  constructor(
    private readonly db: ChangeFeedDatabase,
    private readonly logger: Logger,
  ) {
    this.log = new EventLog(db);
  }

  /** Start after the newest committed event, and hear other processes' announcements. */
  async start(): Promise<void> {
    this.position = await this.log.last();
    // Logged once per change of state (rest-contract §16): reopening is tried with a back-off,
    // and each failed try during a failover had been a warning of its own.
    let lost = false;
    this.stopListening = await this.db.dialect.adapter.announcements.listen(
      () => {
        if (lost) {
          lost = false;
          this.logger.info('change announcements: connection reopened');
        }
        this.poke();
      },
      (error) => {
        if (lost) this.logger.debug({ err: error }, 'change announcements: reopening failed; trying again');
        else this.logger.warn({ err: error }, 'change announcements: connection lost; reopening (the log is polled meanwhile)');
        lost = true;
      },
    );
    this.timer = setInterval(() => {
      this.poke(true);
      if (this.listeners.size > 0) void this.watchHorizon();
    }, POLL_MS);
    this.timer.unref();
  }

  /** The position of the last event delivered: everything up to it has been. */
  get delivered(): Position {
    return this.position;
  }

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    if (this.listeners.size === 1) this.db.dialect.adapter.announcements.interest(true);
    return () => {
      if (this.listeners.delete(listener) && this.listeners.size === 0) this.db.dialect.adapter.announcements.interest(false);
    };
  }

  /**
   * Something may have been committed: read what is new (once, however often poked meanwhile).
   * Without listeners only the poll (`idle`) does anything: it moves the position to the end.
   */
  poke(idle = false): void {
    if (this.listeners.size === 0 && !idle) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = this.drain()
      .catch((error: unknown) => {
        // An outage the storage logs once per change of state (PostgreSQL, rest-contract §16) is not logged again here.
        const errors = this.db.dialect.driver.errors;
        if (error instanceof StorageUnavailable ? error.reported : errors.reportsOutages && errors.isUnavailable(error)) this.logger.debug({ err: error }, 'reading the event log failed; the next change or poll tries again');
        else this.logger.warn({ err: error }, 'reading the event log failed; the next change or poll tries again');
      })
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
        if (last > this.position) this.position = last;
        return;
      }
    }
    for (;;) {
      const events = await this.log.after(this.position, BATCH);
      if (events.length === 0) return;
      this.position = events.at(-1)!.position;
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

  private lastWatch = 0;
  private warnedOf: unknown;

  /**
   * Every ten seconds while anyone listens: a warning naming the session whose open transaction
   * holds back the delivery of changes (PostgreSQL; see HistorySql.heldBy), once per session.
   */
  private async watchHorizon(): Promise<void> {
    const sql = this.db.dialect.features.history.heldBy;
    if (sql === undefined || performance.now() - this.lastWatch < 10_000) return;
    this.lastWatch = performance.now();
    try {
      // The primary's sessions hold the horizon back, never a standby's.
      const row = await onPrimary(this.db.standbys, () => this.db.keys.one(sql, []));
      if (!row || row.pid === this.warnedOf) return;
      this.warnedOf = row.pid;
      this.logger.warn(
        { pid: row.pid, application: row.application, state: row.state, seconds: Math.round(Number(row.seconds)) },
        'changes held back: a transaction of this PostgreSQL server has been open for long; nothing committed since it began is delivered until it ends',
      );
    } catch {
      // The next poll's read reports an unreachable database.
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.stopListening?.();
    await this.reading;
  }
}
