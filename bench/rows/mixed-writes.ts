/**
 * What a write costs a site at a fixed rate below saturation (docs/scaling.md, issue "Past one
 * process, part two"): the mix of bench/workloads/mixed-writes.ts from 16 independent clients at
 * 300 writes/s offered (open loop, Poisson arrivals: the requests do not come in bursts), on SQLite
 * with one process, on PostgreSQL with one process, and on PostgreSQL with two processes sharing
 * the same total rate (8 clients each). CPU per write counts topocat's processes and **every**
 * PostgreSQL process (postmaster, background workers, autovacuum, backends, the exited ones
 * included), read from /proc before and after the window. Each round starts fresh servers on a
 * fresh database for every configuration, in alternation; medians of the rounds count, with the
 * range. Single rounds swung 1.02–1.67 on 2 cores, hence five.
 *
 * A fourth configuration, one PostgreSQL process at half the rate (8 clients, what each of the two
 * processes gets), tells apart what a second process adds from what a process pays for serving
 * fewer writes a second: its fixed costs (timers, idle wake-ups, V8's compilation) shared by fewer
 * writes, and fewer writes in each wake-up of its event loop.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { BenchContext } from '../harness/context.js';
import { cpuSeconds } from '../harness/cpu.js';
import { openLoop, quantile, type OpenLoopResult } from '../harness/open-loop.js';
import { benchPostgres, postgresUnavailable } from '../harness/postgres.js';
import type { Measured } from '../harness/processes.js';
import { count, ms, ratio, type Row } from '../harness/report.js';
import { startTopocat } from '../harness/topocat.js';
import { DN } from '../workloads/catalog.js';
import { MIX, MixedWriter } from '../workloads/mixed-writes.js';
import { median } from '../harness/stats.js';

const CLIENTS = 16;
const NODES_PER_CLIENT = 200;

type Config = 'sqlite-1' | 'postgres-1' | 'postgres-2' | 'postgres-1-half';
const CONFIGS: readonly Config[] = ['sqlite-1', 'postgres-1', 'postgres-2', 'postgres-1-half'];
const LABEL: Record<Config, string> = {
  'sqlite-1': 'SQLite, 1 process',
  'postgres-1': 'PostgreSQL, 1 process',
  'postgres-2': 'PostgreSQL, 2 processes',
  'postgres-1-half': 'PostgreSQL, 1 process at half the rate',
};
/** The share of the offered rate, and of the clients, that a configuration gets. */
const SHARE: Record<Config, number> = { 'sqlite-1': 1, 'postgres-1': 1, 'postgres-2': 1, 'postgres-1-half': 0.5 };

interface Round {
  /** CPU per write, µs: topocat's processes, and the PostgreSQL server's. */
  readonly topocat: number;
  readonly database: number;
  readonly generator: number;
  readonly p50: number;
  readonly p99: number;
  readonly rate: number;
  readonly failures: number;
  readonly failed: Readonly<Record<number, number>>;
}

const total = (r: Round): number => r.topocat + r.database;
const range = (values: readonly number[], format: (n: number) => string): string => `${format(Math.min(...values))}–${format(Math.max(...values))}`;
const msCpu = (micros: number): string => `${(micros / 1000).toFixed(2)} ms`;

/**
 * The sizes of a run: the issue's at full size, a smoke test with --quick. The warm-up is a
 * number of writes per server process, not a time: V8 compiles the write path in each process,
 * after as many writes as it takes, so a process that gets half the rate needs twice the time.
 * After 2 s at 300/s, V8 was still compiling (topocat 1.7–1.9 ms of CPU a write on PostgreSQL,
 * 1.1–1.4 after 20 s); one process at 150/s cost 947–1,430 µs a write after 10 s of warm-up and
 * 861–933 µs after 40 s, against 670–807 µs at 300/s after 10 s (scratch, 3 rounds, 2026-11-28).
 */
function shape(ctx: BenchContext): { rate: number; seconds: number; warmupWrites: number; rounds: number; preload: number } {
  const quick = ctx.sizes.cpuRounds === 1;
  return quick ? { rate: 100, seconds: 1, warmupWrites: 50, rounds: 1, preload: 10 } : { rate: 300, seconds: 8, warmupWrites: 4_500, rounds: 5, preload: NODES_PER_CLIENT };
}

async function preload(ctx: BenchContext, servers: readonly Measured[], writers: readonly MixedWriter[], n: number): Promise<number> {
  let failures = 0;
  for (const [c, writer] of writers.entries()) {
    const server = servers[c % servers.length]!;
    const response = await fetch(`${server.url}/nodes`, { method: 'POST', headers: { ...ctx.auth, 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(writer.preload(n)) });
    await response.arrayBuffer();
    if (response.status !== 201) failures++;
  }
  return failures;
}

async function round(ctx: BenchContext, config: Config, index: number): Promise<Round> {
  const { rate: fullRate, seconds, warmupWrites, preload: perClient } = shape(ctx);
  const rate = fullRate * SHARE[config];
  const clients = CLIENTS * SHARE[config];
  const dir = path.join(ctx.dir, `mixed-${config}-${index}`);
  mkdirSync(dir, { recursive: true });
  const pg = config === 'sqlite-1' ? undefined : await benchPostgres();
  const servers: Measured[] = [];
  try {
    const processes = config === 'postgres-2' ? 2 : 1;
    for (let p = 0; p < processes; p++) {
      servers.push(await startTopocat({ dir, token: ctx.token, dn: DN, label: `mixed-${p}`, ...(pg ? { databaseUrl: pg.url(`topocat-mixed-${p}`) } : {}) }));
    }
    const writers = Array.from({ length: clients }, (_, c) => new MixedWriter(c, ctx.auth));
    let failures = await preload(ctx, servers, writers, perClient);
    const load = (s: number): Promise<OpenLoopResult> => openLoop({ clients, rate, seconds: s, url: (c) => servers[c % servers.length]!.url, next: (c) => writers[c]!.next() });
    failures += (await load((warmupWrites * processes) / rate)).failures;
    const topocatBefore = servers.reduce((sum, s) => sum + cpuSeconds(s.pid), 0);
    const databaseBefore = (await pg?.serverCpu()) ?? 0;
    const measured = await load(seconds);
    const topocat = servers.reduce((sum, s) => sum + cpuSeconds(s.pid), 0) - topocatBefore;
    const database = ((await pg?.serverCpu()) ?? 0) - databaseBefore;
    const per = (cpu: number): number => (cpu * 1e6) / Math.max(1, measured.answered);
    return {
      topocat: per(topocat),
      database: per(database),
      generator: per(measured.generatorCpu),
      p50: quantile(measured.latencies, 0.5),
      p99: quantile(measured.latencies, 0.99),
      rate: measured.answered / measured.seconds,
      failures: failures + measured.failures,
      failed: measured.failed,
    };
  } finally {
    for (const server of servers.reverse()) await server.stop();
    await pg?.close();
  }
}

export async function mixedWriteRows(ctx: BenchContext): Promise<Row[]> {
  const why = postgresUnavailable();
  if (why !== undefined) {
    ctx.log(`mixed writes: PostgreSQL rows NOT RUN: ${why}`);
    return [];
  }
  const { rate, seconds, rounds, warmupWrites } = shape(ctx);
  const results: Record<Config, Round[]> = { 'sqlite-1': [], 'postgres-1': [], 'postgres-2': [], 'postgres-1-half': [] };
  for (let r = 0; r < rounds; r++) {
    // The order turns each round, so that no configuration always runs first (or after the same one).
    for (let k = 0; k < CONFIGS.length; k++) {
      const config = CONFIGS[(r + k) % CONFIGS.length]!;
      ctx.log(`mixed writes: round ${r + 1} of ${rounds}, ${LABEL[config]}`);
      const result = await round(ctx, config, r);
      if (result.failures > 0) ctx.log(`mixed writes: ${LABEL[config]}: ${result.failures} failed: ${JSON.stringify(result.failed)}`);
      results[config].push(result);
    }
  }
  const mix = MIX.map(([kind, share]) => `${kind} ${share * 100} %`).join(', ');
  const load = `${CLIENTS} independent clients (Poisson arrivals, node:http), ${count(rate)} writes/s offered, ${mix}; ${rounds} alternating rounds of ${seconds} s, fresh servers and database each, after ${count(warmupWrites)} writes of warm-up per server process`;
  const describe = (config: Config): string => {
    const list = results[config];
    const cpu = median(list.map(total));
    const db = median(list.map((x) => x.database));
    return `${msCpu(cpu)} (${range(list.map(total), msCpu)}; topocat ${msCpu(median(list.map((x) => x.topocat)))}${config === 'sqlite-1' ? '' : ` + PostgreSQL ${msCpu(db)}`})`;
  };
  const ratioOf = (a: Config, b: Config): number[] => results[a].map((x, i) => total(x) / total(results[b][i]!));
  const failuresOf = (...configs: Config[]): number => configs.reduce((sum, c) => sum + results[c].reduce((s, x) => s + x.failures, 0), 0);
  const pgVsLite = ratioOf('postgres-1', 'sqlite-1');
  const twoVsOne = ratioOf('postgres-2', 'postgres-1');
  const halfVsOne = ratioOf('postgres-1-half', 'postgres-1');
  return [
    {
      row: `Mixed writes, CPU per write (topocat + every PostgreSQL process), PostgreSQL vs SQLite, 1 process each: ${load}`,
      result: `PostgreSQL ${describe('postgres-1')}; SQLite ${describe('sqlite-1')}; ratio ${ratio(median(pgVsLite))} (rounds ${range(pgVsLite, ratio)})`,
      target: '≤ 1.5×',
      met: median(pgVsLite) <= 1.5,
      figures: { postgresMicroseconds: median(results['postgres-1'].map(total)), sqliteMicroseconds: median(results['sqlite-1'].map(total)), ratio: median(pgVsLite) },
      failures: failuresOf('sqlite-1', 'postgres-1'),
    },
    {
      row: `Mixed writes on PostgreSQL, CPU per write (topocat + every PostgreSQL process), 2 processes vs 1 at the same total rate (8 clients each): ${load}`,
      result:
        `2 processes ${describe('postgres-2')}; 1 process ${describe('postgres-1')}; ratio ${ratio(median(twoVsOne))} (rounds ${range(twoVsOne, ratio)}). ` +
        `1 process at half the rate (what each of the two gets): ${describe('postgres-1-half')}, ${ratio(median(halfVsOne))} of 1 process at the full rate (rounds ${range(halfVsOne, ratio)})`,
      target: '≤ 1.1×',
      met: median(twoVsOne) <= 1.1,
      figures: {
        twoProcessesMicroseconds: median(results['postgres-2'].map(total)),
        oneProcessMicroseconds: median(results['postgres-1'].map(total)),
        ratio: median(twoVsOne),
        oneProcessHalfRateMicroseconds: median(results['postgres-1-half'].map(total)),
        halfRateRatio: median(halfVsOne),
      },
      failures: failuresOf('postgres-2', 'postgres-1-half'),
    },
    {
      row: `Mixed writes, latency from the instant each write was due (medians of the rounds), and the load generator's own CPU per write: ${load}`,
      result: CONFIGS.map((c) => {
        const list = results[c];
        return `${LABEL[c]}: p50 ${ms(median(list.map((x) => x.p50)))}, p99 ${ms(median(list.map((x) => x.p99)))}, served ${count(median(list.map((x) => x.rate)))}/s, generator ${msCpu(median(list.map((x) => x.generator)))}`;
      }).join('; '),
      target: 'report',
      met: undefined,
      figures: Object.fromEntries(CONFIGS.flatMap((c) => [[`${c}P50Ms`, median(results[c].map((x) => x.p50))], [`${c}P99Ms`, median(results[c].map((x) => x.p99))], [`${c}GeneratorMicroseconds`, median(results[c].map((x) => x.generator))]])),
      failures: 0,
    },
  ];
}
