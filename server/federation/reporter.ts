import type { FederationConfig } from '../config.js';
import type { Logger } from '../log.js';
import type { ManifestUpkeep } from '../storage/manifest-upkeep.js';
import type { Manifest, Manifests } from '../storage/manifests.js';
import { expiresAt } from './expiry.js';

export interface ReporterDependencies {
  readonly config: FederationConfig;
  readonly logger: Logger;
  readonly manifests: Manifests;
  /** Turns the manifests on and builds them when this database does not keep them yet. */
  readonly upkeep: ManifestUpkeep;
  /** This instance's base URL as clients reach it (PUBLIC_URL): its accessPoint. */
  readonly accessPoint: string;
  /** This instance's depth: 0, or for a lookup one more than its deepest child's. */
  depth(): Promise<number>;
}

/** Time one report may take upstream: the period, at most 10 s. */
const REPORT_TIMEOUT_MS = 10_000;

/**
 * The `$schema` and `profile` of a report: UNIS's service schema, which every UNIS and every
 * topocat lookup knows (a topocat instance's own schema base is known only to itself).
 */
export const UNIS_SERVICE_SCHEMA = 'http://unis.crest.iu.edu/schema/20160630/service#';

/**
 * Reporting upstream (rest-contract §13): the registration, with the manifests read from the
 * kept value sets, POSTed to each `<upstream>/register` at start and every period, with UNIS's
 * headers. Runs beside the requests, never before them; a failed report is a `warn` line and
 * is tried again next period. Where the database keeps no manifests yet, the first report waits
 * for the scan that builds them (storage/manifest-upkeep.ts): a report missing a value would
 * make a lookup leave this instance out of a query it holds matches for. Returns the function
 * that stops it.
 */
export function startReporting(dependencies: ReporterDependencies): () => Promise<void> {
  const { config, logger } = dependencies;
  const stopped = new AbortController();
  let running: Promise<void> | undefined;
  const tick = (): void => {
    running ??= reportOnce(dependencies, stopped.signal).finally(() => {
      running = undefined;
    });
  };
  const first = setImmediate(tick);
  const timer = setInterval(tick, config.intervalMs);
  timer.unref();
  logger.info({ upstream: config.registerUrls, intervalMs: config.intervalMs }, 'reporting upstream');
  return async () => {
    clearImmediate(first);
    clearInterval(timer);
    stopped.abort();
    await running;
    await dependencies.upkeep.retire().catch((error: unknown) => logger.warn({ err: error }, 'could not say that this process stops reporting; the manifests stay kept until its last report expires'));
  };
}

/** Seconds a lookup keeps a report: twice the period, so one lost report does not expire the registration. */
function ttlSeconds(config: FederationConfig): number {
  return Math.max(1, Math.ceil((2 * config.intervalMs) / 1000));
}

/**
 * The manifests to report, complete: this process says it reports for as long as its report
 * lives (so no process without reporting turns them off meanwhile), then they are built if
 * needed. Undefined when the stop came first.
 */
async function summary(dependencies: ReporterDependencies, signal?: AbortSignal): Promise<Manifest[] | undefined> {
  const { config, upkeep, manifests } = dependencies;
  // Until its registration expires at the lookup (its grace included), as a lookup counts it.
  await upkeep.renew(Math.ceil(expiresAt(Date.now() * 1000, ttlSeconds(config)) / 1000));
  for (let attempt = 0; attempt < 3; attempt++) {
    if (!(await upkeep.keep(signal))) return undefined;
    const read = await manifests.read(config.manifestLimit);
    if (read) return read;
  }
  throw new Error('the manifests were turned off while they were read, three times');
}

/** The registration this instance reports; undefined when the stop came before its manifests were built. */
export async function registration(dependencies: ReporterDependencies, signal?: AbortSignal): Promise<Record<string, unknown> | undefined> {
  const { config, accessPoint } = dependencies;
  const manifests = await summary(dependencies, signal);
  if (!manifests) return undefined;
  return {
    $schema: UNIS_SERVICE_SCHEMA,
    accessPoint,
    name: 'topocat',
    status: 'ON',
    serviceType: 'ps:tools:unis',
    ttl: ttlSeconds(config),
    communities: [...config.communities],
    runningOn: { href: accessPoint, rel: 'full' },
    properties: { summary: manifests, depth: await dependencies.depth() },
  };
}

async function reportOnce(dependencies: ReporterDependencies, signal: AbortSignal): Promise<void> {
  const { config, logger } = dependencies;
  let body: string;
  try {
    const built = await registration(dependencies, signal);
    if (!built) return;
    body = JSON.stringify(built);
  } catch (error) {
    logger.warn({ err: error }, 'the registration could not be built; reporting again next period');
    return;
  }
  const headers: Record<string, string> = {
    'Content-Type': `application/perfsonar+json;profile=${UNIS_SERVICE_SCHEMA}`,
    Accept: 'application/perfsonar+json',
  };
  if (config.token) headers.Authorization = `Bearer ${config.token}`;
  await Promise.all(
    config.registerUrls.map(async (upstream) => {
      try {
        const answer = await fetch(`${upstream}/register`, { method: 'POST', headers, body, signal: AbortSignal.timeout(Math.min(config.intervalMs, REPORT_TIMEOUT_MS)) });
        await answer.arrayBuffer();
        if (!answer.ok) logger.warn({ upstream, status: answer.status }, 'upstream refused the registration; reporting again next period');
        else logger.debug({ upstream }, 'registered upstream');
      } catch (error) {
        logger.warn({ upstream, reason: (error as Error).message }, 'upstream unreachable; reporting again next period');
      }
    }),
  );
}
