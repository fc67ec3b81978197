import type { FederationConfig } from '../config.js';
import type { Logger } from '../log.js';
import type { Manifests } from '../storage/manifests.js';

export interface ReporterDependencies {
  readonly config: FederationConfig;
  readonly logger: Logger;
  readonly manifests: Manifests;
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
 * is tried again next period. Returns the function that stops it.
 */
export function startReporting(dependencies: ReporterDependencies): () => Promise<void> {
  const { config, logger } = dependencies;
  let running: Promise<void> | undefined;
  const tick = (): void => {
    running ??= reportOnce(dependencies).finally(() => {
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
    await running;
  };
}

/** The registration this instance reports. */
export async function registration(dependencies: ReporterDependencies): Promise<Record<string, unknown>> {
  const { config, accessPoint } = dependencies;
  return {
    $schema: UNIS_SERVICE_SCHEMA,
    accessPoint,
    name: 'topocat',
    status: 'ON',
    serviceType: 'ps:tools:unis',
    // Twice the period, so one lost report does not expire the registration.
    ttl: Math.max(1, Math.ceil((2 * config.intervalMs) / 1000)),
    communities: [...config.communities],
    runningOn: { href: accessPoint, rel: 'full' },
    properties: { summary: await dependencies.manifests.read(config.manifestLimit), depth: await dependencies.depth() },
  };
}

async function reportOnce(dependencies: ReporterDependencies): Promise<void> {
  const { config, logger } = dependencies;
  let body: string;
  try {
    body = JSON.stringify(await registration(dependencies));
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
