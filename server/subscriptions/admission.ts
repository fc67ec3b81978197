/** The open subscriber connections (WebSocket and event stream) of this process, up to a limit. */
export class Admission {
  private open = 0;

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
}
