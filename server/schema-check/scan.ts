import type { KindDescriptor } from '../../generated/rest/handler.js';
import { defineMember } from '../wire/representation.js';
import { currentDocuments } from '../storage/current-documents.js';
import type { Database } from '../storage/contract/database.js';
import { Pacer } from '../storage/pace.js';

/** Rows read at a time (one short query each; see currentDocuments). */
const BATCH = 500;
/** Rows validated between two looks at the clock: a row costs tens of microseconds (see scanStoredData). */
const ROWS_PER_LOOK = 16;

/** A stored resource that the generated schemas no longer accept. */
export interface Misfit {
  /** The collection it is stored under (`ports`). */
  readonly collection: string;
  /** Its kind's name (`Port`), or null when no generated kind holds the collection any more. */
  readonly kind: string | null;
  readonly id: string;
  /** The first validation error: a JSON pointer into the document ('' for the whole) and what is wrong. */
  readonly pointer: string;
  readonly message: string;
}

export interface ScanSummary {
  /** Live resources looked at. */
  readonly checked: number;
  /** Of a generated kind, but invalid under its schema now. */
  readonly invalid: number;
  /** In a collection no generated kind holds any more. */
  readonly removed: number;
  /** Those collections, sorted. */
  readonly removedKinds: readonly string[];
}

/**
 * The document a PATCH or PUT of a stored resource would be validated as (wire/representation.ts,
 * `incoming`): without the members the server sets on every write, with a `$schema`.
 */
function asWritten(kind: KindDescriptor, stored: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = { $schema: typeof stored.$schema === 'string' ? stored.$schema : `${kind.schemaId}#` };
  for (const [key, member] of Object.entries(stored)) if (key !== '$schema' && key !== 'ts' && key !== 'selfRef') defineMember(body, key, member);
  return body;
}

/**
 * Check every live resource against the validators of `kinds`, in batches (bounded memory, see
 * currentDocuments), and tell `onMisfit` of each that fails, in (collection, id) order. Nothing is
 * changed. Undefined when `signal` ended the scan before it finished.
 */
export async function scanStoredData(db: Database, kinds: readonly KindDescriptor[], onMisfit: (misfit: Misfit) => unknown, signal?: AbortSignal): Promise<ScanSummary | undefined> {
  const byCollection = new Map(kinds.map((k) => [k.collection, k]));
  const removedKinds = new Set<string>();
  let checked = 0;
  let invalid = 0;
  let removed = 0;
  // Validation runs on the event loop: in slices of SLICE_MS, with requests served between them.
  const pacer = new Pacer(ROWS_PER_LOOK);
  for await (const batch of currentDocuments(db, BATCH, signal)) {
    for (const row of batch) {
      if (pacer.due()) await pacer.turn();
      checked++;
      const kind = byCollection.get(row.kind);
      if (!kind) {
        removed++;
        removedKinds.add(row.kind);
        await onMisfit({ collection: row.kind, kind: null, id: row.id, pointer: '', message: `no generated kind holds the collection "${row.kind}" any more (its schema was removed)` });
        continue;
      }
      const result = kind.validate(asWritten(kind, JSON.parse(row.doc) as Record<string, unknown>));
      if (result.valid) continue;
      invalid++;
      const first = result.issues[0] ?? { path: '', message: 'is invalid' };
      await onMisfit({ collection: row.kind, kind: kind.name, id: row.id, pointer: first.path, message: first.message });
    }
  }
  if (signal?.aborted) return undefined;
  return { checked, invalid, removed, removedKinds: [...removedKinds].sort() };
}
