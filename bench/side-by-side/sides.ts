import { cpuSeconds } from '../harness/cpu.js';
import { node } from '../workloads/topology.js';
import type { Measured } from '../harness/processes.js';

/** One build's server, on a database of its own. */
export interface Side {
  readonly label: 'old' | 'new';
  readonly server: Measured;
  /** CPU seconds so far of the database's backends that serve this side (PostgreSQL; absent for SQLite). */
  readonly database?: () => Promise<number>;
  /** CPU seconds so far of every process of the database server, background workers too (PostgreSQL). */
  readonly databaseServer?: () => Promise<number>;
}

/** One round's figures of one side: row → value, with the failures seen. */
export interface Figures {
  readonly values: Record<string, number>;
  failures: number;
}

/** A row of the comparison: its name and unit (figures are looked up by name). */
export interface ComparedRow {
  readonly row: string;
  readonly unit: 'µs' | 'ms' | 's';
}

/** What is compared: how each side's database is filled once, and what one round measures. */
export interface ComparedSet {
  readonly rows: readonly ComparedRow[];
  load(side: Side): Promise<void>;
  round(side: Side): Promise<Figures>;
}

/**
 * A side's CPU seconds so far: its server process (every thread) and its database's backends, or
 * with `server`, every process of the database server (what writes leave to the WAL writer, the
 * checkpointer and autovacuum; the other side is idle while one is measured).
 */
export async function usedCpu(side: Side, server = false): Promise<number> {
  return cpuSeconds(side.server.pid) + ((await (server ? side.databaseServer : side.database)?.()) ?? 0);
}

/** POST `body` (nodes) to the side's `/nodes`; anything but 201 stops the run. */
export async function postNodes(side: Side, headers: Readonly<Record<string, string>>, body: readonly unknown[]): Promise<void> {
  const response = await fetch(`${side.server.url}/nodes`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await response.arrayBuffer();
  if (response.status !== 201) throw new Error(`${side.label}: POST answered ${response.status}`);
}

/** Nodes 0 … count−1 of the bench's topology (workloads/topology.ts), in POSTs of 1,000. */
export async function storeNodes(side: Side, headers: Readonly<Record<string, string>>, count: number): Promise<void> {
  for (let first = 0; first < count; first += 1000) await postNodes(side, headers, Array.from({ length: Math.min(1000, count - first) }, (_, k) => node(first + k)));
}

/** Until the database server has used less than a tick of CPU in 500 ms (what the last round's writes left it to do), at most 10 s. */
export async function databaseQuiet(side: Side): Promise<void> {
  if (!side.databaseServer) return;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const before = await side.databaseServer();
    await new Promise((resolve) => setTimeout(resolve, 500));
    if ((await side.databaseServer()) - before < 0.01 || Date.now() > deadline) return;
  }
}
