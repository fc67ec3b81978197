// A capability of the Dialect's driver (Pools.standbys): streaming standbys that serve reads.
// Part of storage's contract: it imports nothing else of storage but the contract.

/** DATABASE_READ_URLS and READ_WAIT_MS (PoolOptions.standbys). */
export interface StandbyOptions {
  readonly urls: readonly string[];
  readonly waitMs: number;
}

/**
 * Reads past one machine (rest-contract §15): `reader`, `keys`, `stream` and `streamTexts` of a
 * read begun in `reading` go to a standby that has replayed every write acknowledged before it
 * began (else, after READ_WAIT_MS, to the primary); everything else (writes, and reads outside
 * `reading`) goes to the primary. Each read asks anew, so a read never answers older than a
 * write acknowledged before it began, whichever process wrote.
 */
export interface Standbys {
  /**
   * Run `work` as the reads of one request. `token`: the consistency token the client sent
   * back (the position of the last write it saw acknowledged): a standby that has replayed that
   * far serves, with no question to the primary. Undefined or malformed: the primary is asked.
   */
  reading<T>(token: string | undefined, work: () => T): T;
  /** Run `work` with every read on the primary (snapshots, the event log's horizon). */
  onPrimary<T>(work: () => T): T;
  /** True inside `reading` with a token: what its reads find may be older than others' writes, so no cache keeps it. */
  fromToken(): boolean;
  /** The consistency token of a write acknowledged before this call: the primary's position now. */
  token(): Promise<string>;
  /**
   * From now on, the reads of the current `reading` go where the WAL up to `token` has been
   * replayed (or to the primary): what they find is never older than what was committed before
   * `token` was given. Outside `reading` (reads on the primary) nothing changes.
   */
  atLeast(token: string): void;
  /**
   * Run `read` (its reads on a standby, or the primary) with a bound below which every event of
   * the log is final: the primary's horizon, asked once for the reads that arrive together, read
   * where the WAL up to it has been replayed. A standby's own snapshot cannot give it: it does
   * not know the transactions that have not written WAL yet.
   */
  belowHorizon<T>(read: (horizon: number) => Promise<T>): Promise<T>;
  /** Each standby as /metrics and /health report it. */
  states(): readonly StandbyState[];
}

/** What /metrics and /health say of one standby. */
export interface StandbyState {
  /** host:port/database. */
  readonly name: string;
  /** False while it fails (stopped, restarting, unreachable, not replaying); reads go around it. */
  readonly up: boolean;
  /** WAL bytes the primary had that it had not replayed, and seconds since its last replayed commit (0 when caught up), at the last look. */
  readonly lagBytes: number;
  readonly lagSeconds: number;
  /** Reads it served; reads that waited for it to replay; reads that waited READ_WAIT_MS, or met its failure, and went to the primary. */
  readonly reads: number;
  readonly waits: number;
  readonly fallbacks: number;
}
