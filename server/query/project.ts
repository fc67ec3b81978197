import type { Projection } from './syntax.js';

/**
 * `document` as `fields` asks: only its paths (`fields=a,b.c`), or every member but them
 * (`fields=neg=a,b.c`, UNIS HEAD's MongoDB exclusion). Dot notation; lists on the way are mapped
 * element-wise, as MongoDB projects them. The document itself is never changed.
 */
export function project(document: unknown, fields: Projection): Record<string, unknown> {
  if (fields.except) return fields.paths.reduce<unknown>((kept, path) => omitPath(kept, path), document) as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  for (const path of fields.paths) copyPath(document, path, result);
  return result;
}

function copyPath(source: unknown, path: readonly string[], target: Record<string, unknown>): void {
  if (source === null || typeof source !== 'object' || Array.isArray(source)) return;
  const [head, ...rest] = path as [string, ...string[]];
  if (!Object.prototype.hasOwnProperty.call(source, head)) return;
  const value = (source as Record<string, unknown>)[head];
  if (rest.length === 0) {
    defineMember(target, head, value);
  } else if (Array.isArray(value)) {
    const existing = target[head];
    const list = Array.isArray(existing) ? existing : value.map(() => ({}));
    value.forEach((element, i) => copyPath(element, rest, list[i] as Record<string, unknown>));
    defineMember(target, head, list);
  } else if (value !== null && typeof value === 'object') {
    const existing = target[head];
    const child = existing !== null && typeof existing === 'object' && !Array.isArray(existing) ? (existing as Record<string, unknown>) : {};
    copyPath(value, rest, child);
    if (Object.keys(child).length > 0) defineMember(target, head, child);
  }
}

/** `source` without the member at `path`: a copy along the path, the rest shared. */
function omitPath(source: unknown, path: readonly string[]): unknown {
  if (Array.isArray(source)) return source.map((element) => omitPath(element, path));
  if (source === null || typeof source !== 'object') return source;
  const [head, ...rest] = path as [string, ...string[]];
  if (!Object.prototype.hasOwnProperty.call(source, head)) return source;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (key !== head) defineMember(copy, key, value);
    else if (rest.length > 0) defineMember(copy, key, omitPath(value, rest));
  }
  return copy;
}

/** Own data property even for a key such as `__proto__`: plain assignment would set the prototype. */
function defineMember(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
