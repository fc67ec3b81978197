import type { Adapter } from './adapter.js';
import type { Driver } from './driver.js';
import type { Features } from './features.js';
import type { SqlText } from './sql.js';

/**
 * Everything that differs between SQLite and PostgreSQL, grouped by mechanism as Kysely groups its
 * dialects (one contract file each): the SQL text an engine writes (`sql`: json, columns, ddl),
 * its driver (`driver`: connections and pools, key reads, write statements, errors, limits), what
 * it does beside SQL (`adapter`: locking, maintenance, announcements, backup) and how it stores
 * the project's own features (`features`: history, time, manifests, points). Each part is one
 * concern with a few members; each engine implements them in a folder of its own
 * (`dialects/sqlite/`, `dialects/postgres/`, one file per part). The stores and the query
 * compilers build SQL only through these parts, so no engine-specific SQL lives elsewhere, and
 * each store's parameter names the parts it uses (contract/database.ts, `Uses`).
 *
 * Field paths reach the SQL builders only as segments that the query parser has restricted to
 * `[A-Za-z0-9_$@:-]`, which is why they can be written into SQL as literals; values are always
 * bound parameters.
 */
export interface Dialect {
  readonly sql: SqlText;
  readonly driver: Driver;
  readonly adapter: Adapter;
  readonly features: Features;
}
