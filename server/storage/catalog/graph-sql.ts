import { OBJECT_COLUMNS } from './records.js';
import { CLOSURE, OBJECTS } from './tables.js';

/**
 * The graph's statements on a write's connection, as plain SQL with `?` placeholders
 * (Dialect.statements). The closure table holds, per (ancestor, descendant, depth), how many
 * paths there are: a link adds the paths through it, an unlink takes them away again.
 */

/** An object by its objectId, on a write's connection. */
export const OBJECT_BY_GUID = `SELECT ${OBJECT_COLUMNS.join(', ')} FROM ${OBJECTS} o LEFT JOIN ${OBJECTS} parent ON parent.id = o.parent_id WHERE o.guid = ? LIMIT 1`;
export const INSERT_OBJECT = `INSERT INTO ${OBJECTS} (guid, class, parent_id, owner_dn, created_ms, modified_ms) VALUES (?, ?, ?, ?, ?, ?) RETURNING id`;
export const INSERT_SELF_PATH = `INSERT INTO ${CLOSURE} (ancestor_id, descendant_id, depth, paths) VALUES (?, ?, 0, 1)`;
/** A new object has no descendants: each path to its parent, one link longer, is a path to it. */
export const INSERT_PATHS_FROM_PARENT = `INSERT INTO ${CLOSURE} (ancestor_id, descendant_id, depth, paths) SELECT ancestor_id, CAST(? AS INTEGER), depth + 1, paths FROM ${CLOSURE} WHERE descendant_id = ?`;
/**
 * The paths a link (parent → child) adds: every path into the parent, the link, every path out
 * of the child, counted per (ancestor, descendant, length). Bound: parent, child.
 */
const PATHS_THROUGH_LINK =
  `SELECT a.ancestor_id AS ancestor_id, d.descendant_id AS descendant_id, a.depth + d.depth + 1 AS depth, SUM(a.paths * d.paths) AS paths ` +
  `FROM ${CLOSURE} a CROSS JOIN ${CLOSURE} d WHERE a.descendant_id = ? AND d.ancestor_id = ? GROUP BY a.ancestor_id, d.descendant_id, a.depth + d.depth + 1`;
export const ADD_LINK =
  `INSERT INTO ${CLOSURE} (ancestor_id, descendant_id, depth, paths) SELECT ancestor_id, descendant_id, depth, paths FROM (${PATHS_THROUGH_LINK}) x WHERE true ` +
  `ON CONFLICT (ancestor_id, descendant_id, depth) DO UPDATE SET paths = ${CLOSURE}.paths + excluded.paths`;
export const REMOVE_LINK_PATHS =
  `UPDATE ${CLOSURE} SET paths = ${CLOSURE}.paths - x.paths FROM (${PATHS_THROUGH_LINK}) x ` +
  `WHERE ${CLOSURE}.ancestor_id = x.ancestor_id AND ${CLOSURE}.descendant_id = x.descendant_id AND ${CLOSURE}.depth = x.depth`;
/** After REMOVE_LINK_PATHS: the rows left without a path, all of them ending in the child's subtree. Bound: child. */
export const DROP_EMPTY_PATHS = `DELETE FROM ${CLOSURE} WHERE paths = 0 AND descendant_id IN (SELECT descendant_id FROM ${CLOSURE} WHERE ancestor_id = ?)`;
/** The child's first parent again, when it was the unlinked one: the lowest id left, or none. Bound: child, child, parent. */
export const REPOINT_FIRST_PARENT = `UPDATE ${OBJECTS} SET parent_id = (SELECT MIN(ancestor_id) FROM ${CLOSURE} WHERE descendant_id = ? AND depth = 1) WHERE id = ? AND parent_id = ?`;
/** Objects below the root (not itself) with a parent outside its subtree. Bound: root three times. */
export const SHARED_WITH_OUTSIDE =
  `SELECT DISTINCT l.descendant_id AS id FROM ${CLOSURE} l WHERE l.depth = 1 AND l.descendant_id <> ? ` +
  `AND l.descendant_id IN (SELECT descendant_id FROM ${CLOSURE} WHERE ancestor_id = ?) AND l.ancestor_id NOT IN (SELECT descendant_id FROM ${CLOSURE} WHERE ancestor_id = ?)`;
