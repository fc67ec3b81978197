/** The timed part of a soak: the catalog user set up, then the virtual clients' rounds until the deadline, with the server's memory sampled. */
import { keepAliveAgent } from '../harness/client.js';
import { treeRss } from '../harness/processes.js';
import { count, mib } from '../harness/report.js';
import { setupUser, soapRound } from './catalog.js';
import { log, totals } from './report.js';
import { restRound } from './rest.js';
import { Failed, SETUP, Stop, type Client, type Session } from './session.js';

export interface Memory {
  readonly startBytes: number;
  readonly endBytes: number;
  readonly maxBytes: number;
  readonly samples: readonly { readonly seconds: number; readonly bytes: number }[];
}

export interface RunOptions {
  readonly minutes: number;
  readonly concurrency: number;
}

const sleep = (milliseconds: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** One round part; a failed request ends the part (the next steps depend on it), a Stop ends the client. */
async function guarded(part: () => Promise<void>): Promise<'ok' | 'failed' | 'stop'> {
  try {
    await part();
    return 'ok';
  } catch (error) {
    if (error instanceof Stop) return 'stop';
    if (error instanceof Failed) return 'failed';
    throw error;
  }
}

async function virtualClient(session: Session, c: Client): Promise<void> {
  while (performance.now() < session.deadline) {
    const round = c.round++;
    const rest = await guarded(() => restRound(session, c, round));
    if (rest === 'stop') return;
    const soap = await guarded(() => soapRound(session, c, round));
    if (soap === 'stop') return;
    // A server that fails fast (refused connections) is not hammered in a tight loop.
    if (rest === 'failed' || soap === 'failed') await sleep(100);
  }
}

/** Seconds 0 when the setup failed and no load was run; memory undefined when not measured. */
export async function soak(session: Session, { minutes, concurrency }: RunOptions): Promise<{ seconds: number; memory: Memory | undefined }> {
  const { target } = session;
  const clients: Client[] = Array.from({ length: concurrency }, (_, k) => ({ k, agent: keepAliveAgent(), nodes: [], projects: [], round: 0 }));
  const rss = (): number => (target.pid === undefined ? 0 : treeRss(target.pid));
  try {
    await guarded(() => setupUser(session, clients[0]!));
    if (session.tallies.get(SETUP)!.errors > 0) {
      log('the catalog user could not be set up; no load was run');
      return { seconds: 0, memory: undefined };
    }

    const started = performance.now();
    const durationMs = minutes * 60_000;
    session.deadline = started + durationMs;
    const warmupMs = Math.min(30_000, durationMs / 10);
    const samples: { seconds: number; bytes: number }[] = [];
    const sample = (): number => {
      const bytes = rss();
      samples.push({ seconds: Math.round((performance.now() - started) / 100) / 10, bytes });
      return bytes;
    };
    let startBytes: number | undefined;
    sample();
    const sampler = setInterval(sample, 1000);
    const baseline = setTimeout(() => {
      startBytes = sample();
    }, warmupMs);
    const progress = setInterval(() => {
      const t = totals([...session.tallies.values()]);
      const elapsed = (performance.now() - started) / 1000;
      const memory = target.pid === undefined ? '' : `, RSS ${mib(rss())}`;
      log(`${Math.floor(elapsed / 60)}:${String(Math.floor(elapsed % 60)).padStart(2, '0')} of ${minutes} min: ${count(t.requests)} requests (${count(t.requests / elapsed)}/s), ${count(t.errors)} errors${memory}`);
    }, 30_000);
    log(`${concurrency} clients for ${minutes} min against ${target.base.href} (ids tagged ${session.tag}); memory baseline after ${(warmupMs / 1000).toFixed(1)} s`);
    try {
      await Promise.all(clients.map((c) => virtualClient(session, c)));
    } finally {
      clearInterval(sampler);
      clearInterval(progress);
      clearTimeout(baseline);
    }
    const seconds = (performance.now() - started) / 1000;
    const endBytes = sample();
    if (target.pid === undefined || endBytes === 0) return { seconds, memory: undefined };
    return { seconds, memory: { startBytes: startBytes ?? samples[0]!.bytes, endBytes, maxBytes: Math.max(...samples.map((s) => s.bytes)), samples } };
  } finally {
    for (const c of clients) c.agent.destroy();
  }
}
