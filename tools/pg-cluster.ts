import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.js';

const run = promisify(execFile);

/** A PostgreSQL cluster of a test's own, to stop and start without disturbing any other test. */
export interface Cluster {
  /** DATABASE_URL of its `postgres` database. */
  readonly url: string;
  start(): Promise<void>;
  /** A fast shutdown: sessions are terminated, as in a real outage or a restart of the server. */
  stop(): Promise<void>;
  /** Stop it if it runs and delete its files. */
  destroy(): Promise<void>;
}

/** A cluster of this machine: its port on 127.0.0.1 and the directory that holds its files and socket. */
export interface LocalCluster extends Cluster {
  readonly port: number;
  readonly dir: string;
}

/** PG_BIN, else the newest /usr/lib/postgresql/<version>/bin (Debian, Ubuntu), else PATH. */
function binary(name: string): string {
  if (process.env.PG_BIN) return path.join(process.env.PG_BIN, name);
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions.map((v) => path.join(root, v, 'bin', name)).find((file) => existsSync(file));
  return found ?? name;
}

/**
 * initdb refuses to run as root, and tests may: as root, the cluster belongs to the `postgres`
 * OS user and its commands run through runuser.
 */
const asRoot = process.getuid?.() === 0;

async function owned(command: string, args: readonly string[]): Promise<void> {
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, [...args]];
  await run(file, argv, { timeout: 60_000 });
}

/** A temporary directory the cluster's OS user owns; `fill` makes its data directory, else it is removed. */
async function clusterDirectory(fill: (data: string) => Promise<void>): Promise<{ dir: string; data: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'topocat-pg-'));
  const data = path.join(dir, 'data');
  try {
    if (asRoot) {
      const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
      const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
      await chown(dir, uid, gid);
    }
    await fill(data);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return { dir, data };
}

/**
 * initdb in a temporary directory and a free port on 127.0.0.1, trust authentication; not
 * started. Its pg_hba.conf (initdb's, with `--auth=trust`) lets 127.0.0.1 connect for
 * replication too, so createStandby can copy it.
 */
export async function createCluster(): Promise<LocalCluster> {
  const { dir, data } = await clusterDirectory((into) => owned(binary('initdb'), ['-D', into, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']));
  return cluster(dir, data, await freePort(), []);
}

/**
 * A hot standby of `primary` (running): `pg_basebackup -R` streams its files and WAL into a new
 * directory and writes the settings that make it follow the primary; started on a port of its own,
 * with `settings` (e.g. `recovery_min_apply_delay=200ms`). Stopping it, as stopping a real standby,
 * leaves the primary as it was.
 */
export async function createStandby(primary: { readonly port: number }, settings: readonly string[] = []): Promise<LocalCluster> {
  const { dir, data } = await clusterDirectory((into) =>
    owned(binary('pg_basebackup'), ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', into, '-R', '-X', 'stream', '-c', 'fast', '--no-sync']),
  );
  return cluster(dir, data, await freePort(), settings);
}

function cluster(dir: string, data: string, port: number, settings: readonly string[]): LocalCluster {
  // The socket directory is the cluster's own, so no other server's socket is touched; fsync off
  // because the files are thrown away.
  const options = [`-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, ...settings.map((setting) => `-c ${setting}`)].join(' ');
  const pgCtl = binary('pg_ctl');
  let running = false;
  return {
    port,
    dir,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async start() {
      await owned(pgCtl, ['-D', data, '-l', path.join(dir, 'log'), '-o', options, '-w', '-t', '30', 'start']);
      running = true;
    },
    async stop() {
      await owned(pgCtl, ['-D', data, '-m', 'fast', '-w', 'stop']);
      running = false;
    },
    async destroy() {
      if (running) await owned(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A private primary and a streaming standby of it (with the standby's `settings`), both started:
 * what the standby tests, `npm test`'s run with a standby and the bench's replicas rows run on.
 * `destroy` removes both, whatever state they are in.
 */
export async function createPrimaryAndStandby(settings: readonly string[] = []): Promise<{ primary: LocalCluster; standby: LocalCluster; destroy(): Promise<void> }> {
  const primary = await createCluster();
  let standby: LocalCluster | undefined;
  try {
    await primary.start();
    standby = await createStandby(primary, settings);
    await standby.start();
  } catch (error) {
    await standby?.destroy();
    await primary.destroy();
    throw error;
  }
  const made = standby;
  return {
    primary,
    standby: made,
    async destroy() {
      await made.destroy();
      await primary.destroy();
    },
  };
}
