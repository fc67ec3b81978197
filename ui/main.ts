import { Http, TopologyClient, UnauthorizedError, type ServiceChange } from '../generated/client/rest.js';
import { askToken, describe, storedToken } from './access.js';
import { Details } from './details.js';
import { elementsOf, Graph } from './graph.js';
import { Positions } from './positions.js';
import { DRAWN, Topology, type Drawn, type Resource } from './topology.js';

/**
 * /ui: the topology the service holds, drawn, and kept current from the service-wide event
 * stream. Data comes through the generated REST client; the page is served by the service and
 * loads nothing from anywhere else.
 */

type Status = 'loading' | 'live' | 'reconnecting' | 'needs-token' | 'error';

const $ = <T extends HTMLElement>(selector: string): T => document.querySelector<T>(selector)!;
// The service's base address is where /ui lives (a proxy may serve it under a prefix).
const baseUrl = new URL('.', location.href).href.replace(/\/$/, '');

const topology = new Topology();
const graph = new Graph($('#graph'), new Positions(`topocat.positions ${baseUrl}`));
let selected: string | undefined;
let filterIds: ReadonlySet<string> | undefined;
let filterText = '';
let lastEventId: string | undefined;
let refreshing: number | undefined;
const timings: Record<string, number> = {};
let readHistory: (collection: Drawn, id: string) => Promise<Resource[]> = () => Promise.resolve([]);
let filterRequest: (query: string) => Promise<Resource[]> = () => Promise.resolve([]);
const details = new Details($('#details'), (collection, id) => readHistory(collection, id), (error) => report(error));

function setStatus(status: Status, text?: string): void {
  document.body.dataset.status = status;
  const counts = topology.counts();
  const summary = `${counts.domains} domains · ${counts.networks} networks · ${counts.nodes} nodes · ${counts.ports} ports · ${counts.links} links · ${counts.paths} paths`;
  const words: Record<Status, string> = { loading: 'loading…', live: 'live', reconnecting: 'connection lost, resuming…', 'needs-token': 'a token is needed', error: 'error' };
  $('#status').textContent = `${words[status]}${text ? `: ${text}` : ''} — ${summary}`;
}

function report(error: unknown): void {
  $('#problem').textContent = describe(error);
  $('#problem').hidden = false;
}

/** Show the selected element's details and the paths through it. */
function select(element: string | undefined): void {
  selected = element;
  const resource = element === undefined ? undefined : topology.get(element);
  if (element === undefined || !resource) {
    graph.highlight([], topology);
    details.clear();
    return;
  }
  const paths = topology.pathsThrough(element);
  graph.highlight(paths, topology);
  void details.show(element.slice(0, element.indexOf('/')) as Drawn, resource, paths);
}

/** Run the filter box's query over the nodes (the REST query language, as `GET /nodes?…` takes it). */
async function applyFilter(): Promise<void> {
  $('#problem').hidden = true;
  if (filterText === '') {
    filterIds = undefined;
  } else {
    try {
      const matches = await filterRequest(filterText);
      filterIds = new Set(matches.map((node) => `nodes/${node.id}`));
    } catch (error) {
      filterIds = undefined;
      report(error);
    }
  }
  graph.filter(filterIds);
  $('#filter-count').textContent = filterIds ? `${filterIds.size} nodes match` : '';
}

/** Draw what changed, once per burst of events. */
function scheduleRefresh(nodesChanged: boolean): void {
  if (refreshing !== undefined) return;
  refreshing = window.setTimeout(async () => {
    refreshing = undefined;
    await graph.update(elementsOf(topology));
    if (nodesChanged && filterText !== '') await applyFilter();
    else graph.filter(filterIds);
    if (selected !== undefined) {
      if (topology.get(selected)) select(selected);
      else details.gone(selected);
    }
    setStatus('live');
  }, 50);
}

function apply(change: ServiceChange): void {
  const collection = change.collection as Drawn;
  if (!DRAWN.includes(collection)) return;
  if (change.action === 'DELETE') topology.remove(collection, change.id);
  else topology.put(collection, change.value as Resource);
  scheduleRefresh(collection === 'nodes');
}

/**
 * Follow first, then read: the stream is open before the lists are read, so a change committed
 * in between is in a list or in the stream (applying it twice is harmless: newer `ts` wins).
 */
async function run(client: TopologyClient, http: Http): Promise<void> {
  setStatus('loading');
  const started = performance.now();
  let loaded = false;
  const pending: ServiceChange[] = [];
  let connected!: () => void;
  const opened = new Promise<void>((resolve) => (connected = resolve));
  const stream = client.changes(DRAWN, {
    onConnect: () => {
      connected();
      if (loaded) setStatus('live');
    },
    onDisconnect: () => setStatus('reconnecting'),
  });
  const following = (async () => {
    for await (const change of stream) {
      lastEventId = change.event;
      if (loaded) apply(change);
      else pending.push(change);
    }
  })();
  await Promise.race([opened, following]);

  const collections = { domains: client.domains, networks: client.networks, nodes: client.nodes, ports: client.ports, links: client.links, paths: client.paths };
  readHistory = async (collection, id) => (await collections[collection].history(id)) as unknown as Resource[];
  filterRequest = async (query) => (await http.request('GET', `/nodes?${query}&fields=id`)).body as Resource[];
  const lists = await Promise.all(DRAWN.map(async (collection) => [collection, (await collections[collection].list()) as unknown as Resource[]] as const));
  for (const [collection, resources] of lists) for (const resource of resources) topology.put(collection, resource);
  timings.loaded = performance.now() - started;
  await graph.draw(elementsOf(topology));
  timings.laidOut = performance.now() - started;
  // Drawn: the frame after the layout has been painted.
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  timings.drawn = performance.now() - started;
  loaded = true;
  for (const change of pending.splice(0)) apply(change);
  setStatus('live');
  document.body.dataset.ready = 'true';
  await following;
}

async function start(): Promise<void> {
  let token = storedToken();
  for (;;) {
    const options = { baseUrl, ...(token !== undefined ? { token } : {}) };
    try {
      await run(new TopologyClient(options), new Http(options));
      return;
    } catch (error) {
      if (error instanceof UnauthorizedError) {
        setStatus('needs-token');
        token = await askToken($('#token'), error);
        continue;
      }
      setStatus('error', describe(error));
      report(error);
      return;
    }
  }
}

graph.cy.on('tap', (event) => select(event.target === graph.cy ? undefined : (event.target as { id(): string }).id()));
$<HTMLFormElement>('#filter').addEventListener('submit', (event) => {
  event.preventDefault();
  filterText = $<HTMLInputElement>('#filter input').value.trim().replace(/^\?/, '');
  void applyFilter();
});
$<HTMLButtonElement>('#fit').addEventListener('click', () => graph.cy.fit(undefined, 30));
details.clear();

// For people debugging the page and for its browser tests: the graph and what the page knows.
Object.assign(window, { topocat: { cy: graph.cy, topology, timings, lastEventId: () => lastEventId, select, placement: () => graph.placement } });
void start();
