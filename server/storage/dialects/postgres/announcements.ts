import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Knex } from 'knex';
import type { Announcements } from '../../dialect.js';
import type { PostgresSettings } from './settings.js';

/** The longest wait before a lost LISTEN connection is opened again. */
const RECONNECT_MAX_MS = 5_000;

/**
 * LISTEN/NOTIFY on a channel of this database's schema (databases in separate schemas of one
 * server never hear each other). NOTIFY is transactional: it is delivered when the writing
 * transaction commits, and never if it rolls back.
 */
export class PostgresAnnouncements implements Announcements {
  readonly reachOtherProcesses = true;
  private readonly channel: string;

  constructor(private readonly settings: PostgresSettings) {
    // A channel is an identifier of at most 63 bytes; a schema name may be as long on its own.
    this.channel = `topocat_${createHash('sha256').update(settings.schema ?? '').digest('hex').slice(0, 24)}`;
  }

  async announce(trx: Knex.Transaction): Promise<void> {
    await trx.raw('SELECT pg_notify(?, ?)', [this.channel, '']);
  }

  async listen(heard: () => void, failed: (error: unknown) => void): Promise<() => Promise<void>> {
    let client: pg.Client | undefined;
    let stopped = false;
    let retry: NodeJS.Timeout | undefined;
    const connect = async (pause: number): Promise<void> => {
      const { connectionString, connectionTimeoutMillis, keepAlive, keepAliveInitialDelayMillis, application_name } = this.settings.connection;
      const next = new pg.Client({ connectionString, connectionTimeoutMillis, keepAlive, keepAliveInitialDelayMillis, application_name });
      next.on('notification', () => heard());
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
      // Whatever was announced while nobody listened is in the event log: read it now.
      heard();
    };
    const reopen = (pause: number): void => {
      const lost = client;
      client = undefined;
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
      await client?.end().catch(() => undefined);
    };
  }
}
