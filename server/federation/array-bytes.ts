import type { OrderKey } from './order.js';
import { CLOSE_BRACKET, COMMA, INCOMPLETE, OPEN_BRACKET, skipWhitespace } from './json-bytes.js';
import type { SortKeyReader } from './sort-key-bytes.js';

const enum At {
  /** Before the `[` (a UTF-8 byte order mark may come first, as TextDecoder allowed). */
  Start,
  /** After the `[`: an element or the `]`. */
  First,
  /** After a comma: an element. */
  Element,
  /** After an element: a comma or the `]`. */
  After,
  Closed,
}

const BOM = [0xef, 0xbb, 0xbf];
const EMPTY = Buffer.alloc(0);
/** The least of a chunk joined with the element cut by the chunk before (a node is about 700 bytes). */
const JOIN = 4 * 1024;

/**
 * The elements of one JSON array read from a stream of byte chunks, each as it arrives, never
 * decoded (issue 37): each element is located by JSON's grammar on bytes and its sort keys are
 * read on the way (SortKeyReader), so what the merge holds of an element is where its bytes are
 * and its key. After each `push`, `buffer` holds the elements found, at [starts[k], ends[k]),
 * keys[k]; an element cut by the chunk's end is kept (its bytes only) and read again once about
 * twice as many bytes are there, so an element larger than a chunk is read O(1) times over.
 * Throws a SyntaxError when the bytes are not one JSON array.
 */
export class ArrayBytes {
  buffer: Buffer = EMPTY;
  readonly starts: number[] = [];
  readonly ends: number[] = [];
  readonly keys: OrderKey[] = [];
  private at = At.Start;
  /** The unread bytes: the start of an unfinished element (or of a byte order mark). */
  private pending: Buffer | undefined;
  /** Bytes to wait for before the unfinished element is read again. */
  private retryAt = 0;
  /** Bytes of the last chunk not read yet (see `push`). */
  private rest: Buffer | undefined;

  constructor(private readonly reader: SortKeyReader) {}

  /**
   * Read the elements that `chunk` completes, or some of them: `unscanned` then says that more
   * of it is to be read (`scanRest`). An element cut by the last chunk's end is joined with only
   * the start of this one (JOIN bytes, or twice its own length), and the rest of this chunk is
   * read where it is. Copying the whole chunk behind the cut element made 66 MB more of
   * ArrayBuffers a merge of 4 × 25,000 nodes, which V8 counts towards starting a collection:
   * side by side, two runs, three or four lookups a side, 16–26 mark-compacts in four merges
   * and 260–630 ms of CPU a merge with this, 13–48 and 280–780 ms without (issue 37).
   */
  push(chunk: Uint8Array): void {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const pending = this.pending;
    if (pending === undefined) return this.scan(bytes, false);
    const take = Math.max(JOIN, 2 * pending.length);
    if (take >= bytes.length) return this.scan(Buffer.concat([pending, bytes]), false);
    const at = this.at;
    const joined = Buffer.concat([pending, bytes.subarray(0, take)]);
    this.scan(joined, false);
    const left = this.pending as Buffer | undefined;
    const cut = left === undefined ? joined.length : joined.length - left.length;
    if (cut >= pending.length) {
      this.pending = undefined;
      this.rest = bytes.subarray(cut - pending.length);
      return;
    }
    this.at = at;
    this.pending = pending;
    this.scan(Buffer.concat([pending, bytes]), false);
  }

  /** Bytes of the last chunk are still to be read. */
  get unscanned(): boolean {
    return this.rest !== undefined;
  }

  /** Read on in the last chunk. */
  scanRest(): void {
    const rest = this.rest!;
    this.rest = undefined;
    this.scan(rest, false);
  }

  /** The stream ended: read what is left, and throw unless the array was closed. */
  end(): void {
    while (this.rest !== undefined) this.scanRest();
    this.scan(this.pending ?? EMPTY, true);
    if (this.at !== At.Closed) throw new SyntaxError('the array ended early');
  }

  /** The number of elements found by the last push. */
  get count(): number {
    return this.starts.length;
  }

  private scan(b: Buffer, last: boolean): void {
    this.buffer = b;
    this.pending = undefined;
    this.starts.length = 0;
    this.ends.length = 0;
    this.keys.length = 0;
    if (b.length < this.retryAt && !last) {
      this.pending = b;
      return;
    }
    this.retryAt = 0;
    const length = b.length;
    let i = 0;
    if (this.at === At.Start) {
      const prefix = Math.min(length, BOM.length);
      if (BOM.slice(0, prefix).every((c, k) => b[k] === c)) {
        if (prefix < BOM.length) {
          if (last && length > 0) throw new SyntaxError('not a JSON array');
          this.pending = b;
          return;
        }
        i = BOM.length;
      }
    }
    for (;;) {
      i = skipWhitespace(b, i, length);
      if (i >= length) return;
      const c = b[i]!;
      switch (this.at) {
        case At.Start:
          if (c !== OPEN_BRACKET) throw new SyntaxError('not a JSON array');
          this.at = At.First;
          i++;
          continue;
        case At.After:
          if (c === COMMA) this.at = At.Element;
          else if (c === CLOSE_BRACKET) this.at = At.Closed;
          else throw new SyntaxError('expected , or ] after an element');
          i++;
          continue;
        case At.Closed:
          throw new SyntaxError('text after the end of the array');
        case At.First:
        case At.Element:
          if (c === CLOSE_BRACKET && this.at === At.First) {
            this.at = At.Closed;
            i++;
            continue;
          }
          if (c === COMMA || c === CLOSE_BRACKET) throw new SyntaxError('an empty element');
      }
      const after = this.reader.read(b, i, length);
      if (after === INCOMPLETE) {
        this.pending = b.subarray(i);
        this.retryAt = 2 * this.pending.length;
        return;
      }
      this.starts.push(i);
      this.ends.push(after);
      this.keys.push(this.reader.key);
      this.at = At.After;
      i = after;
    }
  }
}
