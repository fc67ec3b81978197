// What the resource store reads and the answers render. Part of storage's contract: it imports
// nothing else of storage.

/** A stored representation: its `doc` is the JSON text exactly as stored. */
export interface Representation {
  readonly id: string;
  readonly ts: number;
  readonly doc: string;
}
