import type { CollectionCount } from './report.js';

/** How often a terminal's line is redrawn, and how often plain lines are written elsewhere. */
const TERMINAL_MS = 200;
const PLAIN_MS = 5_000;
const BAR = 24;

/**
 * The import's progress on stderr: on a terminal one line redrawn in place, with a bar where the
 * source knows how far it is (files: bytes read of the collection's file); elsewhere (a log, CI)
 * a plain line every few seconds. The counts are those of the collection being read.
 */
export class Progress {
  private last = 0;
  private drawn = false;
  private readonly started = performance.now();

  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly fraction: () => number | undefined,
  ) {}

  private get terminal(): boolean {
    return this.stream.isTTY === true;
  }

  /** Told with the counts so far; draws when it is time. */
  update(counts: readonly CollectionCount[], force = false): void {
    const now = performance.now();
    if (!force && now - this.last < (this.terminal ? TERMINAL_MS : PLAIN_MS)) return;
    this.last = now;
    const current = counts[counts.length - 1];
    if (!current) return;
    const total = counts.reduce((sum, c) => sum + c.read, 0);
    const rate = Math.round(total / Math.max((now - this.started) / 1000, 0.001)).toLocaleString('en-US');
    const share = this.fraction();
    const bar = share === undefined ? '' : `[${'#'.repeat(Math.round(share * BAR)).padEnd(BAR, '.')}] ${Math.floor(share * 100)}% `;
    const text = `${current.collection}: ${bar}${current.read.toLocaleString('en-US')} read, ${current.imported.toLocaleString('en-US')} imported, ${current.skipped.toLocaleString('en-US')} skipped; ${total.toLocaleString('en-US')} in all, ${rate}/s`;
    if (this.terminal) {
      this.stream.write(`\r\x1b[K${text.slice(0, Math.max(20, (this.stream.columns ?? 120) - 1))}`);
      this.drawn = true;
    } else {
      this.stream.write(`${text}\n`);
    }
  }

  /** Clear the terminal's line before other output (a report line, the table). */
  clear(): void {
    if (this.terminal && this.drawn) this.stream.write('\r\x1b[K');
    this.drawn = false;
  }
}
