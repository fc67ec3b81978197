import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * Structured logs: one JSON object per line on stdout, so any collector can parse them.
 * Writes are asynchronous to stay off the request path; `flush` drains on exit.
 */
export function createLogger(level: string): Logger {
  return pino(
    { level, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime },
    // At most PIPE_BUF (4096 on Linux) per write, made of whole lines: such writes to a pipe are
    // atomic, so the lines of cluster workers sharing the primary's stdout never interleave.
    pino.destination({ dest: 1, sync: false, maxWrite: 4096 }),
  );
}
