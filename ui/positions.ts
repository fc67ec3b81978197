import type { Placed } from './skeleton.js';

/**
 * Where a large picture's nodes were laid out, kept in the browser between visits (one entry per
 * service address), so a reload draws at once instead of running the layout again.
 */
export class Positions {
  constructor(private readonly key: string) {}

  /** The kept positions, or undefined when none are kept (or they cannot be read). */
  read(): Placed | undefined {
    try {
      const text = localStorage.getItem(this.key);
      return text === null ? undefined : (JSON.parse(text) as Placed);
    } catch {
      return undefined;
    }
  }

  write(placed: Placed): void {
    try {
      localStorage.setItem(this.key, JSON.stringify(placed));
    } catch {
      // A full or refused storage only costs the next visit a layout.
    }
  }
}
