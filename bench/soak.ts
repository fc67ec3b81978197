/**
 * `npm run soak [-- --minutes N] [-- --concurrency C] [-- --json FILE] [-- --keep]`
 * `npm run soak -- --url http://127.0.0.1:PORT [--pid PID] [--token T] [--dn DN] …`
 *
 * Mixed REST and SOAP load for a while, every answer checked, with the server's memory watched.
 * By default it starts its own topocat (the compiled server, on a scratch SQLite file, tokens
 * configured, as `npm run bench` does); with --url it loads a server already running on this
 * machine (loopback only), whose memory it reads when --pid names the process.
 *
 * Each of the C virtual clients loops, one request at a time over its own kept-alive connection:
 *
 * - REST: POST a node; GET it back (same ETag, same document); PATCH its description
 *   (merge patch; a newer ts); GET the first version with ?ts=; query ?name= (exactly that node,
 *   in its patched version); query ?location.institution=…&limit=50 (1 to 50 nodes, all of that
 *   institution). Now and then (1 in 20) DELETE one of its nodes, then GET it: 404 is the answer
 *   expected. Now and then (1 in 25) POST an array of 50 nodes.
 * - SOAP: checkStatus; createObject of a project tree of its own (a PROJECT, 2 EXPERIMENTs, 6
 *   COLLECTIONs with a numeric grid dx); objectIdQuery of those 9 ids (all of them, in order);
 *   a context query under that project (exactly the 3 COLLECTIONs with dx < 3). Now and then
 *   (1 in 10) deleteObject one of its projects, then objectIdQuery of its tree: FATAL_QUERY_ERROR
 *   with OBJECT_DOES_NOT_EXIST for each id is the answer expected.
 *
 * The data set grows until each client holds its share of --max-nodes live nodes and
 * --max-projects live projects; beyond that the client deletes its oldest ones (a few per round,
 * more than it adds). Versions stay stored, so the database keeps growing, as it would in use.
 *
 * An error is any connection error or timeout, any status that is not the expected one, and any
 * answer that does not say what it should. Exit status: 1 when there was any error, else 0.
 * Requests of the warm-up count like the others; the memory baseline is read when it ends
 * (10% of the run, at most 30 s). RSS is the resident memory of the server process and its
 * children (cluster workers), from /proc.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Measured } from './harness/processes.js';
import { count, mib } from './harness/report.js';
import { startTopocat } from './harness/topocat.js';
import { latency, log, signed, table, totals } from './soak/report.js';
import { soak } from './soak/run.js';
import { Session, type Target } from './soak/session.js';
import { DN } from './workloads/catalog.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '1' },
    concurrency: { type: 'string', default: '8' },
    json: { type: 'string' },
    keep: { type: 'boolean', default: false },
    url: { type: 'string' },
    pid: { type: 'string' },
    token: { type: 'string' },
    dn: { type: 'string' },
    'max-nodes': { type: 'string', default: '20000' },
    'max-projects': { type: 'string', default: '2000' },
  },
});

function positive(name: string, text: string, integer: boolean): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) throw new Error(`--${name}: expected a positive ${integer ? 'integer' : 'number'}, got "${text}"`);
  return n;
}

const minutes = positive('minutes', values.minutes!, false);
const concurrency = positive('concurrency', values.concurrency!, true);
const maxNodes = positive('max-nodes', values['max-nodes']!, true);
const maxProjects = positive('max-projects', values['max-projects']!, true);
if (values.url === undefined && (values.pid !== undefined || values.token !== undefined)) throw new Error('--pid and --token describe the server of --url');
const externalPid = values.pid === undefined ? undefined : positive('pid', values.pid, true);
if (values.url !== undefined) {
  const { protocol, hostname } = new URL(values.url);
  if (protocol !== 'http:' || !['127.0.0.1', 'localhost', '[::1]'].includes(hostname)) throw new Error(`--url: only http:// on this machine (127.0.0.1) is loaded, not ${values.url}`);
}
const dn = values.dn ?? DN;

async function main(dir: string | undefined): Promise<number> {
  let server: Measured | undefined;
  let target: Target;
  if (values.url === undefined) {
    const token = `tc_${randomBytes(32).toString('base64url')}`;
    server = await startTopocat({ dir: dir!, token, dn, label: 'topocat' });
    target = { base: new URL(server.url), auth: { authorization: `Bearer ${token}` }, pid: server.pid };
  } else {
    target = { base: new URL(values.url), auth: values.token === undefined ? {} : { authorization: `Bearer ${values.token}` }, pid: externalPid };
  }
  const session = new Session({ target, dn, nodesPerClient: Math.ceil(maxNodes / concurrency), projectsPerClient: Math.ceil(maxProjects / concurrency) });
  let result: Awaited<ReturnType<typeof soak>>;
  try {
    result = await soak(session, { minutes, concurrency });
  } finally {
    await server?.stop();
  }

  const { seconds, memory } = result;
  const { tallies, firstErrors } = session;
  const all = totals([...tallies.values()]);
  const perSecond = seconds > 0 ? all.requests / seconds : 0;
  const memoryText = memory
    ? `RSS ${mib(memory.startBytes)} → ${mib(memory.endBytes)} (growth ${signed(memory.endBytes - memory.startBytes)}, max ${mib(memory.maxBytes)})`
    : `RSS not measured${values.url !== undefined && externalPid === undefined ? ' (no --pid)' : ''}`;
  console.log(`\n${table(tallies)}\n`);
  console.log(
    `soak: ${(seconds / 60).toFixed(1)} min, ${count(all.requests)} requests (${count(perSecond)}/s), ${count(all.errors)} errors, p50 ${latency(all.p50)}, p99 ${latency(all.p99)}, ${memoryText}`,
  );
  if (firstErrors.length > 0) {
    console.error(`\nFirst ${firstErrors.length} of ${count(all.errors)} errors:`);
    for (const e of firstErrors) console.error(`  ${e}`);
  }
  if (values.json) {
    const operations = [...tallies].filter(([, t]) => t.requests > 0).map(([operation, t]) => ({ operation, ...totals([t]) }));
    const report = {
      minutes,
      concurrency,
      url: target.base.href,
      startedServer: server !== undefined,
      seconds,
      requestsPerSecond: perSecond,
      ...all,
      operations,
      memory: memory ? { startBytes: memory.startBytes, endBytes: memory.endBytes, growthBytes: memory.endBytes - memory.startBytes, maxBytes: memory.maxBytes, samples: memory.samples } : null,
      firstErrors,
    };
    writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);
  }
  return all.errors > 0 || seconds === 0 ? 1 : 0;
}

const dir = values.url === undefined ? mkdtempSync(path.join(tmpdir(), 'topocat-soak-')) : undefined;
try {
  process.exitCode = await main(dir);
} finally {
  if (dir !== undefined) {
    if (!values.keep && process.exitCode === 0) rmSync(dir, { recursive: true, force: true });
    else log(`scratch directory kept (database and server log): ${dir}`);
  }
}
