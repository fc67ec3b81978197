import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createTestDatabase, type TestDatabase } from './database.js';

import { describeServer } from './openapi.js';
import { distRoot, projectRoot } from './paths.js';

export { distRoot, projectRoot } from './paths.js';

export interface LogLine {
  readonly level: number;
  readonly msg: string;
  readonly [key: string]: unknown;
}

export interface RunningServer {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  readonly url: string;
  readonly process: ChildProcess;
  /** Its database; dropped by `stop` unless it was given in the options. */
  readonly database: TestDatabase;
  readonly logs: LogLine[];
  /** Lines on stdout that are not JSON log entries: none are expected. */
  readonly strayOutput: string[];
  /** Send a signal and wait for the exit code (SIGTERM: a graceful stop). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface ServerOptions {
  readonly env?: Readonly<Record<string, string>>;
  /** A database to use (shared with other servers, or kept for a later one); its owner drops it. */
  readonly database?: TestDatabase;
  /** Entry point to run, for a copy of the project. */
  readonly entry?: string;
  /** Command-line arguments for the entry (`--workers 2`). */
  readonly args?: readonly string[];
  /** Called with each log line as it arrives, also before the server listens. */
  readonly onLog?: (line: LogLine) => void;
}

/**
 * Start the real server as a child process on a free port with a fresh database of the engine
 * under test (test/helpers/database.ts), and resolve once it logs that it listens.
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const database = options.database ?? (await createTestDatabase());
  const child = spawn(process.execPath, [options.entry ?? path.join(distRoot, 'server/main.js'), ...(options.args ?? [])], {
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      DATABASE_URL: database.url,
      // The run with a standby (test/run.ts): every server reads from it.
      ...(process.env.TOPOCAT_TEST_READ_URLS && database.url.startsWith('postgres') ? { DATABASE_READ_URLS: process.env.TOPOCAT_TEST_READ_URLS } : {}),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: LogLine[] = [];
  const strayOutput: string[] = [];
  const stderr: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const listening = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      // A server that never says it listens must not outlive the test run.
      child.kill('SIGKILL');
      reject(new Error(`server did not start within 20 s\n${stderr.join('')}`));
    }, 20_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as LogLine;
        logs.push(entry);
        options.onLog?.(entry);
        if (entry.msg === 'listening') {
          // The local address: PUBLIC_URL may name a proxy in front of the server.
          clearTimeout(timer);
          resolve(`http://127.0.0.1:${String(entry.port)}`);
        }
      } catch {
        strayOutput.push(line);
        stderr.push(line);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening\n${stderr.join('')}\n${JSON.stringify(logs)}`));
    });
  });

  let url: string;
  try {
    url = await listening;
    // A server of a project copy serves that copy's description; a lookup the lookup's.
    describeServer(url, options.entry ? path.resolve(path.dirname(options.entry), '../..') : projectRoot, ['true', '1'].includes(options.env?.LOOKUP ?? ''));
  } catch (error) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    if (!options.database) await database.drop();
    throw error;
  }

  return {
    url,
    process: child,
    database,
    logs,
    strayOutput,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const code = await exited;
      if (!options.database) await database.drop();
      return code;
    },
  };
}
