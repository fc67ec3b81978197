/**
 * PostgreSQL for the benchmark: the server TEST_DATABASE_URL names (as the tests use it), a
 * schema of the run's own, and what a row reads of the server while it loads topocat: the CPU
 * time of the backends that serve topocat's connections (their `/proc/<pid>/stat`), and how often
 * those backends wait on a lock (`pg_stat_activity`). Each server process the bench starts on
 * PostgreSQL names its sessions with an `application_name` of its own, so the backends of other
 * clients of the same server (another test run, say) are never counted.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import knexFactory, { type Knex } from 'knex';
import { cpuSeconds } from './cpu.js';

/** Why the PostgreSQL rows cannot run, or undefined when they can. */
export function postgresUnavailable(): string | undefined {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return 'TEST_DATABASE_URL is not set (e.g. TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench)';
  if (!/^postgres(ql)?:\/\//.test(url)) return `TEST_DATABASE_URL is not a postgres:// URL`;
  return undefined;
}

/** Samples of the backends' states: how many were active, and how many of those waited on a lock. */
export interface LockSamples {
  readonly active: number;
  readonly waitingOnLock: number;
  /** wait_event of the lock waits seen, with how often (e.g. `transactionid`, `advisory`, `object`). */
  readonly events: Readonly<Record<string, number>>;
}

export interface BenchPostgres {
  /** DATABASE_URL for a server process whose sessions are named `application`. */
  url(application: string): string;
  /**
   * CPU seconds used so far by the backends of the sessions named `application` (0 when
   * PostgreSQL is not on this machine). A backend that has exited (a pool's idle connection
   * closed) still counts what it had used when last read, so the figure never goes back.
   */
  backendCpu(application: string): Promise<number>;
  /**
   * CPU seconds used so far by every process of the PostgreSQL server: the postmaster, its
   * background workers (checkpointer, WAL writer, autovacuum, …) and every backend, including the
   * ones that have exited (their time is in the postmaster's cutime/cstime once it reaps them).
   * A write's WAL flush, a checkpoint and a vacuum are its cost too, not only its backend's.
   * 0 when PostgreSQL is not on this machine.
   */
  serverCpu(): Promise<number>;
  /** Whether the backends' CPU can be read here (the server runs on this machine). */
  readonly local: boolean;
  /** Sample the states of the backends named with `prefix` every `everyMs` until the returned function is called. */
  sampleLocks(prefix: string, everyMs?: number): () => Promise<LockSamples>;
  /** Drop the run's schema. */
  close(): Promise<void>;
}

export async function benchPostgres(): Promise<BenchPostgres> {
  const base = process.env.TEST_DATABASE_URL!;
  const schema = `topocat_bench_${randomBytes(6).toString('hex')}`;
  const knex: Knex = knexFactory({ client: 'pg', connection: { connectionString: base, application_name: 'topocat-bench-observer' }, pool: { min: 0, max: 2 } });
  await knex.raw('SELECT 1');
  const { rows } = (await knex.raw('SELECT pg_backend_pid() AS pid')) as { rows: { pid: number }[] };
  const local = existsSync(`/proc/${rows[0]!.pid}/stat`);
  /** The backends of the sessions named `application` now. */
  const pidsOf = async (application: string): Promise<number[]> => {
    const result = (await knex.raw('SELECT pid FROM pg_stat_activity WHERE application_name = ?', [application])) as { rows: { pid: number }[] };
    return result.rows.map((r) => r.pid);
  };
  /** Each application's backends seen so far, with the CPU each had used when last read (see backendCpu). */
  const backends = new Map<string, Map<number, number>>();
  /** The postmaster: the parent of this observer's own backend. */
  const postmaster = local ? Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${rows[0]!.pid}/status`, 'utf8'))?.[1]) : 0;
  return {
    local,
    async serverCpu() {
      if (!local) return 0;
      return cpuSeconds(postmaster) + reapedChildrenCpu(postmaster);
    },
    url: (application) => `${base}${base.includes('?') ? '&' : '?'}schema=${schema}&application_name=${application}`,
    async backendCpu(application) {
      if (!local) return 0;
      const known = backends.get(application) ?? new Map<number, number>();
      backends.set(application, known);
      for (const pid of await pidsOf(application)) known.set(pid, Math.max(known.get(pid) ?? 0, cpuSeconds(pid)));
      return [...known.values()].reduce((sum, cpu) => sum + cpu, 0);
    },
    sampleLocks(prefix, everyMs = 10) {
      let active = 0;
      let waitingOnLock = 0;
      const events: Record<string, number> = {};
      let stopped = false;
      const sampling = (async () => {
        while (!stopped) {
          const result = (await knex.raw(
            `SELECT wait_event_type, wait_event FROM pg_stat_activity WHERE application_name LIKE ? AND state = 'active' AND pid <> pg_backend_pid()`,
            [`${prefix}%`],
          )) as { rows: { wait_event_type: string | null; wait_event: string | null }[] };
          for (const row of result.rows) {
            active++;
            if (row.wait_event_type === 'Lock') {
              waitingOnLock++;
              const name = row.wait_event ?? 'unknown';
              events[name] = (events[name] ?? 0) + 1;
            }
          }
          await new Promise((resolve) => setTimeout(resolve, everyMs));
        }
      })();
      return async () => {
        stopped = true;
        await sampling;
        return { active, waitingOnLock, events };
      };
    },
    async close() {
      try {
        await knex.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]);
      } finally {
        await knex.destroy();
      }
    },
  };
}

/** cutime + cstime of `pid`: the CPU of its children that have exited and been waited for, in seconds. */
function reapedChildrenCpu(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return 0;
  }
}
