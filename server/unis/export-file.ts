import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';

/** Text gathered before one write to the file: few large writes rather than one per document. */
const CHUNK = 256 * 1024;

/**
 * One `<collection>.json` of the export, written as JSON lines (what `mongoexport` writes by
 * default and `mongoimport` reads by default) into `<name>.partial` and renamed onto its name
 * only once complete and flushed, so a folder never holds a file that looks whole and is not:
 * an interrupted export leaves `.partial` files, which neither mongoimport's `--file <c>.json`
 * nor `npm run import` (it reads `*.json`) would take. The writer waits for the disk when the
 * stream's buffer is full, so memory stays bounded whatever the collection's size.
 */
export class JsonLinesFile {
  private readonly stream: WriteStream;
  private pending = '';
  /** Documents written (lines). */
  lines = 0;

  constructor(private readonly file: string) {
    this.stream = createWriteStream(`${file}.partial`, { encoding: 'utf8' });
  }

  /** One document, already the JSON text of one line. */
  async line(text: string): Promise<void> {
    this.pending += `${text}\n`;
    this.lines++;
    if (this.pending.length >= CHUNK) await this.flush();
  }

  private async flush(): Promise<void> {
    const text = this.pending;
    this.pending = '';
    if (text !== '' && !this.stream.write(text)) await Promise.race([once(this.stream, 'drain'), once(this.stream, 'error').then(([error]) => Promise.reject(error as Error))]);
  }

  /** Write what is left, close, and give the file its name. */
  async complete(): Promise<void> {
    await this.flush();
    await new Promise<void>((resolve, reject) => {
      this.stream.once('error', reject);
      this.stream.end(() => resolve());
    });
    await rename(`${this.file}.partial`, this.file);
  }

  /** Give up: close and remove the partial file. */
  async abandon(): Promise<void> {
    this.stream.destroy();
    await rm(`${this.file}.partial`, { force: true });
  }
}
