import { createHash } from 'node:crypto';
import type { Uses } from './contract/database.js';

/** What syncFieldIndexes uses of the database. */
export type IndexesDatabase = Uses<'writer', { sql: 'ddl'; adapter: 'locking' | 'maintenance' }>;

/**
 * Expression indexes for the fields the schemas mark `x-index`, on the table that lists and
 * queries read. They follow the schemas: a new marked field gets an index at the next start,
 * and an index whose field is no longer marked is dropped.
 */
export async function syncFieldIndexes(db: IndexesDatabase, table: string, fields: readonly string[]): Promise<void> {
  const ddl = db.dialect.sql.ddl;
  const wanted = new Map([...new Set(fields)].map((field) => [indexName(table, field, ddl.createExpressionIndex('?', table, 'doc', field.split('.'), LIST_ORDER)), field]));
  // Processes starting together would otherwise both create (or drop) the same index.
  await db.dialect.adapter.locking.exclusive('indexes', async () => {
    const existing = await db.dialect.adapter.maintenance.listExpressionIndexes(db.writer);
    for (const name of existing) {
      if (name.startsWith(`xidx_${table}_`) && !wanted.has(name)) await db.writer.raw(db.dialect.sql.ddl.dropIndex(name));
    }
    for (const [name, field] of wanted) {
      if (!existing.includes(name)) await db.writer.raw(db.dialect.sql.ddl.createExpressionIndex(name, table, 'doc', field.split('.'), LIST_ORDER));
    }
    await db.dialect.adapter.maintenance.describeLookupIndexes(db.writer, table, [...wanted.keys()]);
  });
}

/**
 * After the field, the order of a list: for an equality the index yields the matching rows
 * already in list order, so `limit=` stops reading early and nothing is sorted.
 */
const LIST_ORDER = ['ts', 'id'];

/**
 * A readable, stable name within every dialect's identifier limit. The hash covers the index's
 * definition (`shape`: its DDL with a placeholder name), so an index of an older shape is dropped
 * and rebuilt at the next start.
 */
function indexName(table: string, field: string, shape: string): string {
  const readable = field.replace(/[^A-Za-z0-9]+/g, '_').toLowerCase().slice(0, 24);
  const hash = createHash('sha256').update(shape).digest('hex').slice(0, 8);
  return `xidx_${table}_${readable}_${hash}`;
}
