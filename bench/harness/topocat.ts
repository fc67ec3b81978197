/**
 * topocat as the benchmark runs it: the compiled server (`npm start`'s entry) on a SQLite file
 * of the run's own (or the PostgreSQL database it is given), with bearer tokens configured (so every request passes the auth hook) and
 * the access log at its default level, written to a file.
 */
import path from 'node:path';
import { hashToken } from '../../server/tokens.js';
import { freePort, launch, type Measured } from './processes.js';

export interface TopocatOptions {
  /** The run's scratch directory: the database and the logs live there. */
  readonly dir: string;
  /** The token every request sends (all scopes, bound to `dn`). */
  readonly token: string;
  readonly dn: string;
  readonly workers?: number;
  readonly label: string;
  /** DATABASE_URL; a SQLite file in `dir` when absent. */
  readonly databaseUrl?: string;
  /** More environment (e.g. READ_CACHE_MB). */
  readonly env?: Readonly<Record<string, string>>;
  /** The server's entry: this build's `server/main.js` when absent, or another build's, absolute (a baseline to compare with). */
  readonly entry?: string;
}

export async function startTopocat(options: TopocatOptions): Promise<Measured> {
  const tokens = { tokens: [{ name: 'bench', hash: hashToken(options.token), scopes: ['read', 'create', 'update', 'delete', 'admin', 'metrics', 'register'], dn: options.dn }] };
  return launch({
    entry: options.entry ?? 'server/main.js',
    args: options.workers === undefined ? [] : ['--workers', String(options.workers)],
    env: {
      DATABASE_URL: options.databaseUrl ?? `sqlite:${path.join(options.dir, 'topocat.sqlite')}`,
      TOPOCAT_TOKENS: JSON.stringify(tokens),
      LOG_LEVEL: 'info',
      ...options.env,
    },
    port: await freePort(),
    readyPath: '/health',
    logFile: path.join(options.dir, `${options.label}.log`),
  });
}

/** Start a peer (a compiled file under dist/bench/peers) and wait until `readyPath` answers. */
export async function startPeer(dir: string, name: string, env: Readonly<Record<string, string>>, readyPath: string): Promise<Measured> {
  return launch({ entry: `bench/peers/${name}.js`, env, port: await freePort(), readyPath, logFile: path.join(dir, `${name}.log`) });
}
