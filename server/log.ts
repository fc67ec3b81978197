import { pino, type Logger } from 'pino';
import { BatchedLines } from './log-lines.js';

export type { Logger };

let lastMs = 0;
let lastTime = '';

/**
 * pino's ISO `time` member, made once per millisecond rather than once per line: at thousands of
 * requests a second, consecutive access lines share their millisecond.
 */
function isoTime(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastTime = `,"time":"${new Date(now).toISOString()}"`;
  }
  return lastTime;
}

/**
 * Structured logs: one JSON object per line on stdout, so any collector can parse them.
 * Lines are written in batches (see BatchedLines); `flush` writes what waits, on exit.
 */
export function createLogger(level: string): Logger {
  return pino({ level, base: { pid: process.pid }, timestamp: isoTime }, new BatchedLines(1));
}
