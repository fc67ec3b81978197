import type { Knex } from 'knex';
import type { Logger } from '../../../log.js';
import type { StandbyState } from '../../contract/standbys.js';
import { Coalesced } from '../../coalesced.js';
import { COVERING_POSITION, parseLsn } from './wal-position.js';

/**
 * Between two looks at a lagging standby's replay position while reads wait for it: 1 ms, then
 * doubling up to 8 ms. A standby on the same network replays a commit within a millisecond or
 * two; the looks are shared by every read waiting for that standby (Coalesced).
 */
const POLL_MS = [1, 1, 2, 4, 8] as const;
/** The least time between two log lines of one standby's lag. */
const LAG_LOG_MS = 60_000;
/** How long a standby that failed is left alone before it is asked again. */
const RETRY_MS = 1_000;
/**
 * While reads come, how often the primary is asked which standbys apply every commit before it
 * is acknowledged (`synchronous_commit = remote_apply`, the standby synchronous): one statement
 * on the primary and one on each standby, at most once a second per process.
 */
const SYNC_CHECK_MS = 1_000;
/**
 * A standby serves reads while the primary cannot be asked (rest-contract §16) only if it was
 * confirmed applying every commit at most this long before the primary stopped answering: the
 * primary could have let it out of its synchronous set since (an HA tool does so when the
 * standby stops answering), and acknowledged commits it never applied.
 */
const SYNC_FRESH_MS = 2 * SYNC_CHECK_MS;

/**
 * The primary's standbys whose apply every commit waits for: its own `synchronous_commit` (as the
 * service's sessions have it), and each walsender's state with its replication slot. `ANY n (…)`
 * waits for n of its standbys, which are then `quorum`: such a standby has every commit only when
 * n counts all of them.
 */
const SYNC_STANDBYS = `SELECT current_setting('synchronous_commit') AS commit, current_setting('synchronous_standby_names') AS names,
  r.application_name, r.sync_state, s.slot_name
  FROM (SELECT 1) one LEFT JOIN pg_stat_replication r ON true LEFT JOIN pg_replication_slots s ON s.active_pid = r.pid`;
/**
 * Who a standby is to its primary: its replication slot, and the application_name its WAL
 * receiver connects with (cluster_name by default). Without the right to read
 * pg_stat_wal_receiver (a superuser's or pg_read_all_stats'), both are NULL: such a standby is
 * never taken as synchronous.
 */
const RECEIVER = `SELECT slot_name, substring(conninfo from 'application_name=([^ ]+)') AS application_name FROM pg_stat_wal_receiver`;

/** Where a read goes: a standby that has replayed every write acknowledged before it arrived, or the primary. */
export interface ReadRoute {
  readonly knex: Knex;
  /** The standby's name (its host:port/database), or undefined: the primary. */
  readonly standby: string | undefined;
}

interface Replay {
  readonly lsn: bigint;
  readonly lagSeconds: number;
}

class Standby {
  up = true;
  /** When its lag last sent a read to the primary was logged (at most once a minute: a standby near READ_WAIT_MS behind flaps). */
  lagLogged = -Infinity;
  retryAt = 0;
  lagBytes = 0;
  lagSeconds = 0;
  reads = 0;
  waits = 0;
  fallbacks = 0;
  /** When the primary last said this standby applies every commit before it is acknowledged (performance.now()), or -Infinity. */
  appliesAll = Number.NEGATIVE_INFINITY;
  /**
   * A position it has still to replay before a read waits for it again, set when a read waited
   * READ_WAIT_MS in vain: until then each read looks once and goes to the primary at once. An old
   * primary that rejoins as a standby after a failover is far behind; every GET waited the full
   * READ_WAIT_MS for it until it caught up (p50 5.95 → 12.6 ms after "postmaster killed",
   * `npm run bench -- --only failover`, 2026-11-29).
   */
  behind: bigint | undefined;
  readonly replay: Coalesced<Replay>;

  constructor(
    readonly name: string,
    readonly knex: Knex,
  ) {
    this.replay = new Coalesced(async () => {
      const row = (await knex.raw('SELECT pg_is_in_recovery() AS recovery, pg_last_wal_replay_lsn()::text AS lsn, CASE WHEN pg_last_wal_receive_lsn() IS NOT DISTINCT FROM pg_last_wal_replay_lsn() THEN 0 ELSE COALESCE(EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()), 0) END::float8 AS lag')).rows[0] as { recovery: boolean; lsn: string | null; lag: number };
      const lsn = parseLsn(row.lsn);
      // Not a standby (promoted by a failover, or a primary named by mistake): never waited on
      // as one. A promoted node keeps its last replayed position, which never moves again: every
      // read waited READ_WAIT_MS for it (rest-contract §16). Asked again each RETRY_MS, so the
      // old primary, once rejoined as a standby, serves reads again.
      if (!row.recovery) throw new Error(`${name} is not in recovery (a primary, not a standby)`);
      if (lsn === undefined) throw new Error(`${name} is not replaying WAL (pg_last_wal_replay_lsn() is null)`);
      return { lsn, lagSeconds: row.lag };
    });
  }
}

/**
 * Reads past one machine (rest-contract §15): each read goes to a standby once it has replayed
 * past every write acknowledged before the read arrived, else, after READ_WAIT_MS, to the
 * primary. "Acknowledged before it arrived" is the primary's WAL position asked after the read
 * arrived (one statement shared by the reads that arrive together, see Coalesced), or the
 * position a client sends back from its own write (the consistency token), which needs no
 * question to the primary. A standby that fails is read around, logged once, and asked again a
 * second later; a standby is chosen in turn among those up.
 */
export class StandbyReads {
  private readonly standbys: Standby[];
  private readonly position: Coalesced<bigint>;
  private turn = 0;
  /** Since when the primary has not answered for its position (performance.now()), or undefined while it does. */
  private primaryAwaySince: number | undefined;
  private lastSyncCheck = Number.NEGATIVE_INFINITY;
  private syncChecking = false;

  constructor(
    private readonly primary: Knex,
    standbys: readonly { readonly name: string; readonly knex: Knex }[],
    private readonly waitMs: number,
    private readonly logger: Logger | undefined,
  ) {
    this.standbys = standbys.map((s) => new Standby(s.name, s.knex));
    this.position = new Coalesced(async () => {
      const row = (await primary.raw(`SELECT (${COVERING_POSITION})::text AS lsn`)).rows[0] as { lsn: string };
      return parseLsn(row.lsn)!;
    });
  }

  /** The primary's WAL position now: what every write acknowledged before this call has been written up to (a write answer's token). */
  primaryPosition(): Promise<bigint> {
    return this.position.get();
  }

  /**
   * Where a read that arrives now goes. `token`: a position the client sent back (it has seen
   * its writes up to there), which stands in for the primary's position.
   */
  async route(token?: bigint): Promise<ReadRoute> {
    const standby = this.pick();
    if (standby === undefined) return { knex: this.primary, standby: undefined };
    const deadline = performance.now() + this.waitMs;
    let position: bigint;
    if (token === undefined) this.checkSync();
    try {
      // Asked only once a standby is up to be asked.
      position = token ?? (await this.position.get());
      if (token === undefined) this.primaryAwaySince = undefined;
    } catch {
      this.primaryAwaySince ??= performance.now();
      // The primary could not say. A standby that applies every commit before it is acknowledged
      // has every write acknowledged so far: it serves the read if it is still a standby.
      if (this.appliesEveryCommit(standby)) {
        try {
          await standby.replay.get();
          standby.reads++;
          return { knex: standby.knex, standby: standby.name };
        } catch (error) {
          this.down(standby, error);
        }
      }
      // Else the primary serves the read itself, or fails it as any read of it would.
      return { knex: this.primary, standby: undefined };
    }
    for (let look = 0; ; look++) {
      let replay: Replay;
      try {
        replay = await standby.replay.get();
      } catch (error) {
        this.down(standby, error);
        return this.fallback(standby, false);
      }
      if (!standby.up) this.recovered(standby);
      standby.lagSeconds = replay.lagSeconds;
      standby.lagBytes = Number(position > replay.lsn ? position - replay.lsn : 0n);
      if (standby.behind !== undefined && replay.lsn >= standby.behind) standby.behind = undefined;
      if (replay.lsn >= position) {
        standby.reads++;
        if (look > 0) standby.waits++;
        return { knex: standby.knex, standby: standby.name };
      }
      if (standby.behind !== undefined && token === undefined) return this.fallback(standby, false);
      const left = deadline - performance.now();
      if (left <= 0) {
        // Only the primary's own position marks it: a client's token may name one it never reaches.
        if (token === undefined) standby.behind = position;
        return this.fallback(standby, true);
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS[Math.min(look, POLL_MS.length - 1)]!, left)));
    }
  }

  /**
   * A read routed to `name` failed for a reason of the standby's, and the caller reads again
   * elsewhere: `down` (it stopped, restarts, cannot be reached): read around it until it answers
   * again; else it cancelled the read for a conflict with recovery (it replayed the removal of
   * rows the read needed), which says nothing of the next.
   */
  failed(name: string, error: unknown, down: boolean): void {
    const standby = this.standbys.find((s) => s.name === name);
    if (!standby) return;
    standby.reads--;
    standby.fallbacks++;
    if (down) this.down(standby, error);
  }

  /** Each standby as /metrics and /health report it. */
  states(): StandbyState[] {
    return this.standbys.map(({ name, up, lagBytes, lagSeconds, reads, waits, fallbacks }) => ({ name, up, lagBytes, lagSeconds, reads, waits, fallbacks }));
  }

  /** Whether `standby` was confirmed applying every commit shortly enough before the primary stopped answering (SYNC_FRESH_MS). */
  private appliesEveryCommit(standby: Standby): boolean {
    return this.primaryAwaySince !== undefined && standby.appliesAll >= this.primaryAwaySince - SYNC_FRESH_MS;
  }

  /** Ask the primary which standbys apply every commit, at most once per SYNC_CHECK_MS, in the background. */
  private checkSync(): void {
    const now = performance.now();
    if (this.syncChecking || now - this.lastSyncCheck < SYNC_CHECK_MS) return;
    this.syncChecking = true;
    this.lastSyncCheck = now;
    void this.learnSync()
      .catch(() => undefined)
      .finally(() => {
        this.syncChecking = false;
      });
  }

  private async learnSync(): Promise<void> {
    const asked = performance.now();
    const { rows } = (await this.primary.raw(SYNC_STANDBYS)) as { rows: { commit: string; names: string; application_name: string | null; sync_state: string | null; slot_name: string | null }[] };
    const senders = rows.filter((r) => r.sync_state !== null);
    const any = /^\s*ANY\s+(\d+)\s*\(/i.exec(rows[0]?.names ?? '');
    const quorum = senders.filter((r) => r.sync_state === 'quorum').length;
    // Every walsender whose apply each commit waits for: 'sync', or 'quorum' where ANY n counts them all.
    const waitedFor = rows[0]?.commit !== 'remote_apply' ? [] : senders.filter((r) => r.sync_state === 'sync' || (r.sync_state === 'quorum' && any !== null && Number(any[1]) >= quorum));
    await Promise.all(
      this.standbys.map(async (standby) => {
        let applies = false;
        if (waitedFor.length > 0) {
          try {
            const receiver = ((await standby.knex.raw(RECEIVER)).rows as { slot_name: string | null; application_name: string | null }[])[0];
            const name = receiver?.application_name?.replace(/^'|'$/g, '');
            applies = receiver !== undefined && waitedFor.some((r) => (r.slot_name !== null && r.slot_name === receiver.slot_name) || (r.application_name !== null && r.application_name === name));
          } catch {
            // A standby that cannot say is not taken as synchronous.
          }
        }
        // A "no" counts at once: confirmed earlier is not confirmed still.
        standby.appliesAll = applies ? asked : Number.NEGATIVE_INFINITY;
      }),
    );
  }

  private pick(): Standby | undefined {
    const now = performance.now();
    for (let i = 0; i < this.standbys.length; i++) {
      const standby = this.standbys[(this.turn + i) % this.standbys.length]!;
      if (standby.up || now >= standby.retryAt) {
        this.turn = (this.turn + i + 1) % this.standbys.length;
        return standby;
      }
    }
    return undefined;
  }

  private fallback(standby: Standby, waited: boolean): ReadRoute {
    standby.fallbacks++;
    const now = performance.now();
    if (waited && now - standby.lagLogged >= LAG_LOG_MS) {
      standby.lagLogged = now;
      this.logger?.warn(
        { standby: standby.name, waitMs: this.waitMs, lagBytes: standby.lagBytes, fallbacks: standby.fallbacks },
        'standby lags past READ_WAIT_MS: reads that cannot wait for it go to the primary (logged at most once a minute; topocat_standby_fallbacks_total counts them)',
      );
    }
    return { knex: this.primary, standby: undefined };
  }

  private down(standby: Standby, error: unknown): void {
    standby.retryAt = performance.now() + RETRY_MS;
    if (!standby.up) return;
    standby.up = false;
    this.logger?.warn({ standby: standby.name, err: error instanceof Error ? error.message : String(error) }, 'standby unavailable: its reads go to the primary until it answers again');
  }

  private recovered(standby: Standby): void {
    standby.up = true;
    this.logger?.info({ standby: standby.name }, 'standby answers again: reads go to it once it has replayed far enough');
  }
}
