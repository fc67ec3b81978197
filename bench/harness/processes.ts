/**
 * The processes a benchmark measures: topocat's server and the peers, each a child process of its
 * own (so each gets a core as a deployment would), logging to a file rather than to a pipe the
 * runner would have to drain while it also drives the load.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** dist/, where the compiled server and peers live. */
export const distRoot = fileURLToPath(new URL('../../', import.meta.url));
/** The project checkout (dist/..). */
export const projectRoot = path.resolve(distRoot, '..');

export interface Measured {
  readonly url: string;
  readonly pid: number;
  /** Where its stdout and stderr go. */
  readonly logFile: string;
  /** Resident memory of the process and its children (cluster workers), in bytes. */
  rss(): number;
  stop(): Promise<void>;
}

export { freePort } from '../../tools/free-port.js';

function rssOfPid(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kib === undefined ? 0 : Number(kib) * 1024;
  } catch {
    return 0;
  }
}

/** Direct children of `pid`: cluster workers belong to the measured server. */
export function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    // Without the children file (older kernels), scan /proc for processes whose parent is pid.
    return readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
      .filter((candidate) => {
        try {
          return Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${candidate}/status`, 'utf8'))?.[1]) === pid;
        } catch {
          return false;
        }
      });
  }
}

export function treeRss(pid: number): number {
  return rssOfPid(pid) + childrenOf(pid).reduce((sum, child) => sum + treeRss(child), 0);
}

async function waitUntilAnswering(url: string, child: ChildProcess, logFile: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${path.basename(logFile)}: exited with ${child.exitCode ?? child.signalCode} before answering\n${readFileSync(logFile, 'utf8').slice(-2000)}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await response.arrayBuffer();
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`${url} did not answer within ${timeoutMs} ms\n${readFileSync(logFile, 'utf8').slice(-2000)}`);
}

export interface LaunchOptions {
  /** Compiled entry point, relative to dist/ (or absolute: another build). */
  readonly entry: string;
  readonly args?: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly port: number;
  /** Path polled until it answers below 500. */
  readonly readyPath: string;
  /** Where stdout and stderr go. */
  readonly logFile: string;
}

/**
 * Node's options for a process of the bench: `--cpu-prof` into TOPOCAT_BENCH_CPU_PROF (a
 * directory) for the processes whose log file's name holds TOPOCAT_BENCH_CPU_PROF_ONLY (all when
 * unset), so that a row's server can be profiled as the row runs it (Node refuses `--cpu-prof`
 * in NODE_OPTIONS). The profile is written when the process exits.
 */
function nodeOptions(logFile: string): string[] {
  const dir = process.env.TOPOCAT_BENCH_CPU_PROF;
  const only = process.env.TOPOCAT_BENCH_CPU_PROF_ONLY;
  if (!dir || (only && !path.basename(logFile).includes(only))) return [];
  return ['--cpu-prof', `--cpu-prof-dir=${path.resolve(dir)}`];
}

/** Start a process and resolve once it answers on `readyPath`. */
export async function launch(options: LaunchOptions): Promise<Measured> {
  const out = openSync(options.logFile, 'a');
  const child = spawn(process.execPath, [...nodeOptions(options.logFile), path.resolve(distRoot, options.entry), ...(options.args ?? [])], {
    env: { PATH: process.env.PATH ?? '', ...options.env, PORT: String(options.port), HOST: '127.0.0.1' },
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${options.port}`;
  await waitUntilAnswering(`${url}${options.readyPath}`, child, options.logFile, 60_000);
  const pid = child.pid!;
  return {
    url,
    pid,
    logFile: options.logFile,
    rss: () => treeRss(pid),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(killer);
    },
  };
}
