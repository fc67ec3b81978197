import type BetterSqlite3 from 'better-sqlite3';
import { RE2JS } from 're2js';
import { ManifestMirror, NEWS_FUNCTION } from './manifest-mirror.js';
import { FIELD_FUNCTION, fieldOf } from './manifests.js';

/** The SQL function `reg=` runs on SQLite: `topocat_regexp(pattern, text)`. */
export const REGEXP_FUNCTION = 'topocat_regexp';

/** Each connection's copy of the manifests' sets, which holds a read-only connection of its own once asked. */
const mirrors = new WeakMap<BetterSqlite3.Database, ManifestMirror>();

/** Close what registerFunctions opened for `database` (before the connection itself closes). */
export function releaseFunctions(database: BetterSqlite3.Database): void {
  mirrors.get(database)?.close();
  mirrors.delete(database);
}

/** Compiled patterns kept per connection; a query uses one or two, so a few suffice. */
const KEPT = 32;

/**
 * Register the functions the query compiler writes (dialects/sqlite/sql.ts) on a connection:
 * every connection that runs queries (the writer's, each reader thread's) calls this once.
 * `topocat_regexp` is RE2 (re2js), matching without regard to case: the automaton runs in time
 * linear in the text whatever the pattern, and the matcher of events (query/match.ts) runs the
 * same engine, so both answer alike. Patterns arrive checked (query/regex.ts).
 */
export function registerFunctions(database: BetterSqlite3.Database): void {
  // The manifest trigger's (manifests.ts): every connection that may write resource_current.
  database.function(FIELD_FUNCTION, { deterministic: true }, fieldOf);
  // Not deterministic: the answer follows the committed sets (manifest-mirror.ts).
  const mirror = new ManifestMirror(database.name);
  mirrors.set(database, mirror);
  database.function(NEWS_FUNCTION, (generation: unknown, kind: unknown, doc: unknown) => mirror.news(generation, kind, doc));
  const compiled = new Map<string, RE2JS>();
  database.function(REGEXP_FUNCTION, { deterministic: true }, (pattern: unknown, text: unknown) => {
    if (typeof pattern !== 'string' || typeof text !== 'string') return 0;
    let expression = compiled.get(pattern);
    if (!expression) {
      if (compiled.size >= KEPT) compiled.delete(compiled.keys().next().value!);
      expression = RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
      compiled.set(pattern, expression);
    }
    return expression.test(text) ? 1 : 0;
  });
}
