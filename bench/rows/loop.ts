/**
 * The event-loop row: how long work holds the server's event loop while the heavy reads run
 * beside the light ones. For its duration, GETs of single nodes arrive at a fixed rate, one
 * client lists all nodes over and over (reading each list as it streams), and another sends
 * context queries back to back. The server samples its event-loop delay all the time
 * (perf_hooks.monitorEventLoopDelay) and logs the percentiles on SIGUSR2: once before the load
 * (to start afresh) and once after it.
 */
import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import type { BenchContext } from '../harness/context.js';
import { cpuPerRequest } from '../harness/cpu.js';
import { keepAliveAgent, timedRequest } from '../harness/client.js';
import type { Measured } from '../harness/processes.js';
import { count, ms, type Row } from '../harness/report.js';
import { contextQuery } from '../workloads/catalog.js';
import { randomNodePaths } from '../workloads/topology.js';

interface LoopDelay {
  readonly samples: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

/** Ask the server for its event-loop delay since the last ask; the answer is a log line. */
async function loopDelay(server: Measured): Promise<LoopDelay> {
  const seen = (): number => readFileSync(server.logFile, 'utf8').split('\n').filter((line) => line.includes('"msg":"event loop delay"')).length;
  const before = seen();
  process.kill(server.pid, 'SIGUSR2');
  for (let waited = 0; waited < 5_000; waited += 20) {
    const lines = readFileSync(server.logFile, 'utf8').split('\n').filter((line) => line.includes('"msg":"event loop delay"'));
    if (lines.length > before) return JSON.parse(lines.at(-1)!) as LoopDelay;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no event loop delay line in ${server.logFile}`);
}

/** Read a whole list as it streams; resolves with the status. */
function readList(server: Measured, ctx: BenchContext): Promise<number> {
  return new Promise((resolve, reject) => {
    get(`${server.url}/nodes`, { headers: ctx.auth }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    }).on('error', reject);
  });
}

export async function loopRow(ctx: BenchContext, server: Measured): Promise<Row> {
  const seconds = ctx.sizes.cpuSeconds;
  let running = true;
  let failures = 0;
  let lists = 0;
  let queries = 0;
  const lister = (async () => {
    while (running) {
      if ((await readList(server, ctx)) !== 200) failures++;
      lists++;
    }
  })();
  const querier = (async () => {
    const agent = keepAliveAgent();
    const url = new URL('/catalog', server.url);
    try {
      for (let i = 0; running; i++) {
        const request = contextQuery(i % ctx.sizes.catalog.projects);
        const answer = await timedRequest(agent, url, { method: 'POST', headers: { ...ctx.auth, 'content-type': 'text/xml; charset=utf-8', soapaction: request.action }, body: request.body });
        if (answer.status !== 200 || !answer.body.includes('OPERATION_SUCCESSFUL')) failures++;
        queries++;
      }
    } finally {
      agent.destroy();
    }
  })();
  await loopDelay(server);
  const gets = await cpuPerRequest({ url: server.url, pid: server.pid, paths: randomNodePaths(ctx.sizes.nodes), headers: ctx.auth, seconds, rate: 1_000, connections: 8 }, 0);
  const delay = await loopDelay(server);
  running = false;
  await Promise.all([lister, querier]);
  return {
    row: `Event-loop delay p99 while one client lists all ${count(ctx.sizes.nodes)} nodes over and over, another sends context queries back to back, and GETs of single nodes arrive at 1,000/s (${seconds} s)`,
    result: `p99 ${ms(delay.p99Ms)}, p50 ${ms(delay.p50Ms)}, max ${ms(delay.maxMs)} (${count(delay.samples)} samples; ${lists} lists, ${queries} context queries, ${count(gets.total)} GETs at ${count(gets.requestsPerSecond)}/s)`,
    target: 'p99 < 10 ms',
    met: delay.p99Ms < 10,
    figures: { p99Ms: delay.p99Ms, p50Ms: delay.p50Ms, maxMs: delay.maxMs, lists, contextQueries: queries, gets: gets.total },
    failures: failures + gets.failures,
  };
}
