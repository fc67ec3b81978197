import type { PointSql } from '../../contract/features.js';
import { POINTS } from '../../measurements/tables.js';

/** One set-based INSERT … SELECT over jsonb_array_elements: a round trip per batch, not per point. */
export const postgresPoints: PointSql = {
  insertFromJson: `INSERT INTO ${POINTS} (mid, event, ts, doc) SELECT ?, ?, (p->>'ts')::float8, p FROM jsonb_array_elements(?::jsonb) AS p ON CONFLICT DO NOTHING`,
};
