import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Most time a long piece of work runs before it gives the event loop a turn. The synchronous
 * SQLite driver runs statements on the main thread, so long work (a streamed list, a large
 * write, a catalog result) is cut into slices of about this length, and requests that arrived
 * meanwhile are served between them.
 */
export const SLICE_MS = 2;

/** Cuts long work into slices: ask `due()` between steps, and `turn()` when it says so. */
export class Pacer {
  private sliceStarted = performance.now();
  private steps = 0;

  /**
   * @param stepsPerLook how many steps pass between two looks at the clock: 1 for costly steps,
   * more for steps that cost less than a look (a row of a stream).
   */
  constructor(private readonly stepsPerLook = 1) {}

  /** True when the work since the last turn has run for SLICE_MS. */
  due(): boolean {
    if (++this.steps % this.stepsPerLook !== 0) return false;
    return performance.now() - this.sliceStarted >= SLICE_MS;
  }

  /** Give the event loop a turn (I/O, timers, other requests), then start a new slice. */
  async turn(): Promise<void> {
    await nextTurn();
    this.sliceStarted = performance.now();
  }

  /** `turn()` when due: for loops whose steps are few and costly. */
  async breathe(): Promise<void> {
    if (this.due()) await this.turn();
  }
}
