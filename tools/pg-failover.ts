import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { appendFile, chown, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './free-port.js';

const run = promisify(execFile);

/**
 * A pg_auto_failover formation of this machine (rest-contract §16): a monitor and two nodes with
 * synchronous replication, each in a temporary directory of its own on free ports of 127.0.0.1,
 * what the failover tests and `npm run bench -- --only failover` run on. Faster than an
 * operator's: every data directory is made by `initdb --no-sync` with fsync off and small
 * buffers before pg_autoctl adopts it, the monitor's health checks are tuned to notice a lost
 * node in about 3 s (TUNED_MONITOR), and a CHECKPOINT lets the standby's base backup start at
 * once rather than after a spread checkpoint (8 s here). `destroy` leaves no process and no file.
 *
 * pg_autoctl refuses to run as root: as root, everything runs as the `postgres` OS user.
 * Needs Debian's postgresql-<version>-auto-failover (pg_autoctl); `.ci/run` installs it.
 */

/** One node of the formation. */
export interface FailoverNode {
  readonly name: string;
  readonly port: number;
  /** Its own URL (a single host). */
  readonly url: string;
}

export interface Formation {
  readonly nodes: readonly [FailoverNode, FailoverNode];
  /** DATABASE_URL naming both nodes, libpq's way (postgres://…@h1:p1,h2:p2/db?target_session_attrs=read-write). */
  readonly url: string;
  /** The monitor's URL (its pgautofailover schema says each node's state). */
  readonly monitorUrl: string;
  /** Seconds from the start to both nodes reported primary and secondary. */
  readonly readySeconds: number;
  /** The node the monitor has as primary now (reported), or undefined while none is. */
  primary(): Promise<FailoverNode | undefined>;
  /** Each node's reported state, as the monitor has it. */
  states(): Promise<Record<string, string>>;
  /** A planned switchover (pg_auto_failover's perform_failover): resolves once another node is primary and the old one secondary. */
  switchover(): Promise<{ promotedSeconds: number }>;
  /** SIGKILL the postmaster of the primary (pg_autoctl restarts it, or the monitor fails over). */
  killPostmaster(): Promise<FailoverNode>;
  /** The primary's whole node lost (pg_autoctl and Postgres killed, nothing restarts it). */
  loseNode(): Promise<FailoverNode>;
  /** Start a lost node's pg_autoctl again: it rejoins as a secondary (pg_rewind). */
  rejoin(node: FailoverNode): Promise<void>;
  /**
   * When a node of the formation first takes writes, and which: an INSERT committed on it (a
   * row of PROBE_TABLE), tried on every node at once, again 25 ms after each refusal. A commit
   * is the only sure sign: a node out of recovery may still refuse writes (pg_auto_failover keeps
   * a promoted node read-only until it knows the old primary demoted, up to
   * primary_demote_timeout), and one restarted in place holds every commit until its synchronous
   * standby is back or it is demoted; `pg_is_in_recovery()` and `txid_current()` (which writes
   * no WAL of its own, so waits for no standby) both answered "writable" seconds early.
   * `from`, the primary that fails: a commit on it counts only after it has refused one (a
   * switchover drains it for a moment after it was asked; before, it still takes writes).
   */
  takesWrites(from: FailoverNode, ms: number): Promise<{ node: FailoverNode; at: number }>;
  /** Run `statements` on `node`, one after the other (as its superuser). */
  sql(node: FailoverNode, ...statements: readonly string[]): Promise<void>;
  /** Resolves once `predicate` holds of the reported states (polled every 100 ms), or throws after `ms`. */
  until(predicate: (states: Record<string, string>) => boolean, ms: number): Promise<number>;
  /** Stop everything and delete every directory. */
  destroy(): Promise<void>;
}

/**
 * The monitor's timeouts, tuned for a test on one machine (the defaults are 5 s health checks
 * and 20 s before a node is considered unhealthy, for a network): a lost node is noticed in
 * about 3 s. docs/failover.md says what an operator tunes.
 */
const TUNED_MONITOR = [
  'pgautofailover.health_check_period = 1000',
  'pgautofailover.health_check_timeout = 1000',
  'pgautofailover.health_check_max_retries = 1',
  'pgautofailover.health_check_retry_delay = 500',
  'pgautofailover.node_considered_unhealthy_timeout = 3000',
  'pgautofailover.primary_demote_timeout = 10000',
  'pgautofailover.startup_grace_period = 3000',
];
/** Every instance: a throwaway cluster, small and without fsync. */
const THROWAWAY = ['fsync = off', 'synchronous_commit = on', 'full_page_writes = off', "shared_buffers = '32MB'", 'checkpoint_timeout = 30s'];

const asRoot = process.getuid?.() === 0;

/** PG_BIN, else the newest /usr/lib/postgresql/<version>/bin that has pg_autoctl's extension. */
function pgBin(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  const withExtension = versions.find((v) => existsSync(`/usr/share/postgresql/${v}/extension/pgautofailover.control`));
  const version = withExtension ?? versions[0];
  if (version === undefined) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql (set PG_BIN)');
  return path.join(root, version, 'bin');
}

/** pg_autoctl is installed (Debian: postgresql-<version>-auto-failover). */
export function autoFailoverInstalled(): boolean {
  try {
    pgBin();
  } catch {
    return false;
  }
  return ['/usr/bin/pg_autoctl', path.join(pgBin(), 'pg_autoctl')].some((file) => existsSync(file));
}

interface Instance {
  readonly name: string;
  readonly dir: string;
  readonly data: string;
  readonly port: number;
  child: ChildProcess | undefined;
}

/** A monitor and two nodes, ready (primary and secondary) or an error after `readyMs`; gone when it throws. */
export async function createFormation(readyMs = 60_000): Promise<Formation> {
  const started = performance.now();
  const bin = pgBin();
  const root = await mkdtemp(path.join(tmpdir(), 'topocat-failover-'));
  const ids = asRoot ? { uid: Number((await run('id', ['-u', 'postgres'])).stdout.trim()), gid: Number((await run('id', ['-g', 'postgres'])).stdout.trim()) } : undefined;
  if (ids) await chown(root, ids.uid, ids.gid);
  const instances: Instance[] = [];
  const make = async (name: string): Promise<Instance> => {
    const dir = path.join(root, name);
    await mkdir(dir);
    if (ids) await chown(dir, ids.uid, ids.gid);
    const instance = { name, dir, data: path.join(dir, 'pg'), port: await freePort(), child: undefined };
    instances.push(instance);
    return instance;
  };
  const env = (instance: Instance): Record<string, string> => ({
    HOME: instance.dir,
    XDG_CONFIG_HOME: path.join(instance.dir, 'config'),
    XDG_DATA_HOME: path.join(instance.dir, 'data'),
    XDG_RUNTIME_DIR: path.join(instance.dir, 'run'),
    PATH: `${bin}:/usr/bin:/bin`,
    PG_CONFIG: path.join(bin, 'pg_config'),
    PGHOST: '127.0.0.1',
  });
  const owned = async (command: string, args: readonly string[], instance: Instance): Promise<string> => {
    const vars = Object.entries(env(instance)).map(([k, v]) => `${k}=${v}`);
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', 'env', ...vars, command, ...args]] : ['env', [...vars, command, ...args]];
    return (await run(file, argv, { timeout: 60_000 })).stdout;
  };
  /** `pg_autoctl <args>` of `instance`, running until stopped (its own process group, so all of it can be killed). */
  const autoctl = (instance: Instance, args: readonly string[]): void => {
    const vars = Object.entries(env(instance)).map(([k, v]) => `${k}=${v}`);
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', 'env', ...vars, 'pg_autoctl', ...args]] : ['env', [...vars, 'pg_autoctl', ...args]];
    const child = spawn(file, argv, { detached: true, stdio: ['ignore', 'ignore', 'ignore'] });
    child.unref();
    instance.child = child;
  };
  /** initdb without sync, and the throwaway settings, before pg_autoctl adopts the directory. */
  const initdb = async (instance: Instance, extra: readonly string[] = []): Promise<void> => {
    await owned(path.join(bin, 'initdb'), ['-D', instance.data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C'], instance);
    await appendFile(path.join(instance.data, 'postgresql.conf'), [...THROWAWAY, `port = ${instance.port}`, "listen_addresses = '127.0.0.1'", ...extra, ''].join('\n'));
  };
  const common = ['--hostname', '127.0.0.1', '--auth', 'trust', '--no-ssl', '--pgctl', path.join(bin, 'pg_ctl')];
  let monitor: pg.Client | undefined;
  const destroy = async (): Promise<void> => {
    await monitor?.end().catch(() => undefined);
    for (const instance of [...instances].reverse()) await stopInstance(instance, bin, owned);
    await rm(root, { recursive: true, force: true });
  };
  try {
    const mon = await make('monitor');
    const nodes = [await make('node1'), await make('node2')] as const;
    await initdb(mon, TUNED_MONITOR);
    await initdb(nodes[0]);
    autoctl(mon, ['create', 'monitor', '--pgdata', mon.data, '--pgport', String(mon.port), ...common, '--run']);
    const monitorUrl = `postgres://autoctl_node@127.0.0.1:${mon.port}/pg_auto_failover`;
    monitor = await connectWhenReady(monitorUrl, 'SELECT 1 FROM pgautofailover.node LIMIT 0', started + readyMs);
    monitor.on('error', () => undefined);
    autoctl(nodes[0], ['create', 'postgres', '--pgdata', nodes[0].data, '--pgport', String(nodes[0].port), '--name', nodes[0].name, '--monitor', monitorUrl, ...common, '--run']);
    const states = async (): Promise<Record<string, string>> => {
      const { rows } = await monitor!.query<{ nodename: string; reportedstate: string }>('SELECT nodename, reportedstate::text FROM pgautofailover.node ORDER BY nodeid');
      return Object.fromEntries(rows.map((r) => [r.nodename, r.reportedstate]));
    };
    const until = async (predicate: (s: Record<string, string>) => boolean, ms: number): Promise<number> => {
      const from = performance.now();
      const deadline = from + ms;
      let last: Record<string, string> = {};
      for (;;) {
        last = await states().catch(() => last);
        if (predicate(last)) return (performance.now() - from) / 1000;
        if (performance.now() > deadline) throw new Error(`pg_auto_failover: not reached in ${ms} ms; states ${JSON.stringify(last)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    // The second node only once the first is registered: registered first, it would be the primary-to-be without data.
    await until((s) => s[nodes[0].name] !== undefined, Math.max(1_000, started + readyMs - performance.now()));
    autoctl(nodes[1], ['create', 'postgres', '--pgdata', nodes[1].data, '--pgport', String(nodes[1].port), '--name', nodes[1].name, '--monitor', monitorUrl, ...common, '--run']);
    // While the second node waits for a checkpoint to start its base backup, ask for one at once.
    const ready = (s: Record<string, string>): boolean => Object.values(s).sort().join(',') === 'primary,secondary';
    let first: pg.Client | undefined;
    await until((s) => {
      if (s[nodes[1].name] === 'catchingup' && first === undefined) {
        first = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${nodes[0].port}/postgres` });
        first.on('error', () => undefined);
        void first.connect().then(() => first!.query('CHECKPOINT')).catch(() => undefined);
      }
      return ready(s);
    }, Math.max(1_000, started + readyMs - performance.now()));
    await first?.end().catch(() => undefined);
    await withClient(`postgres://postgres@127.0.0.1:${nodes[0].port}/postgres`, (client) => client.query(`CREATE TABLE ${PROBE_TABLE} (at timestamptz NOT NULL DEFAULT now())`));

    const nodeOf = (instance: Instance): FailoverNode => ({ name: instance.name, port: instance.port, url: `postgres://postgres@127.0.0.1:${instance.port}/postgres` });
    const both = [nodeOf(nodes[0]), nodeOf(nodes[1])] as const;
    const primary = async (): Promise<FailoverNode | undefined> => {
      const s = await states();
      return both.find((n) => s[n.name] === 'primary');
    };
    const instanceOf = (node: FailoverNode): Instance => nodes.find((i) => i.name === node.name)!;
    return {
      nodes: both,
      url: `postgres://postgres@127.0.0.1:${nodes[0].port},127.0.0.1:${nodes[1].port}/postgres?target_session_attrs=read-write`,
      monitorUrl,
      readySeconds: (performance.now() - started) / 1000,
      primary,
      states,
      until,
      takesWrites: (from, ms) => takesWrites(both, from, ms),
      sql: (node, ...statements) =>
        withClient(node.url, async (client) => {
          for (const statement of statements) await client.query(statement);
        }),
      async switchover() {
        await until(ready, 90_000);
        const old = await primary();
        if (!old) throw new Error('no primary to switch over from');
        const from = performance.now();
        await monitor!.query("SELECT pgautofailover.perform_failover('default', 0)");
        await until((s) => s[old.name] === 'secondary' && Object.entries(s).some(([name, state]) => name !== old.name && state === 'primary'), 60_000);
        return { promotedSeconds: (performance.now() - from) / 1000 };
      },
      async killPostmaster() {
        await until(ready, 90_000);
        const old = await primary();
        if (!old) throw new Error('no primary');
        const pid = Number(readFileSync(path.join(instanceOf(old).data, 'postmaster.pid'), 'utf8').split('\n')[0]);
        process.kill(pid, 'SIGKILL');
        return old;
      },
      async loseNode() {
        await until(ready, 90_000);
        const old = await primary();
        if (!old) throw new Error('no primary');
        killGroup(instanceOf(old));
        await stopInstance(instanceOf(old), bin, owned, false);
        return old;
      },
      async rejoin(node) {
        const instance = instanceOf(node);
        autoctl(instance, ['run', '--pgdata', instance.data]);
        await until(ready, 60_000);
      },
      destroy,
    };
  } catch (error) {
    await destroy();
    throw error;
  }
}

/** SIGKILL an instance's pg_autoctl and everything of its process group. */
function killGroup(instance: Instance): void {
  const pid = instance.child?.pid;
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
  instance.child = undefined;
}

/**
 * Stop an instance for good: its pg_autoctl's process group, then its postmaster if one runs
 * (pg_autoctl starts Postgres in a group of its own), immediately. `wait`: until it is gone.
 */
async function stopInstance(instance: Instance, bin: string, owned: (command: string, args: readonly string[], instance: Instance) => Promise<string>, wait = true): Promise<void> {
  killGroup(instance);
  const pidFile = path.join(instance.data, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    return;
  }
  if (!wait) return;
  // Its backends leave once they notice the postmaster gone; pg_ctl status says when the directory is free.
  for (let i = 0; i < 50; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  void bin;
  void owned;
}

/** The table takesWrites inserts into (made on the first primary; topocat's own tables are named otherwise). */
const PROBE_TABLE = 'failover_probe';

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The first node of `nodes` to commit an INSERT, and when (performance.now()); see Formation.takesWrites. */
async function takesWrites(nodes: readonly FailoverNode[], from: FailoverNode, ms: number): Promise<{ node: FailoverNode; at: number }> {
  const deadline = performance.now() + ms;
  let done = false;
  const clients = new Set<pg.Client>();
  const tryNode = async (node: FailoverNode): Promise<{ node: FailoverNode; at: number }> => {
    let refused = node.name !== from.name;
    while (!done) {
      const client = new pg.Client({ connectionString: node.url, connectionTimeoutMillis: 500 });
      client.on('error', () => undefined);
      clients.add(client);
      try {
        await client.connect();
        // No timeout: a commit that waits for the synchronous standby waits here as well.
        await client.query(`INSERT INTO ${PROBE_TABLE} DEFAULT VALUES`);
        const at = performance.now();
        if (!done && refused) {
          done = true;
          return { node, at };
        }
      } catch {
        // Not writable yet (refused, read-only, in recovery, terminated while waiting).
        refused = true;
      } finally {
        clients.delete(client);
        void client.end().catch(() => undefined);
      }
      if (performance.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    // Another node took writes first, or none did in time: never resolves (the race is decided elsewhere).
    return new Promise(() => undefined);
  };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no node of the formation took writes within ${ms} ms`)), ms + 1_000);
  });
  try {
    return await Promise.race([...nodes.map(tryNode), timeout]);
  } finally {
    done = true;
    clearTimeout(timer);
    // A probe still waiting (a commit held for a standby that never comes) is let go.
    for (const client of clients) void client.end().catch(() => undefined);
  }
}

async function connectWhenReady(url: string, sql: string, deadline: number): Promise<pg.Client> {
  for (;;) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query(sql);
      return client;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (performance.now() > deadline) throw new Error(`pg_auto_failover's monitor did not come up: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
