/** The parts of a `pg` client that a prepared statement uses. */
export interface PgQueryable {
  query(config: { name?: string; text: string; values: readonly unknown[] }): Promise<{ rows: unknown[]; rowCount: number | null }>;
}

const statements = new Map<string, { name: string; text: string }>();
const texts = new Map<string, string>();

/** SQL written with `?` placeholders (the stores' form) in PostgreSQL's (`$1`…), converted once per text. */
export function numbered(sql: string): string {
  let text = texts.get(sql);
  if (text === undefined) {
    let n = 0;
    text = sql.replace(/\?/g, () => `$${++n}`);
    if (texts.size >= 1_000) texts.clear();
    texts.set(sql, text);
  }
  return text;
}

/**
 * A named statement: `pg` prepares each name once per session and afterwards sends only the
 * values, and after five runs PostgreSQL may keep one generic plan for it. Only for statements
 * whose best plan does not depend on their values (a lookup by key, the one-parameter write of
 * versions): with an IN list over a table without statistics yet, the generic plan PostgreSQL
 * chose scanned every row of the kind (5 ms → 120 ms at 20,000 nodes), so other statements are
 * sent unnamed and planned with their values each time. One name per distinct text, shared by
 * every connection of the process. The SQL must not use `?` for anything but placeholders.
 */
export function preparedStatement(sql: string): { name: string; text: string } {
  let statement = statements.get(sql);
  if (!statement) {
    statement = { name: `topocat_${statements.size}`, text: numbered(sql) };
    statements.set(sql, statement);
  }
  return statement;
}
