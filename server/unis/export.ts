import path from 'node:path';
import type { KindDescriptor } from '../../generated/rest/handler.js';
import type { Database } from '../storage/contract/database.js';
import type { MeasurementStore, Series } from '../storage/measurements/store.js';
import { storedVersions } from '../storage/stored-versions.js';
import type { Representations } from '../wire/representation.js';
import { JsonLinesFile } from './export-file.js';
import type { ExportCount, ExportReport, NotExported } from './export-report.js';
import { escapeKey, toMongo } from './keys.js';
import type { Rebase } from './rebase.js';

/** Where UNIS keeps the `/events` registrations (periscope/settings.py); the import reads them there. */
const REGISTRATIONS = 'events_cache';
/** How UNIS on MongoDB marks a deleted resource's last version, and how the import reads a deletion back. */
const STATUS = escapeKey('$status');
const SCHEMA = escapeKey('$schema');
/** The most bytes a file name may have on the usual file systems. */
const NAME_MAX = 255;

/** What the export reads. */
export interface ExportSource {
  readonly database: Database;
  readonly measurements: MeasurementStore;
  readonly representations: Representations;
  /** The kinds whose collections are exported (those the import reads back). */
  readonly kinds: readonly KindDescriptor[];
  /** `href`s under the service's other bases moved onto the export's (export-base.ts); none: as stored. */
  readonly rebase?: Rebase;
}

export interface ExportOptions {
  /** An existing folder; files of the same names are written over. */
  readonly folder: string;
  /** Told of the counts now and then, and of each series whose points cannot be a file. */
  readonly listener?: {
    progress(counts: readonly ExportCount[]): void;
    notExported(entry: NotExported): void;
  };
}

/** How many documents between two progress reports. */
const PROGRESS_EVERY = 1_000;

/**
 * The registry as a folder of `mongoexport` files that `mongoimport` loads into a UNIS database
 * (docs/moving-from-unis.md, "Export back to UNIS"; rest-contract §14): one `<collection>.json`
 * per resource collection with every stored version, as UNIS's answers show it (`$schema`,
 * `selfRef`) and its MongoDB stores it (keys escaped, `_id` `"<id>:<ts>"`); `events_cache.json`
 * with the `/events` registrations; `<mid>.json` with each series' points. JSON lines in relaxed
 * Extended JSON v2, which for documents that came as JSON is plain JSON: numbers stay numbers.
 * `npm run import` of the folder into an empty database gives back the same answers.
 */
export async function runExport(source: ExportSource, options: ExportOptions): Promise<ExportReport> {
  const started = performance.now();
  const counts: ExportCount[] = [];
  let since = 0;
  const tick = (): void => {
    if (++since >= PROGRESS_EVERY) {
      since = 0;
      options.listener?.progress(counts);
    }
  };
  const collections = new Map<string, KindDescriptor>();
  for (const kind of source.kinds) if (!collections.has(kind.collection)) collections.set(kind.collection, kind);

  for (const [collection, kind] of [...collections].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const count = { collection, role: 'resources' as const, written: 0, resources: 0, deletions: 0 };
    counts.push(count);
    await writeFile(options.folder, collection, count, async (file) => {
      let previous: { id: string; schema: unknown } | undefined;
      for await (const version of storedVersions(source.database, collection)) {
        if (previous?.id !== version.id) count.resources++;
        const schema = previous?.id === version.id ? previous.schema : undefined;
        const document = version.doc === null ? tombstone(source.representations, kind, version.id, version.ts, schema) : asStored(source.representations, kind, version.id, version.ts, version.doc, source.rebase);
        if (version.doc === null) count.deletions++;
        previous = { id: version.id, schema: document[SCHEMA] };
        await file.line(JSON.stringify(document));
        count.written++;
        tick();
      }
    });
  }

  const series = await source.measurements.list();
  const registrations: ExportCount = { collection: REGISTRATIONS, role: 'series', written: 0 };
  counts.push(registrations);
  await writeFile(options.folder, REGISTRATIONS, registrations, async (file) => {
    for (const s of series) {
      await file.line(JSON.stringify(registration(s)));
      registrations.written++;
    }
  });
  const notExported: NotExported[] = [];
  for (const s of series) {
    const problem = fileNameProblem(s.mid, collections);
    if (problem !== undefined) {
      const entry = { collection: s.mid, message: `${s.points.toLocaleString('en-US')} ${s.points === 1 ? 'point' : 'points'} left out: ${problem}` };
      notExported.push(entry);
      options.listener?.notExported(entry);
      continue;
    }
    const count: ExportCount = { collection: s.mid, role: 'points', written: 0 };
    counts.push(count);
    await writeFile(options.folder, s.mid, count, async (file) => {
      // Oldest first, as a capped collection holds them (insertion order); every live point.
      for await (const text of source.measurements.points(s, { conditions: [], sort: [{ field: ['ts'], descending: false }], limit: Number.MAX_SAFE_INTEGER })) {
        await file.line(JSON.stringify(toMongo(JSON.parse(text) as Record<string, unknown>)));
        count.written++;
        tick();
      }
    });
  }
  options.listener?.progress(counts);
  return { folder: options.folder, collections: counts, notExported, seconds: (performance.now() - started) / 1000 };
}

/** Write `<folder>/<name>.json` through `fill`; on failure no `.json` appears and the partial file goes. */
async function writeFile(folder: string, name: string, count: ExportCount, fill: (file: JsonLinesFile) => Promise<void>): Promise<void> {
  const file = new JsonLinesFile(path.join(folder, `${name}.json`));
  try {
    await fill(file);
    await file.complete();
  } catch (error) {
    await file.abandon();
    throw new Error(`${name}.json after ${count.written.toLocaleString('en-US')} documents: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/**
 * A stored version as UNIS stores it: the service's answer for it (rendered as GET
 * `?ts=` answers it, with `$schema` and `selfRef` under the export's bases), `href`s under the
 * service's earlier bases moved onto the export's, keys escaped as periscope/models.py writes
 * them, and the `_id` of UNIS's history (periscope/db.py `_insert_id`: `"<id>:<ts>"`) first.
 */
function asStored(representations: Representations, kind: KindDescriptor, id: string, ts: number, doc: string, rebase: Rebase | undefined): Record<string, unknown> {
  const answer = JSON.parse(representations.render(kind, { id, ts, doc })) as Record<string, unknown>;
  return { _id: `${id}:${ts}`, ...toMongo(answer, rebase?.member) };
}

/**
 * A deletion as UNIS on MongoDB keeps it: a version at the deletion's `ts` marked
 * `$status: "DELETED"` (the import reads it back as the deletion), with the `$schema` of the
 * version it ends (the kind's, where there is none).
 */
function tombstone(representations: Representations, kind: KindDescriptor, id: string, ts: number, schema: unknown): Record<string, unknown> {
  return {
    _id: `${id}:${ts}`,
    id,
    ts,
    [STATUS]: 'DELETED',
    selfRef: representations.selfRef(kind, id),
    [SCHEMA]: typeof schema === 'string' ? schema : representations.schemaAddress(kind),
  };
}

/**
 * A series' registration as UNIS's events handler stores it in `events_cache` (a resource
 * handler's insert: `_id` `"<id>:<ts>"`, the mid as `id`).
 */
function registration(series: Series): Record<string, unknown> {
  return {
    _id: `${series.mid}:${series.ts}`,
    id: series.mid,
    metadata_URL: series.metadataUrl,
    collection_size: series.collectionSize,
    ttl: series.ttl,
    ts: series.ts,
  };
}

/**
 * Why a mid cannot name its points' file `<mid>.json` (UNIS names the collection by the mid; the
 * import takes the collection's name from the file's), or undefined when it can.
 */
function fileNameProblem(mid: string, collections: ReadonlyMap<string, KindDescriptor>): string | undefined {
  if (mid.includes('/') || mid.includes('\0')) return 'a file name cannot hold "/"';
  if (mid.startsWith('.')) return 'a file name starting with "." is hidden, and "." and ".." name folders';
  if (mid.includes('$') || mid.startsWith('system.')) return 'MongoDB refuses the collection name';
  if (collections.has(mid) || mid === REGISTRATIONS) return `${mid}.json holds the ${mid} collection`;
  if (Buffer.byteLength(`${mid}.json.partial`) > NAME_MAX) return `${mid}.json is longer than a file name may be`;
  return undefined;
}
