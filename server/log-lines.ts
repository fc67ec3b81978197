import { fstatSync, writeSync } from 'node:fs';

/**
 * Most bytes per write to a pipe: PIPE_BUF on Linux. A write of at most this many bytes to a
 * pipe is atomic, so the lines of cluster workers sharing the primary's stdout never interleave.
 */
const PIPE_WRITE = 4096;
/** Most bytes per write to a file (opened for appending, so every write lands whole at the end). */
const FILE_WRITE = 64 * 1024;
/** The longest a line waits in memory before it is written. */
const FLUSH_MS = 50;

/** pino's line of a routine level (info and below): it may wait; a warning or an error may not. */
function routine(line: string): boolean {
  // pino writes the level first, `{"level":30,…`: trace 10, debug 20, info 30, warn 40, error 50, fatal 60.
  return line.charCodeAt(9) <= 0x33;
}

/**
 * The log's destination: lines are gathered in memory and written in batches of whole lines
 * (up to PIPE_WRITE or FILE_WRITE bytes each), once a batch is full or FLUSH_MS after its first line; a warning or an error is written at
 * once, with whatever waits before it. A write
 * per line (pino's asynchronous destination) cost a job on the thread pool per request, a
 * thread hand-off and a wake-up of the event loop each; a batch is one plain write for about
 * 20 access-log lines on a pipe, 350 on a file. Writes are synchronous, as pino's default destination's are: a line is
 * never lost to a crash after its batch was written, and order holds across the process.
 */
export class BatchedLines {
  private batch = '';
  private batchBytes = 0;
  private timer: NodeJS.Timeout | undefined;

  private readonly maxWrite: number;

  constructor(private readonly fd: number) {
    this.maxWrite = fstatSync(fd).isFile() ? FILE_WRITE : PIPE_WRITE;
  }

  /** pino calls this with one whole line (newline included). */
  write(line: string): void {
    const bytes = Buffer.byteLength(line);
    if (this.batchBytes + bytes > this.maxWrite) this.flushSync();
    this.batch += line;
    this.batchBytes += bytes;
    if (this.batchBytes >= this.maxWrite || !routine(line)) this.flushSync();
    else this.timer ??= setTimeout(() => this.flushSync(), FLUSH_MS).unref();
  }

  /** pino's flush: write what waits, then call `done`. */
  flush(done: (error?: Error) => void = () => undefined): void {
    this.flushSync();
    done();
  }

  flushSync(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.batchBytes === 0) return;
    const data = Buffer.from(this.batch);
    this.batch = '';
    this.batchBytes = 0;
    for (let at = 0; at < data.length; ) {
      try {
        at += writeSync(this.fd, data, at);
      } catch (error) {
        // A non-blocking pipe that is full: try again; anything else (the reader is gone): drop.
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return;
      }
    }
  }
}
