/**
 * The element texts of one JSON array read from a stream of text chunks, each as it arrives,
 * without parsing the array whole: a scanner keeps the depth and whether it is inside a string,
 * so memory holds one chunk and the element being read. The texts are the instance's bytes
 * (decoded), not a re-serialisation. Throws when the text is not one JSON array.
 */
export class JsonElements {
  /** Text not yet cut into elements (the start of an unfinished element). */
  private pending = '';
  /** Where scanning resumes in `pending`. */
  private at = 0;
  /** Where the element being read starts in `pending`, or -1 between elements. */
  private start = -1;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private opened = false;
  private closed = false;
  /** A comma was read and no element after it yet. */
  private afterComma = false;

  /** The elements that `chunk` completes, in order. */
  push(chunk: string): string[] {
    if (this.closed) {
      if (chunk.trim() !== '') throw new SyntaxError('text after the end of the array');
      return [];
    }
    this.pending += chunk;
    const out: string[] = [];
    const text = this.pending;
    let i = this.at;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 0x5c) this.escaped = true;
        else if (c === 0x22) this.inString = false;
        else {
          // Jump to the next quote or backslash.
          const quote = text.indexOf('"', i);
          const slash = text.indexOf('\\', i);
          const next = quote === -1 ? slash : slash === -1 ? quote : Math.min(quote, slash);
          if (next === -1) i = text.length - 1;
          else i = next - 1;
        }
        continue;
      }
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
      if (!this.opened) {
        if (c !== 0x5b) throw new SyntaxError('not a JSON array');
        this.opened = true;
        this.depth = 1;
        continue;
      }
      if (this.depth === 1 && (c === 0x2c || c === 0x5d)) {
        if (this.start !== -1) out.push(text.slice(this.start, i).trimEnd());
        else if (c === 0x2c || this.afterComma) throw new SyntaxError('an empty element');
        this.start = -1;
        this.afterComma = c === 0x2c;
        if (c === 0x5d) {
          this.closed = true;
          this.depth = 0;
          if (text.slice(i + 1).trim() !== '') throw new SyntaxError('text after the end of the array');
          this.pending = '';
          this.at = 0;
          return out;
        }
        continue;
      }
      if (this.start === -1) {
        this.start = i;
        this.afterComma = false;
      }
      if (c === 0x22) this.inString = true;
      else if (c === 0x5b || c === 0x7b) this.depth++;
      else if (c === 0x5d || c === 0x7d) this.depth--;
    }
    // Keep only the unfinished element.
    if (this.start === -1) {
      this.pending = '';
      this.at = 0;
    } else {
      this.pending = text.slice(this.start);
      this.at = i - this.start;
      this.start = 0;
    }
    return out;
  }

  /** Throws unless the array was closed. */
  end(): void {
    if (!this.closed) throw new SyntaxError('the array ended early');
  }
}
