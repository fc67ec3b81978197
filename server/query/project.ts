/** Keep only `fields` of a document (dot notation; arrays on the way are mapped element-wise). */
export function project(document: unknown, fields: readonly (readonly string[])[]): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const path of fields) copyPath(document, path, result);
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

/** Own data property even for a key such as `__proto__`: plain assignment would set the prototype. */
function defineMember(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
