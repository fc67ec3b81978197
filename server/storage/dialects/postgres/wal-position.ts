/**
 * PostgreSQL's WAL positions (`pg_lsn`, written `16/B374D848`) as numbers that compare, and the
 * consistency token a write answer carries (rest-contract §15): the position after its commit.
 */

/** `X/Y` (hexadecimal halves of a 64-bit position) → its number; undefined when it is not one. */
export function parseLsn(text: unknown): bigint | undefined {
  if (typeof text !== 'string') return undefined;
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text);
  if (!match) return undefined;
  return (BigInt(`0x${match[1]!}`) << 32n) + BigInt(`0x${match[2]!}`);
}

/** A position → `X/Y`, as PostgreSQL writes it. */
export function formatLsn(lsn: bigint): string {
  return `${(lsn >> 32n).toString(16).toUpperCase()}/${(lsn & 0xffffffffn).toString(16).toUpperCase()}`;
}

/**
 * One statement for every caller that arrives while none is being asked, started after each of
 * them arrived. A caller never shares an answer whose question was asked before it came: that
 * answer could predate a commit acknowledged before it came. So the callers that arrive while a
 * question is in flight wait for the next, which starts when the one in flight ends: at most two
 * statements per round trip, however many callers.
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
