/** Lines of code with indentation, so generated functions read like written ones. */
export class Code {
  private readonly lines: string[] = [];
  private depth = 0;
  line(text = ''): this {
    this.lines.push(text === '' ? '' : '  '.repeat(this.depth) + text);
    return this;
  }
  open(text: string): this {
    this.line(text);
    this.depth++;
    return this;
  }
  /** A line between two indented bodies, such as `} else if (…) {`. */
  middle(text: string): this {
    this.depth--;
    this.line(text);
    this.depth++;
    return this;
  }
  close(text = '}'): this {
    this.depth--;
    return this.line(text);
  }
  block(opening: string, body: () => void, closing = '}'): this {
    this.open(opening);
    body();
    return this.close(closing);
  }
  toString(): string {
    return this.lines.join('\n');
  }
}
