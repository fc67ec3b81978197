import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The compiled project root (tests run from dist/test). */
export const distRoot = fileURLToPath(new URL('../../', import.meta.url));
export const projectRoot = path.resolve(distRoot, '..');

export interface LogLine {
  readonly level: number;
  readonly msg: string;
  readonly [key: string]: unknown;
}

export interface RunningServer {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  readonly url: string;
  readonly process: ChildProcess;
  /** The temporary directory holding the database; removed by `stop`. */
  readonly dir: string;
  readonly logs: LogLine[];
  /** Send a signal and wait for the exit code (SIGTERM: a graceful stop). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface ServerOptions {
  readonly env?: Readonly<Record<string, string>>;
  /** Reuse a directory (and so a database) of an earlier server. */
  readonly dir?: string;
  /** Entry point to run, for a copy of the project. */
  readonly entry?: string;
}

/**
 * Start the real server as a child process on a free port with a temporary SQLite database,
 * and resolve once it logs that it listens.
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const dir = options.dir ?? (await mkdtemp(path.join(tmpdir(), 'topocat-test-')));
  const child = spawn(process.execPath, [options.entry ?? path.join(distRoot, 'server/main.js')], {
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      DATABASE_URL: `sqlite:${path.join(dir, 'topocat.sqlite')}`,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: LogLine[] = [];
  const stderr: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      // A server that never says it listens must not outlive the test run.
      child.kill('SIGKILL');
      reject(new Error(`server did not start within 20 s\n${stderr.join('')}`));
    }, 20_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as LogLine;
        logs.push(entry);
        if (entry.msg === 'listening') {
          // The local address: PUBLIC_URL may name a proxy in front of the server.
          clearTimeout(timer);
          resolve(`http://127.0.0.1:${String(entry.port)}`);
        }
      } catch {
        stderr.push(line);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening\n${stderr.join('')}\n${JSON.stringify(logs)}`));
    });
  });

  return {
    url,
    process: child,
    dir,
    logs,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const code = await exited;
      if (!options.dir) await rm(dir, { recursive: true, force: true });
      return code;
    },
  };
}
