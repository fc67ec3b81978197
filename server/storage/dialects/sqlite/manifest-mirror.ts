import BetterSqlite3 from 'better-sqlite3';
import { MANIFEST_STAR, MANIFEST_STATE, MANIFEST_TABLE, MAX_FIELD, stateOf } from '../../manifest-sql.js';

/** The SQL function the manifest triggers ask first (manifests.ts): does this document bring a value the sets may lack? */
export const NEWS_FUNCTION = 'topocat_manifest_news';

/** How long a copy that could not be read is left alone. */
const RETRY_MS = 1_000;

/**
 * A field's set as committed: the strings among its values, read back from their JSON texts (so
 * that a string leaf is looked up without being written as JSON again), and the other values'
 * texts.
 */
class FieldSet {
  private readonly strings = new Set<string>();
  private readonly texts = new Set<string>();

  add(text: string): void {
    if (text.startsWith('"')) this.strings.add(JSON.parse(text) as string);
    else this.texts.add(text);
  }

  has(value: string | number | boolean): boolean {
    return typeof value === 'string' ? this.strings.has(value) : this.texts.has(String(value));
  }
}

/** The copy's read-only connection and its statements. */
interface Reads {
  readonly db: BetterSqlite3.Database;
  readonly state: BetterSqlite3.Statement;
  readonly rows: BetterSqlite3.Statement;
}

/** One collection's sets as committed: a field's values, or `*`. */
type Sets = Map<string, FieldSet | typeof MANIFEST_STAR>;

/**
 * True when every leaf under `value`, at dotted `field`, is in `sets` as the trigger would name
 * and write it (dialects/sqlite/manifests.ts: json_tree's leaves, their fullkey through fieldOf,
 * `id` and `ts` left out, a field past MAX_FIELD characters left out); false whenever this
 * cannot tell. Where this walk names or writes a leaf otherwise than the trigger, its name or
 * text is one the trigger never writes, so it is not in `sets` and the document is news: fieldOf
 * drops every `"` and `[n]` of a key that holds them, which stay in the name here; a value longer
 * than MAX_VALUE is written as `*`; a JSON text names one string, however escaped, so a string
 * read back from a set's text is the string the trigger read from the document. A number's
 * text here is JavaScript's shortest that reads back as the same double (the document is in
 * JSON.stringify's form, see news); SQLite writes a number's text by rounding (`%!.15g`, or
 * `2.0` for a real that is whole), and such a text reads back to a double that rounds to the
 * same text. So where this text is in a set, SQLite wrote it for a double with this same text,
 * and writes it for this one too; where SQLite writes another (`1.0e-05`, `1.0e+21`, `2.0`), it
 * is not in the set. Loops over keys and indexes, not Object.entries and every(): the walk runs
 * in every write's statement (profile of a reporting server at 270 POSTs/s, 2026-11-28: 11 µs a
 * write in this function with them).
 */
function known(sets: Sets, field: string, value: unknown): boolean {
  if (value === null) return true;
  if (typeof value === 'object') {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) if (!known(sets, field, value[i])) return false;
      return true;
    }
    const object = value as Record<string, unknown>;
    for (const key in object) if (!known(sets, field + '.' + key, object[key])) return false;
    return true;
  }
  if (field === 'id' || field === 'ts') return true;
  if (field.length > MAX_FIELD && [...field].length > MAX_FIELD) return true;
  const set = sets.get(field);
  if (set === MANIFEST_STAR) return true;
  if (set === undefined) return false;
  return (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') && set.has(value);
}

/**
 * What the manifest triggers' first question reads: the committed value sets of one generation,
 * copied from `manifest_values` through a read-only connection of its own. A document is
 * "news" unless every leaf's value is in its field's set, or the set is `*`; only then does the
 * trigger walk it in SQL (json_tree and two index probes a leaf). Most writes bring nothing new
 * (a set past the limit is `*`), so most writes skip that walk.
 *
 * Why this can only err towards walking: the copy holds rows that are committed, and the rows of
 * a generation are never deleted while it lasts (the upkeep deletes them only when it ends the
 * generation: storage/manifest-upkeep.ts); the generation each trigger was created for is part
 * of its text, and a copy of another generation answers "news"; a leaf this walk cannot name or
 * write as the trigger does is news (see known). The copy catches up, by the rows past the last
 * rowid it read, at the first question after it answered news. The rows that write added may
 * not be committed yet (the group commit runs several writes in one transaction): a later
 * document that brings the same value is then news again, and its catch-up finds them. A rowid
 * rolled back is given again, so it is read then.
 */
export class ManifestMirror {
  private reads: Reads | undefined;
  private generation: string | undefined;
  private readonly kinds = new Map<string, Sets>();
  private lastRowid = 0;
  private stale = true;
  /** After a failed catch-up: when to try again (ms since the epoch). */
  private retryAt = 0;

  constructor(private readonly filename: string) {}

  /** 1 when the document (`doc`, JSON text, of collection `kind`) may bring a value the trigger's generation lacks; else 0. */
  news(generation: unknown, kind: unknown, doc: unknown): 0 | 1 {
    if (typeof generation !== 'string' || typeof kind !== 'string' || typeof doc !== 'string') return 1;
    if (this.stale && Date.now() >= this.retryAt) this.catchUp();
    if (generation !== this.generation) return this.answer(1);
    const sets = this.kinds.get(kind);
    if (!sets) return this.answer(1);
    let parsed: unknown;
    try {
      parsed = JSON.parse(doc);
    } catch {
      return this.answer(1);
    }
    // Only a document in the form JSON.stringify writes (as every write path stores them) is
    // read here: in another form a number's text could differ from the one json_tree reads.
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || JSON.stringify(parsed) !== doc) return this.answer(1);
    const document = parsed as Record<string, unknown>;
    for (const key in document) if (!known(sets, key, document[key])) return this.answer(1);
    return 0;
  }

  private answer(news: 0 | 1): 0 | 1 {
    if (news === 1) this.stale = true;
    return news;
  }

  /** Read the rows committed since the last catch-up, in one read transaction with the state row that names their generation. */
  private catchUp(): void {
    try {
      this.reads ??= this.open();
      const { db, state, rows } = this.reads;
      db.transaction(() => {
        const read = stateOf(state.get(MANIFEST_STATE) as string | undefined);
        const current = read.phase === 'building' || read.phase === 'kept' ? read.generation : undefined;
        if (current !== this.generation) {
          this.generation = current;
          this.kinds.clear();
          this.lastRowid = 0;
        }
        if (current === undefined) return;
        for (const [rowid, kind, field, value] of rows.all(this.lastRowid) as [number, string, string, string][]) {
          const sets = this.kinds.get(kind) ?? this.kinds.set(kind, new Map()).get(kind)!;
          const set = sets.get(field);
          if (value === MANIFEST_STAR) sets.set(field, MANIFEST_STAR);
          else if (set === undefined) {
            const created = new FieldSet();
            created.add(value);
            sets.set(field, created);
          } else if (set !== MANIFEST_STAR) set.add(value);
          this.lastRowid = rowid;
        }
      })();
      this.stale = false;
    } catch {
      // No copy (a database in memory, a file being replaced): every document is news, and
      // the copy is tried again a second later, not on every write.
      this.generation = undefined;
      this.kinds.clear();
      this.lastRowid = 0;
      this.retryAt = Date.now() + RETRY_MS;
    }
  }

  /** The read-only connection and its two statements, prepared once. */
  private open(): Reads {
    const db = new BetterSqlite3(this.filename, { readonly: true, fileMustExist: true });
    return {
      db,
      state: db.prepare('SELECT value FROM topocat_service WHERE name = ?').pluck(),
      rows: db.prepare(`SELECT rowid, kind, field, value FROM ${MANIFEST_TABLE} WHERE rowid > ? ORDER BY rowid`).raw(),
    };
  }

  close(): void {
    this.reads?.db.close();
    this.reads = undefined;
  }
}
