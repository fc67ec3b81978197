import { selfRefSegment } from '../storage/id-segment.js';

/**
 * References into the old service moved onto this one (rest-contract §14): every `href` (and
 * `selfRef`) whose value starts with an old base gets this service's base instead. Only those
 * members: other strings that hold the old address (`accessPoint`, `measurement.service`, …)
 * stay as stored. The old bases are the ones given (`--rebase`), or, when none is given, each
 * base a stored `selfRef` shows (`<base>/<collection>/<id>`), learned as documents are read:
 * UNIS wrote `selfRef` from each request's own URL, so one registry may hold several.
 */
export class Rebase {
  private readonly bases = new Set<string>();

  constructor(
    /** This service's base (PUBLIC_URL). */
    private readonly target: string,
    given: readonly string[],
    /** Learn bases from `selfRef`s (no `--rebase` given). */
    private readonly detect: boolean,
  ) {
    for (const base of given) this.bases.add(trimmed(base));
  }

  /** The old bases known so far, for the report. */
  known(): string[] {
    return [...this.bases].sort();
  }

  /** Learn the base of a document's `selfRef` (`<base>/<collection>/<id>`), when detecting. */
  learn(selfRef: unknown, collection: string, id: string): void {
    if (!this.detect || typeof selfRef !== 'string') return;
    for (const tail of [`/${collection}/${id}`, `/${collection}/${selfRefSegment(id)}`, `/${collection}/${encodeURIComponent(id)}`]) {
      if (selfRef.endsWith(tail) && selfRef.length > tail.length) {
        const base = trimmed(selfRef.slice(0, -tail.length));
        if (base !== this.target) this.bases.add(base);
        return;
      }
    }
  }

  /** An address under an old base, moved onto this service's; any other value (one under this service's base already, too) as it is. */
  address(value: string): string {
    if (under(value, this.target)) return value;
    for (const base of this.bases) {
      if (under(value, base)) return this.target + value.slice(base.length);
    }
    return value;
  }

  /** A string member as the import keeps it: an `href` or `selfRef` rebased, anything else as it is (a StringRewrite). */
  readonly member = (key: string, value: string): string => ((key === 'href' || key === 'selfRef') && this.bases.size > 0 ? this.address(value) : value);
}

function trimmed(base: string): string {
  return base.replace(/\/+$/, '');
}

/** Whether `value` is `base` or an address under it (an old base may be the start of the new one: `http://h` and `http://h/topology`). */
function under(value: string, base: string): boolean {
  return value.startsWith(base) && (value.length === base.length || value[base.length] === '/');
}
