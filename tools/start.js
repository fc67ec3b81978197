/**
 * `npm start`: the built server (dist/server/main.js), in this very process, so the signals that
 * npm passes on (SIGTERM from systemd or Docker, SIGINT from Ctrl-C) reach the server itself.
 * Plain JavaScript, because it must run before anything is built.
 *
 * The build happens once (`npm run build`, which `npm test` runs too). A start compares the
 * build's stamp (dist/.build-complete, written by the build's last step) with the sources the
 * server is built from; only when one is newer, or there is no build, it rebuilds first, and says
 * so. TOPOCAT_NO_REBUILD=true starts a stale build anyway, with a warning on stderr.
 */
import { spawnSync } from 'node:child_process';
import cluster from 'node:cluster';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import console from 'node:console';
import process from 'node:process';
import { fileURLToPath, pathToFileURL, URL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const STAMP = path.join(root, 'dist/.build-complete');
/** What `npm run build` compiles into what the server runs. */
const SOURCES = ['server', 'generated', 'ui', 'tools', 'package.json', 'tsconfig.json'];
/** Folders below those that are not built into dist/ (the SDK packages' own builds). */
const SKIPPED = new Set(['dist', 'node_modules']);

/** The newest file of `entry` (a file or a folder), as [mtimeMs, path]. */
function newest(entry) {
  const stat = statSync(entry, { throwIfNoEntry: false });
  if (!stat) return [0, entry];
  if (!stat.isDirectory()) return [stat.mtimeMs, entry];
  let best = [0, entry];
  for (const child of readdirSync(entry, { withFileTypes: true })) {
    if (child.isDirectory() && SKIPPED.has(child.name)) continue;
    const found = newest(path.join(entry, child.name));
    if (found[0] > best[0]) best = found;
  }
  return best;
}

/** Why the build cannot be used as it is, or undefined when it can. */
function staleness() {
  const built = statSync(STAMP, { throwIfNoEntry: false });
  if (!built) return 'there is no complete build (dist/)';
  for (const source of SOURCES) {
    const [mtimeMs, file] = newest(path.join(root, source));
    if (mtimeMs > built.mtimeMs) return `${path.relative(root, file)} changed after the last build`;
  }
  return undefined;
}

// Cluster workers run this file too (it is the process's script); their primary already checked.
if (!cluster.isWorker) {
  const reason = staleness();
  const args = process.argv.slice(2);
  const informational = args.includes('--help') || args.includes('-h') || args.includes('--version');
  if (reason !== undefined && !(informational && statSync(path.join(root, 'dist/server/main.js'), { throwIfNoEntry: false }))) {
    if (process.env.TOPOCAT_NO_REBUILD === 'true') {
      console.error(`warning: the build is stale: ${reason}; starting it anyway (TOPOCAT_NO_REBUILD=true). npm run build brings it up to date`);
    } else {
      console.error(`${reason}: building first (npm run build)`);
      const npm = process.env.npm_execpath;
      // Under npm, its own CLI; otherwise the npm on PATH.
      const build = npm ? spawnSync(process.execPath, [npm, 'run', 'build'], { cwd: root, stdio: ['ignore', 2, 2] }) : spawnSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 2, 2] });
      if (build.status !== 0) {
        console.error('error: the build failed (above); the server was not started');
        process.exit(1);
      }
    }
  }
}

await import(pathToFileURL(path.join(root, 'dist/server/main.js')).href);
