import type { KindDescriptor } from '../../generated/rest/handler.js';
import type { DataPoint, MeasurementStore } from '../storage/measurements/store.js';
import type { ImportedVersion, ResourceStore } from '../storage/resource-store.js';
import type { Representations } from '../wire/representation.js';
import { fromMongo } from './keys.js';
import { Rebase } from './rebase.js';
import type { CollectionCount, ImportReport, Refusal, Unreadable } from './report.js';
import type { Source, SourceCollection } from './sources/source.js';

/** UNIS's own bookkeeping, not part of the registry (rest-contract §14). */
const BOOKKEEPING: Readonly<Record<string, string>> = {
  manifests: "UNIS's federation manifests (this service keeps its own)",
  about: "UNIS's identity (this service has its own)",
};
/** Where UNIS keeps the `/events` registrations (periscope/settings.py). */
const REGISTRATIONS = 'events_cache';
/** The largest cap a series may have (the same bound as POST /events). */
const MAX_COLLECTION_SIZE = 1_000_000_000;

/** Where the import writes. */
export interface ImportTarget {
  readonly resources: ResourceStore;
  readonly measurements: MeasurementStore;
  readonly representations: Representations;
}

/** What the import tells as it goes: each refusal and unreadable document as met, and its counts now and then. */
export interface ImportListener {
  refused(refusal: Refusal): void;
  unreadable(unreadable: Unreadable): void;
  /** `fraction`: how much of the collection being read is read, where the source can tell. */
  progress(counts: readonly CollectionCount[], fraction: number | undefined): void;
}

export interface ImportOptions {
  readonly source: Source;
  /** Old bases to move references from; none: learned from the stored `selfRef`s (see Rebase). */
  readonly rebase: readonly string[];
  /** Read, check and count, write nothing. */
  readonly dryRun: boolean;
  /** Versions per write job (one transaction). */
  readonly batchSize: number;
  /**
   * Register series with the ttl UNIS stored. UNIS never applied it (its points went only when
   * the capped collection was full), so by default a series comes in with ttl 0 and keeps every
   * point, as it answered them on UNIS.
   */
  readonly keepTtl?: boolean;
  readonly listener: ImportListener;
}

/**
 * Points per write job (one transaction): small documents, cheap to hold. 1,000,000 points of 4
 * series in 5.1 s in jobs of 10,000, 4.2 s in jobs of 25,000 (SQLite, load 2 on 2 cores).
 */
const POINTS_PER_WRITE = 25_000;
/** How many documents between two progress reports. */
const PROGRESS_EVERY = 1_000;

/**
 * Import a UNIS registry (docs/moving-from-unis.md): every version of every resource collection
 * with its id and ts, then the `/events` registrations, then each series' points; UNIS's
 * bookkeeping and collections no kind holds are named and skipped. Nothing the source holds is
 * dropped without a word: a document the schemas refuse is imported and told as a refusal, one
 * that cannot be read is told with its place. Versions already stored are skipped, so a run can
 * be repeated to catch up, or resumed.
 */
export async function runImport(target: ImportTarget, options: ImportOptions): Promise<ImportReport> {
  const started = performance.now();
  const memoryAtStart = process.memoryUsage.rss();
  const rebase = new Rebase(target.representations.addresses.baseUrl, [...(options.source.base ? [options.source.base] : []), ...options.rebase], options.rebase.length === 0);
  const counts: CollectionCount[] = [];
  const collections = await options.source.collections();
  const count = (collection: string, role: string): CollectionCount => {
    const entry: CollectionCount = { collection, role, read: 0, imported: 0, skipped: 0, refused: 0, unreadable: 0 };
    counts.push(entry);
    return entry;
  };
  let current: SourceCollection | undefined;
  const run = new ImportRun(target, options, rebase, () => options.listener.progress(counts, current?.fraction?.()));

  const kindOf = (c: SourceCollection): KindDescriptor | undefined => target.representations.kindByCollection(c.name);
  for (const collection of collections.filter((c) => kindOf(c))) await run.resources((current = collection), kindOf(collection)!, count(collection.name, 'resources'));

  const mids = new Set((await target.measurements.list()).map((s) => s.mid));
  for (const collection of collections.filter((c) => c.name === REGISTRATIONS)) await run.series((current = collection), count(collection.name, 'series'), mids);
  for (const collection of collections) {
    if (kindOf(collection) || collection.name === REGISTRATIONS) continue;
    if (mids.has(collection.name)) {
      await run.points((current = collection), count(collection.name, 'points'));
      continue;
    }
    const skipped = count(collection.name, 'skipped');
    skipped.note = BOOKKEEPING[collection.name] ?? (collection.name.startsWith('system.') ? "MongoDB's own" : collection.capped ? 'the points of a series with no registration in events_cache' : 'no kind of this service holds it');
    // Counted, so the report says how much was left behind.
    for await (const item of collection.items()) if ('document' in item) skipped.read++;
  }
  options.listener.progress(counts, undefined);
  return {
    source: options.source.description,
    dryRun: options.dryRun,
    collections: counts,
    rebased: rebase.known(),
    seconds: (performance.now() - started) / 1000,
    // maxRSS is in KiB.
    memory: { start: memoryAtStart, peak: Math.max(memoryAtStart, process.resourceUsage().maxRSS * 1024) },
  };
}

/** A version read and made ready to store, with what the schemas said of it. */
interface Prepared {
  readonly version: ImportedVersion;
  readonly refusal?: Refusal;
}

class ImportRun {
  private sinceProgress = 0;

  constructor(
    private readonly target: ImportTarget,
    private readonly options: ImportOptions,
    private readonly rebase: Rebase,
    private readonly progress: () => void,
  ) {}

  private tick(): void {
    if (++this.sinceProgress >= PROGRESS_EVERY) {
      this.sinceProgress = 0;
      this.progress();
    }
  }

  private unreadable(count: CollectionCount, place: string, message: string): void {
    count.unreadable++;
    this.options.listener.unreadable({ collection: count.collection, place, message });
  }

  /** The readable documents of a collection, each counted as read; the others counted and told as unreadable. */
  private async *documents(collection: SourceCollection, count: CollectionCount): AsyncIterable<{ readonly place: string; readonly document: Readonly<Record<string, unknown>> }> {
    for await (const item of collection.items()) {
      count.read++;
      this.tick();
      if ('error' in item) this.unreadable(count, item.place, item.error);
      else yield item;
    }
  }

  /** Every version of one resource collection, in batches of one write job each. */
  async resources(collection: SourceCollection, kind: KindDescriptor, count: CollectionCount): Promise<void> {
    let batch: Prepared[] = [];
    /**
     * The batch being written while the next one is read and checked: on PostgreSQL the write is
     * the server's work, so both cores work (SQLite writes on this thread: nothing changes). One
     * at a time, so each batch's lookups see the one before it committed.
     */
    let writing: Promise<void> | undefined;
    for await (const item of this.documents(collection, count)) {
      // Its base learned first, so that its own references move with it.
      const raw = item.document;
      if (typeof raw.id === 'string' || typeof raw.id === 'number') this.rebase.learn(raw.selfRef, collection.name, String(raw.id));
      const document = fromMongo(raw, this.rebase.member);
      const id = typeof document.id === 'string' ? document.id : typeof document.id === 'number' ? String(document.id) : undefined;
      const ts = document.ts;
      if (id === undefined || id === '') {
        this.unreadable(count, item.place, 'no id: a UNIS resource has a string id');
        continue;
      }
      if (typeof ts !== 'number' || !Number.isSafeInteger(ts) || ts < 0) {
        this.unreadable(count, item.place, `"${id}": no ts, or not a whole number of microseconds`);
        continue;
      }
      batch.push(this.prepared(kind, collection.name, id, ts, document));
      if (batch.length >= this.options.batchSize) {
        await writing;
        writing = this.store(batch, count);
        // Its failure is met at the next await of it, not reported as unhandled meanwhile.
        writing.catch(() => undefined);
        batch = [];
      }
    }
    await writing;
    if (batch.length > 0) await this.store(batch, count);
  }

  /** One version as this service stores it; a version UNIS marked deleted is the resource's deletion at its ts. */
  private prepared(kind: KindDescriptor, collection: string, id: string, ts: number, document: Record<string, unknown>): Prepared {
    if (document.$status === 'DELETED') return { version: { kind: collection, id, ts, doc: null } };
    const representations = this.target.representations;
    const incoming = representations.incoming(kind, document, '');
    const version = { kind: collection, id, ts, doc: JSON.stringify(representations.stored(id, ts, incoming.body)) };
    const first = incoming.issues[0];
    return first ? { version, refusal: { collection, id, ts, pointer: first.path, message: first.message } } : { version };
  }

  private async store(batch: readonly Prepared[], count: CollectionCount): Promise<void> {
    const { stored } = await this.target.resources.importVersions(batch.map((p) => p.version), { dryRun: this.options.dryRun });
    batch.forEach((prepared, i) => {
      if (!stored[i]) {
        count.skipped++;
        return;
      }
      count.imported++;
      if (prepared.refusal) {
        count.refused++;
        this.options.listener.refused(prepared.refusal);
      }
    });
  }

  /**
   * The `/events` registrations (UNIS's `events_cache`: `id` the mid, `metadata_URL`,
   * `collection_size`, `ttl`, `ts`), each new series with its `ts`. A series registered already
   * with the same cap and ttl is skipped.
   */
  async series(collection: SourceCollection, count: CollectionCount, mids: Set<string>): Promise<void> {
    for await (const item of this.documents(collection, count)) {
      const document = fromMongo(item.document);
      const url = typeof document.metadata_URL === 'string' ? document.metadata_URL : undefined;
      const mid = typeof document.id === 'string' && document.id !== '' ? document.id : url?.split('/').filter((s) => s !== '').pop();
      if (mid === undefined) {
        this.unreadable(count, item.place, 'a registration names its series by id or metadata_URL');
        continue;
      }
      const size = Number(document.collection_size);
      const stored = Number(document.ttl ?? 0);
      const ttl = this.options.keepTtl ? stored : 0;
      if (!this.options.keepTtl && Number.isFinite(stored) && stored > 0) {
        count.note = `${count.note === undefined ? '' : `${count.note}; `}${mid} had ttl ${stored} s, which UNIS never applied: imported with ttl 0 (--keep-ttl keeps it)`;
      }
      const registration = {
        mid,
        metadataUrl: this.rebase.address(url ?? `${this.rebase.known()[0] ?? ''}/metadata/${mid}`),
        collectionSize: Number.isSafeInteger(size) && size >= 1 ? Math.min(size, MAX_COLLECTION_SIZE) : MAX_COLLECTION_SIZE,
        ttl: Number.isFinite(ttl) && ttl >= 0 ? ttl : 0,
        datumSchema: await this.datumSchema(mid),
      };
      const before = await this.target.measurements.series(mid);
      mids.add(mid);
      if (before && before.collectionSize === registration.collectionSize && before.ttl === registration.ttl) {
        count.skipped++;
        continue;
      }
      // The registration's own ts (µs), which GET /events answers, as UNIS stored it.
      const ts = document.ts;
      if (!this.options.dryRun) await this.target.measurements.register(registration, typeof ts === 'number' && Number.isSafeInteger(ts) && ts >= 0 ? ts : undefined);
      count.imported++;
    }
  }

  /** The `parameters.datumSchema` of the series' metadata, as POST /events reads it. */
  private async datumSchema(mid: string): Promise<string | null> {
    const metadata = await this.target.resources.current('metadata', mid);
    const schema = metadata ? (JSON.parse(metadata.doc) as { parameters?: { datumSchema?: unknown } }).parameters?.datumSchema : undefined;
    return typeof schema === 'string' ? schema : null;
  }

  /** One series' points (UNIS's capped collection named by the mid), appended in batches; points stored already are skipped. */
  async points(collection: SourceCollection, count: CollectionCount): Promise<void> {
    const size = POINTS_PER_WRITE;
    let batch: DataPoint[] = [];
    const flush = async (): Promise<void> => {
      if (this.options.dryRun) {
        count.imported += batch.length;
      } else {
        const [appended] = await this.target.measurements.append([{ mid: collection.name, points: batch }]);
        count.imported += appended!.stored;
        count.skipped += appended!.duplicates + appended!.expired;
      }
      batch = [];
    };
    for await (const item of this.documents(collection, count)) {
      const point = fromMongo(item.document);
      if (typeof point.ts !== 'number' || !Number.isFinite(point.ts)) {
        this.unreadable(count, item.place, 'a data point has a numeric ts');
        continue;
      }
      batch.push(point as DataPoint);
      if (batch.length >= size) await flush();
    }
    if (batch.length > 0) await flush();
  }
}
