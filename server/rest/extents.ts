import type { KindDescriptor } from '../../generated/rest/handler.js';
import { targetOf } from '../query/typing.js';
import type { ResourceStore, Selection } from '../storage/resource-store.js';
import type { Representations } from '../wire/representation.js';

/** The collection whose files `inline` completes, and the one their extents live in. */
export const FILES = 'exnodes';
const EXTENTS = 'extents';
/** Most extents one file is completed with (UNIS HEAD had no bound; an answer must). */
const MAX_EXTENTS = 10_000;

/**
 * `inline` on `/exnodes`, as UNIS HEAD answers it (rest-contract §5, revised 2026-11-26): each
 * exnode that is not `mode: directory` gets `extents`, the array of its extents
 * (`/extents?parent.href=<its selfRef>`, newest representations, by `offset`), replacing what
 * it stored there. Directories are answered as stored. libdlt and dlt-web read a file's
 * extents this way.
 */
export class ExtentsOfFiles {
  private readonly extents: KindDescriptor;

  /** @param at the instant (µs) whose extents are read (docs/time.md); absent: the newest. */
  constructor(
    private readonly store: ResourceStore,
    private readonly representations: Representations,
    private readonly at?: number,
  ) {
    this.extents = representations.kindByCollection(EXTENTS)!;
  }

  /** Whether `kind` is the one `inline` changes. */
  static applies(kind: KindDescriptor): boolean {
    return kind.collection === FILES;
  }

  /** `document` (an exnode as answered) with its extents, when it is a file. */
  async complete(document: Record<string, unknown>): Promise<Record<string, unknown>> {
    if (document.mode === 'directory' || typeof document.selfRef !== 'string') return document;
    const selection: Selection = {
      conditions: [{ anyOf: [{ target: targetOf(['parent', 'href'], this.extents.fields), comparison: '=', type: 'string', values: [document.selfRef] }] }],
      sort: [{ field: ['offset'], descending: false }],
      limit: MAX_EXTENTS,
      ...(this.at !== undefined ? { at: this.at } : {}),
    };
    const extents: unknown[] = [];
    for await (const extent of this.store.list(EXTENTS, selection)) extents.push(JSON.parse(this.representations.render(this.extents, extent)));
    return { ...document, extents };
  }
}
