/**
 * Where a UNIS registry is read from (docs/moving-from-unis.md): a running UNIS, a folder of
 * `mongoexport` files, or a `mongodump` folder. Each gives the collections it holds, and each
 * collection its documents as UNIS stored them (MongoDB-escaped keys, `_id` and all) or, for a
 * document that cannot be read, where it is and why.
 */

/** One document of a collection, or what went wrong reading it. */
export type SourceItem =
  | { readonly place: string; readonly document: Readonly<Record<string, unknown>> }
  | { readonly place: string; readonly error: string };

export interface SourceCollection {
  /** Its name in UNIS's database (`nodes`, `events_cache`, a metadata id for a series' points). */
  readonly name: string;
  /** A capped collection (UNIS keeps each series' points in one). */
  readonly capped: boolean;
  items(): AsyncIterable<SourceItem>;
  /** How much of it has been read, from 0 to 1, where the source can tell (files: bytes). */
  fraction?(): number;
}

/** How far through a file its reader is, for SourceCollection.fraction. */
export class FileShare {
  read = 0;
  constructor(readonly size: number) {}
  fraction(): number {
    return this.size > 0 ? Math.min(1, this.read / this.size) : 1;
  }
}

export interface Source {
  /** What it is, for the report (`mongoexport folder ./dump`). */
  readonly description: string;
  /** Where references into the old service start, when the source knows (a running UNIS: its URL). */
  readonly base?: string;
  collections(): Promise<SourceCollection[]>;
}

/** The first line of an error's message. */
export function reason(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}
