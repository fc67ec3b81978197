import type { SqlFragment } from '../../contract/sql.js';
import type { TimeSql } from '../../contract/features.js';
import { changesBetween } from '../../time-sql.js';

/**
 * PostgreSQL: the newest `ts ≤ at` of every resource by an index-only scan of the primary key,
 * then each version's document by key in a LATERAL subquery (OFFSET 0 keeps the planner from
 * flattening it): as a plain join it chose a merge join over every history row of the kind,
 * 1.7 s instead of 1.1 s for 100,000 nodes of 10 versions each (EXPLAIN ANALYZE, scratch schema).
 */
export const postgresTime: TimeSql = {
  stateAt(kind: string, at: number): SqlFragment {
    return {
      sql: `SELECT v.id AS id, v.ts AS ts, h.doc AS doc FROM (SELECT id, max(ts) AS ts FROM resource_history WHERE kind = ? AND ts <= ? GROUP BY id) v CROSS JOIN LATERAL (SELECT doc FROM resource_history h WHERE h.kind = ? AND h.id = v.id AND h.ts = v.ts AND NOT h.deleted OFFSET 0) h`,
      bindings: [kind, at, kind],
    };
  },
  changes: changesBetween,
};
