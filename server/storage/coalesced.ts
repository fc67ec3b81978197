/**
 * One question for the callers that arrive together: one `ask` for every caller that arrives
 * while none is being asked, started after each of them arrived. A caller never shares an answer
 * whose question was asked before it came: that answer could predate a commit acknowledged before
 * it came. So the callers that arrive while a question is in flight wait for the next, which
 * starts when the one in flight ends: at most two questions per round trip, however many callers.
 * (PostgreSQL's standbys ask their replay position and the primary's WAL position this way.)
 */
export class Coalesced<T> {
  private inFlight: Promise<T> | undefined;
  private next: Promise<T> | undefined;

  constructor(private readonly ask: () => Promise<T>) {}

  get(): Promise<T> {
    if (this.inFlight === undefined) return this.start();
    this.next ??= this.inFlight.then(
      () => this.start(),
      () => this.start(),
    );
    return this.next;
  }

  private start(): Promise<T> {
    this.next = undefined;
    const asked = this.ask();
    this.inFlight = asked;
    const done = (): void => {
      if (this.inFlight === asked) this.inFlight = undefined;
    };
    asked.then(done, done);
    return asked;
  }
}
