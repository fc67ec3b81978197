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
