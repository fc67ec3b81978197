import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { ReadLease } from '../../contract/read-lease.js';
import { StorageUnavailable } from '../../errors.js';
import { announcementChannels } from './announcements.js';
import type { PostgresSettings } from './settings.js';
import type { WritableHost } from './primary.js';

/** How often the lease's state is looked at (release, seek). */
const TICK_MS = 250;
/** A shared hold is given back once this process has written nothing for this long. */
const WRITES_IDLE_MS = 1_000;
/** The lease is sought only while reads came this recently. */
const READS_RECENT_MS = 1_000;
/**
 * A holder gives the lease up to another process that wants it for its reads only when it read
 * nothing itself for this long (another process's writes always take it). Kept meanwhile, even
 * through a quiet spell: a new hold starts with an empty cache.
 */
const HOLD_MS = 10_000;
/** How often a process that wants the lease for its reads asks the holder. */
const ASK_MS = 1_000;
/** After giving the lease up for another process's writes, it is not sought again for this long. */
const BACKOFF_MS = 1_000;
/** A write waits at most this long for a holder to give the lease up, then fails as the database being unavailable would. */
const WAIT_MS = 10_000;

/** Thrown by held() while the lease is not held (preallocated: asked on every read). */
const NOT_HELD = new Error('the read lease is not held');

type State = 'none' | 'shared' | 'exclusive';

/**
 * The read lease of one process on a PostgreSQL database (see ReadLease): a session-level
 * advisory lock of the database's schema, on a connection of its own, taken exclusively by the
 * one process that keeps a read cache and shared by every process that writes. While a process
 * holds it exclusively no other process of the database writes, so (as with SQLite's one writer)
 * its own writes, which replace what it keeps, are the only ones there are. A process that
 * wants to write while another holds the lease asks it to give it up (NOTIFY on a channel of
 * the schema, repeated until its shared lock is granted); the holder stops answering from
 * memory at once (held() throws from that moment) and then unlocks. The lease is sought only
 * while this process reads and has not written for WRITES_IDLE_MS, and passes to another
 * process that reads only once the holder read nothing for HOLD_MS, so a read-mostly load keeps
 * its cache and a write elsewhere costs the first write after a quiet spell a few round trips.
 *
 * Why: a GET of one node on PostgreSQL went to the database every time, and the round trip's
 * send (pg's writev to the backend's socket, which wakes it) was 36 % of topocat's CPU in a
 * profile at 500 GETs/s; with the cache, a GET of one of 10,000 random nodes of 100,000 cost
 * 102–116 µs of CPU (topocat and its backends) against SQLite's 88–94 µs, where it had cost
 * 410–472 µs against 122–182 µs (scratch, 3 rounds of 10 s at 500/s, 8 connections,
 * 2026-11-28; the machine shared with other work).
 *
 * A lease connection lost while a write of this process is in flight releases the shared lock
 * before that write commits, so a holder may begin meanwhile and read what the write then
 * changes: such a write is not acknowledged until the shared lock is had again, which the new
 * holder gives up first, dropping what it kept (`losses`). What it does not cover: writes of
 * processes that are not topocat's servers (`npm run import` is counted by
 * storage/outside-writes.ts, as for SQLite).
 */
export class PostgresReadLease implements ReadLease {
  private state: State = 'none';
  private epoch = 0;
  /** Writes in flight or waiting for the shared lock: the shared lock stays while there are any. */
  private writers = 0;
  /** Lease connections lost so far (each took this process's locks with it). */
  private losses = 0;
  private lastWrite = 0;
  private lastRead = -Infinity;
  private lastYield = -Infinity;
  private lastAsk = -Infinity;
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  /** Lease operations, one at a time on the connection. */
  private chain: Promise<unknown> = Promise.resolve();
  private sharing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private ticking = false;
  private closed = false;
  private readonly channel: string;
  private readonly key: string;
  private readonly token = randomBytes(8).toString('hex');

  constructor(
    settings: PostgresSettings,
    private readonly primary: WritableHost,
  ) {
    this.channel = announcementChannels(settings.schema).lease;
    this.key = `topocat:read-lease:${settings.schema ?? ''}`;
  }

  held(): number {
    this.lastRead = performance.now();
    if (this.state !== 'exclusive') {
      this.start();
      throw NOT_HELD;
    }
    return this.epoch;
  }

  writing(): (() => void | Promise<void>) | Promise<() => void | Promise<void>> {
    this.writers++;
    this.lastWrite = performance.now();
    const since = this.losses;
    const done = (): void | Promise<void> => {
      this.writers--;
      this.lastWrite = performance.now();
      // The shared lock went with a lost connection while this write was in flight: not
      // acknowledged until it is had again (a holder that began meanwhile gives up first).
      if (this.losses !== since) return this.shareOnce();
    };
    if (this.state !== 'none') return done;
    return this.shareOnce().then(
      () => done,
      (error: unknown) => {
        // Nothing was written: nothing to wait for.
        void Promise.resolve(done()).catch(() => undefined);
        throw error;
      },
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.chain.catch(() => undefined);
    const client = this.client;
    this.forget();
    await client?.end().catch(() => undefined);
  }

  /** share(), once at a time however many writes ask. */
  private shareOnce(): Promise<void> {
    this.start();
    this.sharing ??= this.serial(() => this.share()).finally(() => {
      this.sharing = undefined;
    });
    return this.sharing;
  }

  /** Take the shared lock, asking a holder to give the lease up, until granted or WAIT_MS passed. */
  private async share(): Promise<void> {
    if (this.state !== 'none') return;
    const deadline = performance.now() + WAIT_MS;
    for (let pause = 1; ; pause = Math.min(pause * 2, 50)) {
      const client = await this.connect();
      const { rows } = await client.query<{ granted: boolean }>('SELECT pg_notify($1, $2), pg_try_advisory_lock_shared(hashtextextended($3, 0)) AS granted', [this.channel, `write:${this.token}`, this.key]);
      if (rows[0]?.granted) {
        this.state = 'shared';
        return;
      }
      if (performance.now() > deadline) throw new StorageUnavailable('another server process kept the read lease');
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  /** Give back, or seek, the lease as the reads and writes of this process go. */
  private async tick(): Promise<void> {
    const now = performance.now();
    if (this.state === 'shared' && this.writers === 0 && now - this.lastWrite > WRITES_IDLE_MS) {
      this.state = 'none';
      await this.client?.query('SELECT pg_advisory_unlock_shared(hashtextextended($1, 0))', [this.key]);
    } else if (this.state === 'none' && this.writers === 0 && now - this.lastRead < READS_RECENT_MS && now - this.lastWrite > WRITES_IDLE_MS && now - this.lastYield > BACKOFF_MS) {
      const asked = performance.now();
      const client = await this.connect();
      const { rows } = await client.query<{ granted: boolean }>('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS granted', [this.key]);
      if (!rows[0]?.granted) {
        // Held elsewhere: ask for it (given up only by a holder that stopped reading).
        if (now - this.lastAsk > ASK_MS) {
          this.lastAsk = now;
          await client.query('SELECT pg_notify($1, $2)', [this.channel, `read:${this.token}`]);
        }
        return;
      }
      if (this.lastYield >= asked || this.writers > 0 || this.client !== client) {
        // Asked to give it up (or a write of this process began) while the lock was being taken.
        await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [this.key]);
        return;
      }
      this.epoch++;
      this.state = 'exclusive';
    }
  }

  /**
   * Another process asks for the lease: for its writes (always given up: stop answering from
   * memory now, then unlock), or for its reads (given up once this process stopped reading).
   */
  private asked(payload: string): void {
    const [why, token] = payload.split(':');
    if (token === this.token) return;
    const now = performance.now();
    if (why === 'read' && now - this.lastRead <= HOLD_MS) return;
    this.lastYield = now;
    if (this.state !== 'exclusive') return;
    this.state = 'none';
    void this.serial(async () => {
      await this.client?.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [this.key]);
    }).catch(() => undefined);
  }

  private start(): void {
    if (this.timer || this.closed) return;
    this.timer = setInterval(() => {
      if (this.ticking) return;
      this.ticking = true;
      void this.serial(() => this.tick())
        .catch(() => undefined)
        .finally(() => {
          this.ticking = false;
        });
    }, TICK_MS);
    this.timer.unref();
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.chain.then(work, work);
    this.chain = next.catch(() => undefined);
    return next;
  }

  private connect(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    if (this.closed) return Promise.reject(new StorageUnavailable('closed'));
    this.connecting ??= (async () => {
      let client: pg.Client;
      try {
        client = new pg.Client(await this.primary.clientConfig());
      } catch (error) {
        throw new StorageUnavailable(error, true);
      }
      client.on('notification', (message) => this.asked(message.payload ?? ''));
      // A lost connection loses the locks with it: nothing is answered from memory from here on.
      const lost = (error?: unknown): void => {
        if (error !== undefined) this.primary.failed(error);
        if (this.client !== client) return;
        this.losses++;
        this.forget();
      };
      client.on('error', lost);
      client.on('end', () => lost());
      try {
        await client.connect();
        await client.query(`LISTEN "${this.channel}"`);
      } catch (error) {
        this.primary.failed(error);
        void client.end().catch(() => undefined);
        throw new StorageUnavailable(error, true);
      }
      this.client = client;
      return client;
    })().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private forget(): void {
    this.state = 'none';
    this.client = undefined;
  }
}
