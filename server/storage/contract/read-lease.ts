// A capability of the Dialect's driver (Pools.lease): the read lease of processes that share a
// database. Part of storage's contract: it imports nothing else of storage but the contract.

/**
 * Who may keep what it read in memory where several server processes share one database: at most
 * one process holds the lease, and while it does no other process writes (each write elsewhere
 * first makes it give the lease up), so a write acknowledged by any process is read back by every
 * process at once. The holder's own writes replace what it keeps (ResourceStore, CurrentCache).
 */
export interface ReadLease {
  /**
   * A number that stays the same while this process holds the lease without a break (each new
   * hold is a new number); throws while it does not. Each call counts as a read: the lease is
   * sought while reads come. What CurrentCache asks before every answer from memory.
   */
  held(): number;
  /**
   * Before a write: resolves (or returns at once) when this process may write, with the function
   * to call once the write has committed or failed, before it is acknowledged: where the right to
   * write was lost meanwhile, what it returns resolves once it is had again.
   */
  writing(): (() => void | Promise<void>) | Promise<() => void | Promise<void>>;
  close(): Promise<void>;
}
