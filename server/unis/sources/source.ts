/**
 * Where a UNIS registry is read from (docs/moving-from-unis.md): a running UNIS, a folder of
 * `mongoexport` files, or a `mongodump` folder. Each gives the collections it holds, and each
 * collection its documents as UNIS stored them (MongoDB-escaped keys, `_id` and all) or, for a
 * document that cannot be read, where it is and why.
 */

import { scanJson } from '../../wire/body.js';

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

/**
 * A document's text as a source item: refused before it is parsed when it is nested deeper than
 * `maxDepth` (MAX_JSON_DEPTH, the limit of a REST body, with the same check and message) or holds
 * a string no database can store, else parsed; it must be a JSON object.
 */
export function documentOfText(text: string, place: string, maxDepth: number): SourceItem {
  const problem = scanJson(text, maxDepth);
  if (problem !== undefined) return { place, error: problem };
  try {
    // Plain JSON: Extended JSON's type wrappers are read where documents are (keys.ts, fromMongo).
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return { place, error: 'not a JSON object' };
    return { place, document: value as Record<string, unknown> };
  } catch (error) {
    return { place, error: reason(error) };
  }
}
