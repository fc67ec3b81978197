/**
 * The service's life as an operator sees it (docs/running.md), on a SQLite file holding
 * sizes.nodes / 5 nodes: how long a start takes (spawn → the first 200 of `/health`, asked every
 * 5 ms from the spawn, and how many were answered 503 meanwhile), a stop (SIGTERM → exit, idle and
 * with 32 requests in flight), a restart at once on the same file, and an online backup while
 * clients write.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import type { BenchContext } from '../harness/context.js';
import { percentile } from '../harness/load.js';
import { distRoot, freePort } from '../harness/processes.js';
import { count, mib, ms, type Row } from '../harness/report.js';

const ROUNDS = 5;

interface Started {
  readonly child: ChildProcess;
  readonly url: string;
  /** Spawn → the first 200 of /health. */
  readonly readyMs: number;
  /** /health answered 503 (starting) before that. */
  readonly starting: number;
  /** Requests neither answered nor refused: must be none. */
  readonly lost: number;
}

/** One GET on a connection of its own: its status, 0 when refused, -1 when cut or left unanswered. */
function probe(url: string): Promise<number> {
  return new Promise((resolve) => {
    let connected = false;
    const req = httpRequest(url, { agent: false, timeout: 10_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('socket', (socket) => socket.on('connect', () => (connected = true)));
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (error: NodeJS.ErrnoException) => resolve(!connected && error.code === 'ECONNREFUSED' ? 0 : -1));
    req.end();
  });
}

async function start(database: string, env: Readonly<Record<string, string>> = {}): Promise<Started> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const began = performance.now();
  const child = spawn(process.execPath, [path.join(distRoot, 'server/main.js')], {
    env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: database, LOG_LEVEL: 'warn', ...env },
    stdio: 'ignore',
  });
  const probes: Promise<number>[] = [];
  let readyMs: number | undefined;
  while (readyMs === undefined) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} while starting`);
    const sent = probe(`${url}/health`);
    probes.push(sent);
    void sent.then((status) => {
      if (status === 200 && readyMs === undefined) readyMs = performance.now() - began;
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (performance.now() - began > 60_000) throw new Error('the server did not start within 60 s');
  }
  const statuses = await Promise.all(probes);
  return { child, url, readyMs, starting: statuses.filter((s) => s === 503).length, lost: statuses.filter((s) => s === -1).length };
}

/** SIGTERM → exit, in ms. */
async function stop(child: ChildProcess): Promise<number> {
  const began = performance.now();
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
  return performance.now() - began;
}

async function load(url: string, nodes: number): Promise<void> {
  for (let i = 0; i < nodes; i += 1_000) {
    const batch = Array.from({ length: Math.min(1_000, nodes - i) }, (_, j) => ({ id: `life-${i + j}`, name: `n${i + j}`, location: { institution: 'IU' }, description: 'x'.repeat(200) }));
    const response = await fetch(`${url}/nodes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(batch) });
    if (response.status !== 201) throw new Error(`loading: ${response.status} ${await response.text()}`);
  }
}

/** Clients that POST until stopped; their failed requests. */
function writers(url: string, n: number): { stop(): Promise<number> } {
  let going = true;
  let failures = 0;
  const loops = Array.from({ length: n }, async (_, w) => {
    for (let i = 0; going; i++) {
      const response = await fetch(`${url}/nodes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: `writer-${w}-${i}-${Date.now()}`, name: 'w' }) }).catch(() => undefined);
      if (response?.status !== 201) failures++;
      await response?.arrayBuffer();
    }
  });
  return {
    async stop() {
      going = false;
      await Promise.all(loops);
      return failures;
    },
  };
}

export async function lifecycleRows(ctx: BenchContext): Promise<Row[]> {
  const nodes = Math.max(1_000, Math.round(ctx.sizes.nodes / 5));
  const file = path.join(ctx.dir, 'lifecycle.sqlite');
  const database = `sqlite:${file}`;
  ctx.log(`lifecycle: a first start and ${count(nodes)} nodes`);
  const first = await start(database);
  await load(first.url, nodes);
  await stop(first.child);

  ctx.log(`lifecycle: ${ROUNDS} starts and idle stops`);
  const starts: Started[] = [];
  const stops: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = await start(database);
    starts.push(started);
    stops.push(await stop(started.child));
  }

  ctx.log('lifecycle: stops with 32 requests in flight');
  const busyStops: number[] = [];
  let inFlightFailed = 0;
  let inFlight = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const started = await start(database);
    // Lists of 1,000 nodes: each takes long enough to be in flight at the signal.
    const requests = Array.from({ length: 32 }, () => probe(`${started.url}/nodes?limit=1000`));
    await new Promise((resolve) => setTimeout(resolve, 5));
    busyStops.push(await stop(started.child));
    const statuses = await Promise.all(requests);
    // Refused (0): not connected before the signal, as a stopping server should.
    inFlight += statuses.filter((s) => s !== 0).length;
    inFlightFailed += statuses.filter((s) => s !== 0 && s !== 200).length;
  }

  ctx.log('lifecycle: restarts at once on the same file, under writes');
  const restarts: number[] = [];
  let restartLost = 0;
  let restartWriteFailures = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const old = await start(database);
    const writing = writers(old.url, 4);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const stopped = stop(old.child);
    const next = await start(database);
    await stopped;
    // Writes cut by the stop fail (refused or cut): they are not acknowledged, so nothing is lost.
    restartWriteFailures += await writing.stop();
    restarts.push(next.readyMs);
    restartLost += next.lost;
    await stop(next.child);
  }

  ctx.log('lifecycle: an online backup under writes');
  const serving = await start(database);
  const writing = writers(serving.url, 4);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const backupFile = path.join(ctx.dir, 'lifecycle-backup.sqlite');
  const began = performance.now();
  const backup = spawn(process.execPath, [path.join(distRoot, 'server/backup-cli.js'), backupFile], { env: { PATH: process.env.PATH ?? '', DATABASE_URL: database }, stdio: 'ignore' });
  const [backupCode] = (await once(backup, 'exit')) as [number | null];
  const backupMs = performance.now() - began;
  const backupWriteFailures = await writing.stop();
  await stop(serving.child);
  const backupBytes = backupCode === 0 ? statSync(backupFile).size : 0;

  const median = (values: readonly number[]): number => percentile([...values].sort((a, b) => a - b), 50);
  const readies = starts.map((s) => s.readyMs);
  return [
    {
      row: `start, SQLite, ${count(nodes)} nodes (spawn → first 200 of /health, median of ${ROUNDS})`,
      result: `${ms(median(readies))} (max ${ms(Math.max(...readies))}); /health asked every 5 ms: ${count(median(starts.map((s) => s.starting)))} answered 503 meanwhile (median), ${count(starts.reduce((n, s) => n + s.lost, 0))} unanswered`,
      target: 'every request answered or refused',
      met: starts.every((s) => s.lost === 0),
      figures: { readyMsMedian: median(readies), readyMsMax: Math.max(...readies), starting503Median: median(starts.map((s) => s.starting)) },
      failures: starts.reduce((n, s) => n + s.lost, 0),
    },
    {
      row: `stop, idle (SIGTERM → exit, median of ${ROUNDS})`,
      result: `${ms(median(stops))} (max ${ms(Math.max(...stops))})`,
      target: 'report',
      met: undefined,
      figures: { stopMsMedian: median(stops), stopMsMax: Math.max(...stops) },
      failures: 0,
    },
    {
      row: `stop with 32 lists of 1,000 nodes in flight (median of ${ROUNDS})`,
      result: `${ms(median(busyStops))} (max ${ms(Math.max(...busyStops))}); of the ${count(inFlight)} requests connected before the signal, ${count(inFlight - inFlightFailed)} answered 200`,
      target: 'every request in flight answered',
      met: inFlightFailed === 0,
      figures: { stopMsMedian: median(busyStops), inFlight, inFlightFailed },
      failures: 0,
    },
    {
      row: `restart at once on the same SQLite file under 4 writers (new process: spawn → first 200, median of ${ROUNDS})`,
      result: `${ms(median(restarts))} (max ${ms(Math.max(...restarts))}); ${count(restartLost)} requests unanswered; ${count(restartWriteFailures)} writes refused or cut by the stop`,
      target: 'starts, every request answered or refused',
      met: restartLost === 0,
      figures: { restartMsMedian: median(restarts), restartMsMax: Math.max(...restarts), restartWriteFailures },
      failures: restartLost,
    },
    {
      row: `\`npm run backup\`, SQLite, under 4 writers`,
      result: `${mib(backupBytes)} in ${ms(backupMs)} (${(backupBytes / 2 ** 20 / (backupMs / 1000)).toFixed(0)} MiB/s, process start included); ${count(backupWriteFailures)} writes failed meanwhile`,
      target: 'no write fails',
      met: backupCode === 0 && backupWriteFailures === 0,
      figures: { backupMs, backupBytes, backupWriteFailures },
      failures: (backupCode === 0 ? 0 : 1) + backupWriteFailures,
    },
  ];
}
