import { JsonElements } from '../../federation/json-elements.js';
import { documentOfText, reason, type Source, type SourceCollection, type SourceItem } from './source.js';

/** Documents asked for per request: UNIS answers a page whole, as one JSON text. */
const PAGE = 1_000;
const PSJSON = 'application/perfsonar+json';
/** How long one request may take before the import names it and goes on. */
const REQUEST_TIMEOUT_MS = 120_000;

/**
 * A running UNIS, read through its own REST API as its clients read it: `GET /` lists its
 * collections (UNIS's discovery array), each collection is paged with `limit` and `skip`, and
 * without `unique` UNIS answers every stored version. Measurement series come from `/events`
 * (`{mid, generic, …}`: the mid, and the capped collection's size) and their points from
 * `/data/<mid>`. A page that fails is named with its URL and the rest of that collection is not
 * read (the run then exits 1; repeating it reads what was missed and skips the rest).
 */
export function unisHttp(baseUrl: string, maxDepth: number): Source {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    description: `UNIS at ${base}`,
    base,
    async collections() {
      const listed = await getJson(`${base}/`);
      if (!Array.isArray(listed)) throw new Error(`${base}/ did not answer UNIS's list of collections`);
      const names = new Set<string>();
      for (const entry of listed as { href?: unknown }[]) {
        if (typeof entry?.href !== 'string') continue;
        const name = new URL(entry.href).pathname.split('/').filter((s) => s !== '').pop();
        if (name !== undefined) names.add(name);
      }
      const collections: SourceCollection[] = [];
      for (const name of [...names].sort()) {
        if (name === 'events' || name === 'data') continue;
        collections.push({ name, capped: false, items: () => paged(`${base}/${name}`, maxDepth) });
      }
      if (names.has('events')) {
        // UNIS answers /events from each series' collection statistics: one series it cannot
        // answer fails the whole list. That is named (exit 1), and the rest is imported.
        const series = await seriesOf(base).catch((error: unknown) => reason(error));
        if (typeof series === 'string') {
          collections.push({ name: 'events_cache', capped: false, items: () => listOf([{ place: `${base}/events`, error: `${series}; no series or points were read` }]) });
        } else {
          collections.push({ name: 'events_cache', capped: false, items: () => listOf(series.map((s, i) => ({ place: `${base}/events element ${i + 1}`, document: s }))) });
          for (const s of series) collections.push({ name: String(s.id), capped: true, items: () => paged(`${base}/data/${encodeURIComponent(String(s.id))}`, maxDepth, false) });
        }
      }
      return collections;
    },
  };
}

async function getText(url: string): Promise<string> {
  const response = await fetch(url, { headers: { Accept: PSJSON }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${response.statusText}`);
  return response.text();
}

async function getJson(url: string): Promise<unknown> {
  return JSON.parse(await getText(url)) as unknown;
}

async function* listOf(items: readonly SourceItem[]): AsyncIterable<SourceItem> {
  yield* items;
}

/**
 * Every element of a collection, page by page (`pages` false: one request, as `/data/<mid>`
 * ignores paging). Each element is cut from the page's text and checked as a mongoexport line is
 * (source.ts, documentOfText), so one element nested too deep is named and the others are read.
 */
async function* paged(url: string, maxDepth: number, pages = true): AsyncIterable<SourceItem> {
  for (let skip = 0; ; skip += PAGE) {
    const address = pages ? `${url}?limit=${PAGE}&skip=${skip}` : url;
    let texts: string[];
    try {
      texts = elementTexts(await getText(address));
    } catch (error) {
      yield { place: address, error: `${reason(error)}; the rest of the collection was not read` };
      return;
    }
    for (const [i, text] of texts.entries()) yield documentOfText(text, `${address} element ${i + 1}`, maxDepth);
    if (!pages || texts.length < PAGE) return;
  }
}

/** The texts of a page's elements; one resource may be answered bare. Throws when the page is not JSON of that shape. */
function elementTexts(page: string): string[] {
  if (!page.trimStart().startsWith('[')) return [page];
  const elements = new JsonElements();
  const texts = elements.push(page);
  elements.end();
  return texts;
}

/**
 * The series `/events` lists, as UNIS keeps their registrations (`events_cache`: `id` the mid,
 * `metadata_URL`, `collection_size`): UNIS answers each with its collection's statistics,
 * whose `maxSize` is the cap it was registered with; the ttl is not answered (0: kept).
 */
async function seriesOf(base: string): Promise<Record<string, unknown>[]> {
  const listed = await getJson(`${base}/events`);
  const series: Record<string, unknown>[] = [];
  for (const entry of Array.isArray(listed) ? (listed as { mid?: unknown; generic?: { maxSize?: unknown; size?: unknown } }[]) : []) {
    if (typeof entry?.mid !== 'string') continue;
    const size = Number(entry.generic?.maxSize ?? entry.generic?.size ?? 0);
    series.push({ id: entry.mid, metadata_URL: `${base}/metadata/${entry.mid}`, collection_size: Number.isFinite(size) && size > 0 ? size : 0, ttl: 0 });
  }
  return series;
}
