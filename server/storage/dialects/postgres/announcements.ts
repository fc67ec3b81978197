import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Announcements } from '../../contract/adapter.js';
import type { PostgresSettings } from './settings.js';
import type { WritableHost } from './primary.js';

/** The first wait before a lost LISTEN connection is opened again: doubled after each failed try. */
const FIRST_PAUSE_MS = 100;
/** The longest wait before a lost LISTEN connection is opened again. */
const RECONNECT_MAX_MS = 5_000;
/**
 * Least time between two NOTIFYs of one process: the commits of that time share one. Each NOTIFY
 * is a transaction of its own that queues on PostgreSQL's notification lock, and wakes every
 * listening process into a read of the event log; this bounds both to 200 a second per process,
 * and adds at most this much to the time a change takes to reach another process's subscribers.
 */
const ANNOUNCE_MS = 5;
/** How often a process with subscribers says so again, so that processes started since, or that missed it, know. */
const INTEREST_REFRESH_MS = 10_000;
/** A process not heard from for this long is taken to listen no more (it died without saying so). */
const INTEREST_TTL_MS = 3 * INTEREST_REFRESH_MS;
/**
 * After (re)opening its LISTEN connection a process asks who listens; until the answers can have
 * come it announces every commit, as if someone did.
 */
const ASK_GRACE_MS = 2_000;

/**
 * The channel names of a database (one per schema: databases in separate schemas of one server
 * never hear each other): commits are announced on `commits`, which only processes with
 * subscribers listen to; `interest` carries who listens (`+<token>`, `-<token>`) and the question
 * of a process that has just connected (`?`), and every process listens to it; `lease` is the
 * read lease's (read-lease.ts).
 */
export function announcementChannels(schema: string | undefined): { commits: string; interest: string; lease: string } {
  // A channel is an identifier of at most 63 bytes; a schema name may be as long on its own.
  const hash = createHash('sha256').update(schema ?? '').digest('hex').slice(0, 24);
  return { commits: `topocat_${hash}`, interest: `topocat_${hash}_interest`, lease: `topocat_lease_${hash}` };
}

/**
 * LISTEN/NOTIFY, on one connection of its own per process, which both listens and announces.
 * Announcements are sent after the commits they tell of, never inside a write transaction: a
 * NOTIFY there takes a lock on the database at COMMIT that every other writer that notifies must
 * wait for, for the length of a commit. Each carries this process's token, so a process does not
 * wake itself (its own writes poke its feed directly).
 *
 * Only processes with subscribers need to hear of other processes' commits (their change feed
 * reads the log then; without listeners it reads nothing), so a commit is announced only while
 * another process has said that it listens: where nobody subscribes, a write costs no NOTIFY,
 * and no process is woken by the writes of the others, however many there are. Mixed writes at
 * 300/s, 2 processes, PostgreSQL: every write had announced (~150 NOTIFYs a second per process),
 * each a transaction of its own and a wake-up of the other process.
 */
export class PostgresAnnouncements implements Announcements {
  readonly reachOtherProcesses = true;
  private readonly channels: { commits: string; interest: string };
  private readonly token = randomBytes(8).toString('hex');
  private client: pg.Client | undefined;
  /** A NOTIFY is due: sent when the current one is done and ANNOUNCE_MS have passed. */
  private due = false;
  private sending = false;
  private lastSent = 0;
  /** Whether this process's feed has listeners, and since when it last said so. */
  private interested = false;
  private interestSaid = 0;
  /** The other processes that listen: token → when they were last heard (performance.now()). */
  private readonly listeners = new Map<string, number>();
  /** Until then this process announces every commit (it has just asked who listens). */
  private askedUntil = Number.POSITIVE_INFINITY;
  private refresher: NodeJS.Timeout | undefined;

  constructor(
    settings: PostgresSettings,
    private readonly primary: WritableHost,
  ) {
    this.channels = announcementChannels(settings.schema);
  }

  announce(): void {
    if (!this.othersListen()) return;
    this.due = true;
    if (!this.sending) void this.send();
  }

  /** Whether another process may be listening for commits now. */
  private othersListen(): boolean {
    const now = performance.now();
    if (now < this.askedUntil) return true;
    for (const [token, heard] of this.listeners) if (now - heard > INTEREST_TTL_MS) this.listeners.delete(token);
    return this.listeners.size > 0;
  }

  private async send(): Promise<void> {
    this.sending = true;
    try {
      while (this.due) {
        const wait = this.lastSent + ANNOUNCE_MS - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        this.due = false;
        this.lastSent = performance.now();
        // Without a connection (being reopened), nothing is sent: other processes poll the log.
        await this.client?.query('SELECT pg_notify($1, $2)', [this.channels.commits, this.token]).catch(() => undefined);
      }
    } finally {
      this.sending = false;
    }
  }

  interest(listening: boolean): void {
    if (listening === this.interested) return;
    this.interested = listening;
    void this.tell(this.client);
  }

  /** On `client`: LISTEN to commits or stop, as this process's interest is, and say so to the others. */
  private async tell(client: pg.Client | undefined): Promise<void> {
    if (!client) return;
    const listening = this.interested;
    this.interestSaid = performance.now();
    try {
      await client.query(listening ? `LISTEN "${this.channels.commits}"` : `UNLISTEN "${this.channels.commits}"`);
      await client.query('SELECT pg_notify($1, $2)', [this.channels.interest, `${listening ? '+' : '-'}${this.token}`]);
    } catch {
      // The connection is lost: it is reopened, and says it all again then.
    }
  }

  private heardInterest(payload: string): void {
    if (payload === '?') {
      if (this.interested) void this.tell(this.client);
      return;
    }
    const token = payload.slice(1);
    if (token === this.token) return;
    if (payload.startsWith('+')) this.listeners.set(token, performance.now());
    else this.listeners.delete(token);
  }

  async listen(heard: () => void, failed: (error: unknown) => void): Promise<() => Promise<void>> {
    let client: pg.Client | undefined;
    let stopped = false;
    let retry: NodeJS.Timeout | undefined;
    const connect = async (pause: number): Promise<void> => {
      let next: pg.Client;
      try {
        // The host that takes writes: NOTIFY runs nowhere else, and the writers' NOTIFYs are sent there.
        next = new pg.Client(await this.primary.clientConfig());
      } catch (error) {
        failed(error);
        reopen(pause);
        return;
      }
      next.on('notification', (message) => {
        if (message.channel === this.channels.interest) this.heardInterest(message.payload ?? '');
        else if (message.payload !== this.token) heard();
      });
      let opened = false;
      next.on('error', (error) => {
        this.primary.failed(error);
        failed(error);
        // A connection that was open is reopened from the shortest pause again.
        reopen(opened ? FIRST_PAUSE_MS : pause);
      });
      try {
        await next.connect();
        await next.query(`LISTEN "${this.channels.interest}"`);
        // Who listens now: those who do answer; meanwhile every commit is announced.
        this.askedUntil = performance.now() + ASK_GRACE_MS;
        await next.query('SELECT pg_notify($1, $2)', [this.channels.interest, '?']);
      } catch (error) {
        this.primary.failed(error);
        failed(error);
        void next.end().catch(() => undefined);
        reopen(pause);
        return;
      }
      if (stopped) {
        await next.end();
        return;
      }
      opened = true;
      client = next;
      this.client = next;
      if (this.interested) void this.tell(next);
      // Whatever was announced while nobody listened is in the event log: read it now.
      heard();
    };
    const reopen = (pause: number): void => {
      const lost = client;
      client = undefined;
      this.client = undefined;
      this.askedUntil = Number.POSITIVE_INFINITY;
      void lost?.end().catch(() => undefined);
      if (stopped || retry) return;
      retry = setTimeout(() => {
        retry = undefined;
        void connect(Math.min(pause * 2, RECONNECT_MAX_MS));
      }, pause);
      retry.unref();
    };
    await connect(FIRST_PAUSE_MS);
    this.refresher = setInterval(() => {
      if (this.interested && performance.now() - this.interestSaid >= INTEREST_REFRESH_MS) void this.tell(this.client);
    }, INTEREST_REFRESH_MS / 2);
    this.refresher.unref();
    return async () => {
      stopped = true;
      clearTimeout(retry);
      clearInterval(this.refresher);
      if (this.interested && client) {
        this.interested = false;
        await this.tell(client);
      }
      this.client = undefined;
      await client?.end().catch(() => undefined);
    };
  }
}
