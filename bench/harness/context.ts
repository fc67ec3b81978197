import type { CatalogShape } from '../workloads/catalog.js';
import type { PictureShape } from '../workloads/picture.js';

/** How big a run is: the full sizes of the issue, or --quick's smoke sizes. */
export interface Sizes {
  readonly nodes: number;
  readonly catalog: CatalogShape;
  /** Length of each throughput measurement (after its warm-up). */
  readonly throughputSeconds: number;
  /** Length of each latency measurement (after its warm-up). */
  readonly latencySeconds: number;
  /** Runs of `npm run generate` (and of --check); the median counts. */
  readonly generateRuns: number;
  /** Rounds of each CPU-per-request comparison (reference, then ours); the medians count. */
  readonly cpuRounds: number;
  /** Length of each CPU-per-request measurement (after its warm-up). */
  readonly cpuSeconds: number;
  /** Writes whose frames the subscription latency rows time, at each number of subscribers. */
  readonly subscriptionWrites: number;
  /** The topology /ui draws in the ui rows. */
  readonly picture: PictureShape;
  /** The larger topology whose first drawing the ui rows also time. */
  readonly largePicture: PictureShape;
  /** Points of the series whose newest 1,000 the measurement store's read row reads. */
  readonly measurementPoints: number;
}

/** The fixed load of the CPU-per-request rows: requests offered per second, over this many connections. */
export const CPU_LOAD = { rate: 1_500, connections: 8 } as const;

export const FULL: Sizes = {
  nodes: 100_000,
  catalog: { projects: 100, experimentsPerProject: 10, collectionsPerExperiment: 100 },
  throughputSeconds: 10,
  latencySeconds: 5,
  generateRuns: 3,
  cpuRounds: 3,
  cpuSeconds: 10,
  subscriptionWrites: 200,
  // 1,000 nodes with 4,000 ports, the size.
  picture: { domains: 4, networksPerDomain: 5, nodesPerNetwork: 50, portsPerNode: 4, paths: 10 },
  // 10,000 nodes with 40,000 ports.
  largePicture: { domains: 10, networksPerDomain: 10, nodesPerNetwork: 100, portsPerNode: 4, paths: 10 },
  measurementPoints: 100_000,
};

export const QUICK: Sizes = {
  nodes: 2_000,
  catalog: { projects: 2, experimentsPerProject: 5, collectionsPerExperiment: 20 },
  throughputSeconds: 1,
  latencySeconds: 1,
  generateRuns: 1,
  cpuRounds: 1,
  cpuSeconds: 1,
  subscriptionWrites: 10,
  picture: { domains: 1, networksPerDomain: 2, nodesPerNetwork: 5, portsPerNode: 2, paths: 1 },
  // Past the 1,500 elements where /ui draws a large picture, still quick to post.
  largePicture: { domains: 1, networksPerDomain: 2, nodesPerNetwork: 200, portsPerNode: 4, paths: 1 },
  measurementPoints: 5_000,
};

export interface BenchContext {
  readonly sizes: Sizes;
  /** Scratch directory of this run: databases, logs, peer inputs. */
  readonly dir: string;
  /** Headers every request to topocat carries (the bearer token). */
  readonly auth: Readonly<Record<string, string>>;
  readonly token: string;
  /** Progress for the person watching, on stderr. */
  log(message: string): void;
}
