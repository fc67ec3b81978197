/** A problem in the generator's input, located by file and JSON pointer so it can be fixed. */
export class GeneratorError extends Error {
  constructor(
    readonly file: string,
    readonly pointer: string,
    readonly detail: string,
  ) {
    super(`${file}${pointer === '' ? '' : `#${pointer}`}: ${detail}`);
    this.name = 'GeneratorError';
  }
}

/** RFC 6901: escape one reference token. */
export function pointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function pointerJoin(base: string, ...tokens: (string | number)[]): string {
  return base + tokens.map((t) => `/${pointerToken(t)}`).join('');
}

/** Resolve a JSON pointer inside a value; undefined when any step is missing. */
export function resolvePointer(value: unknown, pointer: string): unknown {
  if (pointer === '') return value;
  let current = value;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (current === null || typeof current !== 'object') return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, token)) return undefined;
    current = (current as Record<string, unknown>)[token];
  }
  return current;
}

/** The pointer of the first object (in document order) that has a member named `key`. */
export function findKey(value: unknown, key: string, at = ''): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  if (!Array.isArray(value) && Object.prototype.hasOwnProperty.call(value, key)) return pointerJoin(at, key);
  for (const [name, child] of Object.entries(value)) {
    const found = findKey(child, key, pointerJoin(at, name));
    if (found !== undefined) return found;
  }
  return undefined;
}
