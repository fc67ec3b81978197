import { pino, type Logger } from 'pino';
import { BatchedLines } from './log-lines.js';

export type { Logger };


/**
 * Structured logs: one JSON object per line on stdout, so any collector can parse them.
 * Lines are written in batches, asynchronously (see BatchedLines); `flush` drains on exit.
 */
export function createLogger(level: string): Logger {
  return pino(
    { level, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime },
    new BatchedLines(1),
  );
}
