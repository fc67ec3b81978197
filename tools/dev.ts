/**
 * `npm run dev`: the development loop. The generator watches schemas/, wsdl/, the templates and
 * the runtime modules and regenerates generated/; `tsc --watch` rebuilds dist/ whenever a source
 * or a generated file changes; after every build without errors the server restarts on the new
 * dist/. A build with errors prints them and keeps the running server. Ctrl-C or SIGTERM stops
 * everything, the server gracefully, before this process exits.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);

if (args.includes('--help') || args.includes('-h')) {
  console.log(`usage: npm run dev [-- <arguments for the server>]

Regenerates generated/ when a schema, the WSDL or a template changes, rebuilds dist/ when any
TypeScript changes, and restarts the server after each build without errors. The server reads
the usual environment (PORT, DATABASE_URL, ...; see npm start -- --help).`);
  process.exit(0);
}

const children = new Set<ChildProcess>();
function start(command: string, commandArgs: readonly string[], onLine: (line: string) => void): ChildProcess {
  const child = spawn(command, commandArgs, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  for (const stream of [child.stdout!, child.stderr!]) createInterface({ input: stream }).on('line', onLine);
  return child;
}

const say = (line: string): void => console.log(`[dev] ${line}`);

let server: ChildProcess | undefined;
let stopping = false;
let restarting = Promise.resolve();

/** Stop the running server (gracefully) and start one on the new build. */
function restart(): void {
  restarting = restarting.then(async () => {
    const old = server;
    if (old && old.exitCode === null && old.signalCode === null) {
      const exited = new Promise((resolve) => old.once('exit', resolve));
      old.kill('SIGTERM');
      await exited;
    }
    if (stopping) return;
    say(old ? 'build ok: restarting the server' : 'build ok: starting the server');
    server = start(process.execPath, ['dist/server/main.js', ...args], (line) => console.log(line));
  });
}

start(process.execPath, ['--import', 'tsx', 'generator/cli.ts', '--watch'], (line) => say(`generate: ${line}`));
start(process.execPath, ['node_modules/typescript/bin/tsc', '-p', '.', '--watch', '--preserveWatchOutput'], (line) => {
  const found = /Found (\d+) errors?\. Watching for file changes\./.exec(line);
  if (!found) {
    if (line.trim() !== '' && !/Starting compilation|File change detected/.test(line)) say(`tsc: ${line}`);
    return;
  }
  if (found[1] === '0') restart();
  else say(`build failed with ${found[1]} error(s); the server keeps running the last good build`);
});

/** Past this, children still running after SIGTERM are killed (the server's own SHUTDOWN_TIMEOUT_MS is 10 s). */
const STOP_MS = 15_000;

/**
 * SIGTERM or SIGINT (npm passes both on: `npm run dev` execs this process): every child is
 * asked to stop, and this process exits only once they all have, so no server outlives it.
 */
function stopAll(): void {
  if (stopping) return;
  stopping = true;
  const running = [...children];
  let left = running.length;
  if (left === 0) process.exit(0);
  for (const child of running) {
    child.once('exit', () => {
      if (--left === 0) process.exit(0);
    });
    child.kill('SIGTERM');
  }
  setTimeout(() => {
    for (const child of children) child.kill('SIGKILL');
    process.exit(1);
  }, STOP_MS).unref();
}
process.on('SIGINT', stopAll);
process.on('SIGTERM', stopAll);
