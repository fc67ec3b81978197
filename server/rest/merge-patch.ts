import { defineMember } from '../wire/representation.js';

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * JSON Merge Patch (RFC 7386). A dozen lines, written here rather than taken from a package
 * because members are defined as own properties: the usual `target[key] = value` lets a patch
 * with a `__proto__` member replace an object's prototype.
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const result: Record<string, unknown> = {};
  if (isObject(target)) for (const [key, value] of Object.entries(target)) defineMember(result, key, value);
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) {
      delete result[key];
    } else {
      const previous = Object.prototype.hasOwnProperty.call(result, key) ? result[key] : undefined;
      defineMember(result, key, applyMergePatch(previous, value));
    }
  }
  return result;
}
