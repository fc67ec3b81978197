import type { PointSql } from '../../contract/features.js';
import { POINTS } from '../../measurements/tables.js';

/**
 * json_each walks the array inside SQLite: one prepared statement for any batch, no bindings per
 * point. `WHERE true` is SQLite's way to tell the SELECT's end from the upsert clause.
 */
export const sqlitePoints: PointSql = {
  insertFromJson: `INSERT INTO ${POINTS} (mid, event, ts, doc) SELECT ?, ?, json_extract(value, '$.ts'), value FROM json_each(?) WHERE true ON CONFLICT DO NOTHING`,
};
