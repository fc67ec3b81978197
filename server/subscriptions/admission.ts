/** The open subscriber connections (WebSocket and event stream) of this process, up to a limit. */
export class Admission {
  private open = 0;
  /** For /metrics: each gives the bytes some subscribers' connections hold unsent. */
  readonly buffers = new Set<() => number>();

  constructor(readonly limit: number) {}

  /** Count one more connection, or false when the limit is reached. */
  enter(): boolean {
    if (this.open >= this.limit) return false;
    this.open++;
    return true;
  }

  leave(): void {
    this.open--;
  }

  get count(): number {
    return this.open;
  }

  /** Bytes waiting to be sent to every subscriber of this process. */
  bufferedBytes(): number {
    let bytes = 0;
    for (const probe of this.buffers) bytes += probe();
    return bytes;
  }
}
