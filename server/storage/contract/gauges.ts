import type { StandbyState } from './standbys.js';

// What the storage reports of itself to /metrics and /health (Pools.gauges). Part of storage's
// contract: it imports nothing else of storage but the contract.

/** The storage's figures for /metrics; each engine gives those it has. */
export interface StorageGauges {
  /** Write jobs waiting for their group (SQLite's group commit). */
  readonly writesWaiting?: number;
  /** Groups committed so far, and the write jobs in them (SQLite: their ratio is the mean group size). */
  readonly groupsCommitted?: number;
  readonly jobsCommitted?: number;
  /** The connection pool (PostgreSQL): connections in use, idle, and requests waiting for one. */
  readonly pool?: { readonly used: number; readonly idle: number; readonly waiting: number };
  /** Bytes of the write-ahead log file (SQLite's `-wal`). */
  readonly walBytes?: number;
  /** Each standby that serves reads (DATABASE_READ_URLS). */
  readonly standbys?: readonly StandbyState[];
  /** The host that takes writes (PostgreSQL), failovers seen, and time without one. */
  readonly primary?: PrimaryState;
}

/** What /metrics and /health say of the primary (rest-contract §16). */
export interface PrimaryState {
  /** host:port of the host that takes writes; undefined while none does. */
  readonly host: string | undefined;
  readonly writable: boolean;
  /** Times the host that takes writes changed (a switchover, a promotion) since the process started. */
  readonly failovers: number;
  /** Seconds, since the process started, during which no host took writes. */
  readonly secondsWithoutPrimary: number;
  /** While none takes writes: why (each host's answer), and for how long so far. */
  readonly why?: string;
  readonly downSeconds?: number;
}
