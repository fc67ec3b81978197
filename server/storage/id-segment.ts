/**
 * How a resource id is written into an address's last path segment, and read back from one
 * (rest-contract §3, revised 2026-11-29). A client's id may hold any character but `/`, `?`, `#`,
 * whitespace and control characters (URNs, and the `%3A`, `+`, `@` that unisencoder and GENI
 * tools write), so one segment can be read two ways when it holds a `%`: as sent (UNISrt builds
 * `{url}/{collection}/{id}` by joining strings, and `selfRef` is written so that it equals that),
 * and percent-decoded (the SDK, curl, any HTTP library's encoder). See readingsOf for which wins.
 */

/**
 * Most bytes (UTF-8) of an id (rest-contract §3). The schema's `maxLength` counts characters, so
 * an id of many multi-byte characters is refused by Representations.incoming; the key columns
 * hold 1,024 characters (id-length.ts).
 */
export const MAX_ID_BYTES = 1024;

/**
 * Characters a path segment holds unencoded (RFC 3986 `pchar` without its pct-encoded: unreserved,
 * sub-delims, `:` and `@`), and `%`, which selfRef writes as the id has it (UNIS did).
 */
const SELF_REF_SAFE = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%]*$/;
/** The same without `%`: what a path written to be decoded leaves unencoded. */
const PATH_SAFE = /^[A-Za-z0-9\-._~!$&'()*+,;=:@]*$/;

/**
 * The id as `selfRef` (and `Location`) write it, as UNIS wrote it: `pchar` characters and `%`
 * stay as they are, anything else (non-ASCII, `"`, `[`, `|`, …) is percent-encoded as UTF-8. So a
 * client that builds `{url}/{collection}/{id}` gets the same string for every id of those
 * characters (every id UNIS clients and tools write).
 */
export function selfRefSegment(id: string): string {
  return SELF_REF_SAFE.test(id) ? id : encoded(id, SELF_REF_SAFE);
}

/**
 * The id as a path segment that decodes to it and to nothing else: `pchar` characters stay (so
 * a segment without `%` reads the same either way), `%` and anything else are percent-encoded.
 * What the SDK writes (generator/runtime/client-rest-runtime.ts keeps its own copy).
 */
export function pathSegment(id: string): string {
  return PATH_SAFE.test(id) ? id : encoded(id, PATH_SAFE);
}

function encoded(id: string, safe: RegExp): string {
  let text = '';
  for (const character of id) {
    if (safe.test(character)) text += character;
    else {
      try {
        text += encodeURIComponent(character);
      } catch {
        // A lone surrogate (JSON can spell one) has no UTF-8: written as U+FFFD, as TextEncoder would.
        text += '%EF%BF%BD';
      }
    }
  }
  return text;
}

/**
 * The ids one raw (undecoded) path segment can name, in order of precedence: the segment as sent,
 * then percent-decoded, when the two differ (only a segment with a `%` has two readings). A
 * segment that cannot be decoded (`%zz`) is read as sent only.
 *
 * Precedence (docs/rest-interface.md, "Ids in paths"): the reading as sent wins when a resource
 * of the collection has ever been stored with that id, else the decoded one is meant. So every
 * `selfRef` and `Location` this service writes, and every address a UNIS client joins, leads back
 * to its own resource whatever else is stored, and a client that percent-encodes ids reaches them
 * too. Only a collection that holds both `x%3Ay` and `x:y` is ambiguous: `/x%3Ay` names the
 * former, `/x%253Ay` too, `/x:y` the latter (the SDK writes that: pathSegment).
 */
export function readingsOf(raw: string): string[] {
  if (!raw.includes('%')) return [raw];
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return [raw];
  }
  return decoded === raw ? [raw] : [raw, decoded];
}

/** The reading (see readingsOf) a segment means: the first one `known` to the collection, else the last. */
export async function chosenReading(readings: readonly string[], known: (id: string) => Promise<boolean>): Promise<string> {
  for (const reading of readings.slice(0, -1)) if (await known(reading)) return reading;
  return readings[readings.length - 1]!;
}
