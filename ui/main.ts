import { Http, TopologyClient, UnauthorizedError, type ServiceChange } from '../generated/client/rest.js';
import { askToken, describe, storedToken } from './access.js';
import { Details } from './details.js';
import { isLookup, readFederated, resourceOf, showLegend, type Federated } from './federation.js';
import { elementsOf, Graph, type Marks } from './graph.js';
import { Positions } from './positions.js';
import { instantText, TimeBar, type TimeView } from './time.js';
import { DRAWN, elementId, Topology, type Drawn, type Resource } from './topology.js';

/**
 * /ui: the topology the service holds, drawn, and kept current from the service-wide event
 * stream. Data comes through the generated REST client; the page is served by the service and
 * loads nothing from anywhere else.
 */

type Status = 'loading' | 'live' | 'past' | 'federated' | 'reconnecting' | 'needs-token' | 'error';

const $ = <T extends HTMLElement>(selector: string): T => document.querySelector<T>(selector)!;
// The service's base address is where /ui lives (a proxy may serve it under a prefix).
const baseUrl = new URL('.', location.href).href.replace(/\/$/, '');

const topology = new Topology();
/** What the picture shows: `topology` while live; the time bar's state of another instant otherwise. */
let drawn = topology;
let shown: TimeView = {};
/** Counts the time bar's requests, so an answer that arrives after a newer one is dropped. */
let timeTurn = 0;
const graph = new Graph($('#graph'), new Positions(`topocat.positions ${baseUrl}`));
let selected: string | undefined;
/** On a lookup: every instance's topology (federation.ts); the page then follows no stream. */
let federated: Federated | undefined;
let filterIds: ReadonlySet<string> | undefined;
let filterText = '';
let lastEventId: string | undefined;
let refreshing: number | undefined;
const timings: Record<string, number> = {};
let readHistory: (collection: Drawn, id: string) => Promise<Resource[]> = () => Promise.resolve([]);
let filterRequest: (query: string) => Promise<Resource[]> = () => Promise.resolve([]);
let readPast: (view: TimeView) => Promise<{ topology: Topology; marks?: Marks }> = () => Promise.resolve({ topology });
const timeBar = new TimeBar($('#time'), (view) => void showTime(view));
const details = new Details($('#details'), (collection, id) => readHistory(collection, id), (error) => report(error));

function setStatus(status: Status, text?: string): void {
  document.body.dataset.status = status;
  const counts = federated ? sum(federated.instances.map((instance) => instance.topology.counts())) : drawn.counts();
  const summary = `${federated ? `${federated.instances.length} instances · ` : ''}${counts.domains} domains · ${counts.networks} networks · ${counts.nodes} nodes · ${counts.ports} ports · ${counts.links} links · ${counts.paths} paths`;
  const words: Record<Status, string> = { loading: 'loading…', live: 'live', past: 'the past', federated: 'every instance of this lookup, as read', reconnecting: 'connection lost, resuming…', 'needs-token': 'a token is needed', error: 'error' };
  $('#status').textContent = `${words[status]}${text ? `: ${text}` : ''} — ${summary}`;
}

/** Counts added up, collection by collection. */
function sum(counts: readonly Record<Drawn, number>[]): Record<Drawn, number> {
  return Object.fromEntries(DRAWN.map((c) => [c, counts.reduce((total, count) => total + count[c], 0)])) as Record<Drawn, number>;
}

function report(error: unknown): void {
  $('#problem').textContent = describe(error);
  $('#problem').hidden = false;
}

/** Show the selected element's details and the paths through it. */
function select(element: string | undefined): void {
  selected = element;
  if (federated) return selectFederated(federated, element);
  const resource = element === undefined ? undefined : drawn.get(element);
  if (element === undefined || !resource) {
    graph.highlight([], drawn);
    details.clear();
    return;
  }
  const paths = drawn.pathsThrough(element);
  graph.highlight(paths, drawn);
  void details.show(element.slice(0, element.indexOf('/')) as Drawn, resource, paths);
}

/** On a lookup: the element's representation as its instance answered it (the lookup keeps no history). */
function selectFederated(view: Federated, element: string | undefined): void {
  const resource = element === undefined ? undefined : resourceOf(view, element);
  if (element === undefined || !resource) return details.clear();
  readHistory = () => Promise.resolve([resource]);
  void details.show(element.slice(element.indexOf(':') + 1, element.indexOf('/')) as Drawn, resource, []);
}

/** Run the filter box's query over the nodes (the REST query language, as `GET /nodes?…` takes it). */
async function applyFilter(): Promise<void> {
  $('#problem').hidden = true;
  if (filterText === '') {
    filterIds = undefined;
  } else {
    try {
      const matches = await filterRequest(shown.at === undefined ? filterText : `${filterText}&at=${shown.at}`);
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
  // Another instant is shown: the live picture waits until the time bar comes back to now.
  if (refreshing !== undefined || drawn !== topology) return;
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
 * Draw what the time bar asks for (docs/ui.md): live, the state at an instant (`at`), and/or
 * what changed since an instant marked. Whatever stays keeps its position: only what is new to
 * the picture is placed, beside its container.
 */
async function showTime(view: TimeView): Promise<void> {
  const turn = ++timeTurn;
  $('#problem').hidden = true;
  try {
    const live = view.at === undefined && view.since === undefined;
    const past = live ? { topology } : await readPast(view);
    if (turn !== timeTurn) return;
    shown = view;
    drawn = past.topology;
    await graph.update(elementsOf(drawn), false);
    graph.mark(past.marks);
    if (filterText !== '') await applyFilter();
    else graph.filter(filterIds);
    if (selected !== undefined) select(drawn.get(selected) ? selected : undefined);
    const marks = past.marks ? ` — ${past.marks.created.size} created, ${past.marks.changed.size} changed, ${past.marks.deleted.size} deleted` : '';
    if (live) setStatus('live');
    else setStatus('past', `${view.since !== undefined ? `changes since ${instantText(view.since)}, ` : ''}as at ${view.at === undefined ? 'now' : instantText(view.at)}${marks}`);
    document.body.dataset.shown = live ? 'live' : `${view.at ?? 'now'}/${view.since ?? ''}`;
  } catch (error) {
    report(error);
  }
}

/** The state at `view.at` (now when absent), with what changed since `view.since` marked; deleted resources drawn as they were. */
async function pastOf(collections: Readonly<Record<Drawn, TopologyClient['nodes']>>, view: TimeView): Promise<{ topology: Topology; marks?: Marks }> {
  const [since, at] = view.since !== undefined && view.at !== undefined && view.since > view.at ? [view.at, view.since] : [view.since, view.at];
  const state = new Topology();
  if (at === undefined) for (const collection of DRAWN) for (const resource of topology.of(collection).values()) state.put(collection, resource);
  else {
    const lists = await Promise.all(DRAWN.map(async (collection) => [collection, (await collections[collection].at(at).list()) as unknown as Resource[]] as const));
    for (const [collection, resources] of lists) for (const resource of resources) state.put(collection, resource);
  }
  if (since === undefined) return { topology: state };
  const marks = { created: new Set<string>(), changed: new Set<string>(), deleted: new Set<string>() };
  const changes = await Promise.all(DRAWN.map(async (collection) => [collection, await collections[collection].changes(since, at)] as const));
  for (const [collection, entries] of changes) {
    for (const entry of entries) {
      const id = elementId(collection, entry.id);
      if (entry.change === 'created') marks.created.add(id);
      else if (entry.change === 'updated') marks.changed.add(id);
      else {
        marks.deleted.add(id);
        state.put(collection, entry.before as unknown as Resource);
      }
    }
  }
  return { topology: state, marks };
}

/**
 * Follow first, then read: the stream is open before the lists are read, so a change committed
 * in between is in a list or in the stream (applying it twice is harmless: newer `ts` wins).
 */
async function run(client: TopologyClient, http: Http): Promise<void> {
  setStatus('loading');
  const started = performance.now();
  if (await isLookup(http)) return runFederated(http, started);
  let loaded = false;
  const pending: ServiceChange[] = [];
  let connected!: () => void;
  const opened = new Promise<void>((resolve) => (connected = resolve));
  const stream = client.changes(DRAWN, {
    onConnect: () => {
      connected();
      if (loaded && drawn === topology) setStatus('live');
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
  readPast = (view) => pastOf(collections as unknown as Record<Drawn, TopologyClient['nodes']>, view);
  const lists = await Promise.all(DRAWN.map(async (collection) => [collection, (await collections[collection].list()) as unknown as Resource[]] as const));
  for (const [collection, resources] of lists) for (const resource of resources) topology.put(collection, resource);
  timings.loaded = performance.now() - started;
  const oldest = Math.min(...lists.flatMap(([, resources]) => resources.map((r) => r.ts)));
  timeBar.range(Number.isFinite(oldest) ? oldest : Date.now() * 1000);
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

/** On a lookup: every instance's topology, read once with `federate=true`, each in its colour. */
async function runFederated(http: Http, started: number): Promise<void> {
  const view = await readFederated(http);
  timings.loaded = performance.now() - started;
  federated = view;
  $('#time').hidden = true;
  $('#filter').hidden = true;
  showLegend($('#instances'), view.instances);
  await graph.draw(view.elements);
  timings.laidOut = performance.now() - started;
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  timings.drawn = performance.now() - started;
  setStatus('federated');
  document.body.dataset.ready = 'true';
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
Object.assign(window, {
  topocat: {
    cy: graph.cy,
    topology,
    timings,
    lastEventId: () => lastEventId,
    select,
    placement: () => graph.placement,
    /** How wide the narrowest node is drawn at the present zoom, in screen pixels. */
    nodePixels: () => graph.cy.nodes('[kind = "nodes"]').reduce((narrowest, node) => Math.min(narrowest, node.renderedWidth()), Infinity),
    /** Move the time bar to `view` and draw it (what a person does with the slider). */
    showTime: (view: TimeView) => {
      timeBar.set(view);
      return showTime(view);
    },
  },
});
void start();
