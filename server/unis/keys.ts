/**
 * How UNIS keeps documents in MongoDB, which forbids `.` in keys and `$` at their start
 * (periscope-ps/unis `periscope/models.py`, `_to_mongoiter` and `_from_mongo`): a `.` in a key is
 * stored as `$DOT$`, and a key that starts with `$` gets a backslash before it (`\$schema`).
 * rest-contract §14: the import unescapes as UNIS itself does when it reads, the export escapes as
 * UNIS does when it writes, so `mongoimport` of an export gives UNIS what it would have stored.
 */
import { EJSON } from 'bson';
import { defineMember } from '../wire/representation.js';

/** `$DOT$` as UNIS writes a `.` inside a key. */
const DOT = '$DOT$';

/** A key as UNIS reads it from MongoDB: `$DOT$` → `.`, leading backslashes before a `$` dropped (Python's `lstrip("\\")`). */
export function unescapeKey(key: string): string {
  const dotted = key.includes(DOT) ? key.split(DOT).join('.') : key;
  return dotted.startsWith('\\$') ? dotted.replace(/^\\+/, '') : dotted;
}

/** A key as UNIS writes it to MongoDB: `.` → `$DOT$`, a leading `$` escaped with a backslash. */
export function escapeKey(key: string): string {
  const dotless = key.includes('.') ? key.split('.').join(DOT) : key;
  return dotless.startsWith('$') ? `\\${dotless}` : dotless;
}

/** Changes a string member on the way (its key as written): the same string when nothing changes. */
export type StringRewrite = (key: string, value: string) => string;

/**
 * `value` with every object key at any depth changed by `rename`, and each string member by
 * `rewrite`; arrays and scalars keep their shape. With `wrappers`, an object whose first key
 * starts with `$` is one of Extended JSON's type wrappers (`{"$numberLong": "…"}`, `{"$oid": …}`,
 * `{"$date": …}`: UNIS escapes every stored key that starts with `$`, so no document member can
 * look like one), and becomes its value: mongoexport's text is read with JSON.parse, and only the
 * wrappers pay for EJSON (all of it through EJSON cost 2 µs a point).
 */
function renamed(value: unknown, rename: (key: string) => string, rewrite: StringRewrite | undefined, wrappers: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => renamed(item, rename, rewrite, wrappers));
  if (value === null || typeof value !== 'object') return value;
  // A value MongoDB's types give (ObjectId, Date, Decimal128): its JSON form.
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return JSON.parse(JSON.stringify(value)) as unknown;
  const out: Record<string, unknown> = {};
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (wrappers && key.startsWith('$')) return plain(EJSON.deserialize(value as Record<string, unknown>, { relaxed: true }));
    const member = (value as Record<string, unknown>)[key];
    const name = rename(key);
    defineMember(out, name, typeof member === 'string' ? (rewrite ? rewrite(name, member) : member) : renamed(member, rename, rewrite, wrappers));
  }
  return out;
}

/** A value EJSON made (a number, an ObjectId, a Date, …) in its JSON form. */
function plain(value: unknown): unknown {
  return value !== null && typeof value === 'object' ? (JSON.parse(JSON.stringify(value)) as unknown) : value;
}

/**
 * A stored UNIS document as UNIS answers it: keys unescaped at every depth, Extended JSON's type
 * wrappers read, MongoDB's `_id` dropped; `rewrite`, when given, changes string members in the
 * same walk (the import rebases references there: one copy of the document instead of two).
 */
export function fromMongo(document: Readonly<Record<string, unknown>>, rewrite?: StringRewrite): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in document) {
    if (key === '_id' || !Object.hasOwn(document, key)) continue;
    const member = document[key];
    const name = unescapeKey(key);
    defineMember(out, name, typeof member === 'string' ? (rewrite ? rewrite(name, member) : member) : renamed(member, unescapeKey, rewrite, true));
  }
  return out;
}

/**
 * A document as UNIS would store it in MongoDB (no `_id`: mongoimport makes one, or the caller
 * sets UNIS's); `rewrite`, when given, changes string members in the same walk (the export moves
 * references onto its base there).
 */
export function toMongo(document: Readonly<Record<string, unknown>>, rewrite?: StringRewrite): Record<string, unknown> {
  return renamed(document, escapeKey, rewrite, false) as Record<string, unknown>;
}
