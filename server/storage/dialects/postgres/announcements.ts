import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Announcements } from '../../dialect.js';
import type { PostgresSettings } from './settings.js';

/** The longest wait before a lost LISTEN connection is opened again. */
const RECONNECT_MAX_MS = 5_000;
/**
 * Least time between two NOTIFYs of one process: the commits of that time share one. Each NOTIFY
 * is a transaction of its own that queues on PostgreSQL's notification lock, and wakes every
 * listening process into a read of the event log; this bounds both to 200 a second per process,
 * and adds at most this much to the time a change takes to reach another process's subscribers.
 */
const ANNOUNCE_MS = 5;

/**
 * LISTEN/NOTIFY on a channel of this database's schema (databases in separate schemas of one
 * server never hear each other), on one connection of its own per process, which both listens
 * and announces. Announcements are sent after the commits they tell of, never inside a write
 * transaction: a NOTIFY there takes a lock on the database at COMMIT that every other writer
 * that notifies must wait for, for the length of a commit. Each carries this process's token, so
 * a process does not wake itself (its own writes poke its feed directly).
 */
export class PostgresAnnouncements implements Announcements {
  readonly reachOtherProcesses = true;
  private readonly channel: string;
  private readonly token = randomBytes(8).toString('hex');
  private client: pg.Client | undefined;
  /** A NOTIFY is due: sent when the current one is done and ANNOUNCE_MS have passed. */
  private due = false;
  private sending = false;
  private lastSent = 0;

  constructor(private readonly settings: PostgresSettings) {
    // A channel is an identifier of at most 63 bytes; a schema name may be as long on its own.
    this.channel = `topocat_${createHash('sha256').update(settings.schema ?? '').digest('hex').slice(0, 24)}`;
  }

  announce(): void {
    this.due = true;
    if (!this.sending) void this.send();
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
        await this.client?.query('SELECT pg_notify($1, $2)', [this.channel, this.token]).catch(() => undefined);
      }
    } finally {
      this.sending = false;
    }
  }

  async listen(heard: () => void, failed: (error: unknown) => void): Promise<() => Promise<void>> {
    let client: pg.Client | undefined;
    let stopped = false;
    let retry: NodeJS.Timeout | undefined;
    const connect = async (pause: number): Promise<void> => {
      const { connectionString, connectionTimeoutMillis, keepAlive, keepAliveInitialDelayMillis, application_name } = this.settings.connection;
      const next = new pg.Client({ connectionString, connectionTimeoutMillis, keepAlive, keepAliveInitialDelayMillis, application_name });
      next.on('notification', (message) => {
        if (message.payload !== this.token) heard();
      });
      next.on('error', (error) => {
        failed(error);
        reopen(pause);
      });
      try {
        await next.connect();
        await next.query(`LISTEN "${this.channel}"`);
      } catch (error) {
        failed(error);
        void next.end().catch(() => undefined);
        reopen(pause);
        return;
      }
      if (stopped) {
        await next.end();
        return;
      }
      client = next;
      this.client = next;
      // Whatever was announced while nobody listened is in the event log: read it now.
      heard();
    };
    const reopen = (pause: number): void => {
      const lost = client;
      client = undefined;
      this.client = undefined;
      void lost?.end().catch(() => undefined);
      if (stopped || retry) return;
      retry = setTimeout(() => {
        retry = undefined;
        void connect(Math.min(pause * 2, RECONNECT_MAX_MS));
      }, pause);
      retry.unref();
    };
    await connect(100);
    return async () => {
      stopped = true;
      clearTimeout(retry);
      this.client = undefined;
      await client?.end().catch(() => undefined);
    };
  }
}
