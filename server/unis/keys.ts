/**
 * How UNIS keeps documents in MongoDB, which forbids `.` in keys and `$` at their start
 * (periscope-ps/unis `periscope/models.py`, `_to_mongoiter` and `_from_mongo`): a `.` in a key is
 * stored as `$DOT$`, and a key that starts with `$` gets a backslash before it (`\$schema`).
 * rest-contract §14: the import unescapes as UNIS itself does when it reads, the export escapes as
 * UNIS does when it writes, so `mongoimport` of an export gives UNIS what it would have stored.
 */
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

/** `value` with every object key at any depth changed by `rename`, and each string member by `rewrite`; arrays and scalars keep their shape. */
function renamed(value: unknown, rename: (key: string) => string, rewrite?: StringRewrite): unknown {
  if (Array.isArray(value)) return value.map((item) => renamed(item, rename, rewrite));
  if (value === null || typeof value !== 'object') return value;
  // A value MongoDB's types give (ObjectId, Date, Decimal128): its JSON form.
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return JSON.parse(JSON.stringify(value)) as unknown;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    const name = rename(key);
    defineMember(out, name, typeof member === 'string' ? (rewrite ? rewrite(name, member) : member) : renamed(member, rename, rewrite));
  }
  return out;
}

/**
 * A stored UNIS document as UNIS answers it: keys unescaped at every depth, MongoDB's `_id`
 * dropped; `rewrite`, when given, changes string members in the same walk (the import rebases
 * references there: one copy of the document instead of two).
 */
export function fromMongo(document: Readonly<Record<string, unknown>>, rewrite?: StringRewrite): Record<string, unknown> {
  const out = renamed(document, unescapeKey, rewrite) as Record<string, unknown>;
  delete out._id;
  return out;
}

/** A document as UNIS would store it in MongoDB (no `_id`: mongoimport makes one, or the caller sets UNIS's). */
export function toMongo(document: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return renamed(document, escapeKey) as Record<string, unknown>;
}
