/**
 * /metrics of a cluster (`--workers N`): the worker that receives the scrape asks the primary,
 * which gathers every worker's registry through prom-client's AggregatorRegistry (counters and
 * histograms summed, the process's gauges by their own rules) and sends the text back. One
 * answer for the service, whichever worker the scraper reaches.
 */
import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, type PrometheusContentType, type Registry } from 'prom-client';

type Aggregator = AggregatorRegistry<PrometheusContentType>;

interface MetricsMessage {
  readonly topocat: 'metrics';
  readonly id: number;
  readonly text?: string;
  readonly error?: string;
}

function isMetricsMessage(message: unknown): message is MetricsMessage {
  return (message as { topocat?: unknown } | null)?.topocat === 'metrics';
}

/** The primary's side: answer each worker's request with the whole cluster's metrics. */
export function answerMetrics(worker: Worker, aggregator: Aggregator): void {
  worker.on('message', (message: unknown) => {
    if (!isMetricsMessage(message) || message.text !== undefined) return;
    aggregator.clusterMetrics().then(
      (text: string) => worker.isConnected() && worker.send({ topocat: 'metrics', id: message.id, text }),
      (error: unknown) => worker.isConnected() && worker.send({ topocat: 'metrics', id: message.id, error: error instanceof Error ? error.message : String(error) }),
    );
  });
}

/** In the primary: the registry that gathers the workers' metrics. */
export function clusterAggregator(): Aggregator {
  return new AggregatorRegistry();
}

/** A worker's scrape: its registry joins the cluster's, and the primary answers. */
export function workerScrape(registry: Registry): () => Promise<{ text: string; contentType: string }> {
  AggregatorRegistry.setRegistries([registry]);
  // prom-client answers the primary's requests from the constructor's listener, in workers too.
  new AggregatorRegistry();
  const waiting = new Map<number, { resolve(text: string): void; reject(error: Error): void }>();
  let next = 0;
  process.on('message', (message: unknown) => {
    if (!isMetricsMessage(message)) return;
    const pending = waiting.get(message.id);
    if (!pending) return;
    waiting.delete(message.id);
    if (message.text !== undefined) pending.resolve(message.text);
    else pending.reject(new Error(`the cluster's metrics could not be gathered: ${message.error ?? 'no answer'}`));
  });
  return () =>
    new Promise((resolve, reject) => {
      if (!cluster.isWorker || !process.connected) return reject(new Error('the cluster primary is gone'));
      const id = next++;
      waiting.set(id, { resolve: (text) => resolve({ text, contentType: registry.contentType }), reject });
      process.send!({ topocat: 'metrics', id });
    });
}
