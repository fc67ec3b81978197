/** The parts of a `pg` client that a prepared statement uses. */
export interface PgQueryable {
  query(config: { name: string; text: string; values: readonly unknown[] }): Promise<{ rows: unknown[]; rowCount: number | null }>;
}

const statements = new Map<string, { name: string; text: string }>();

/**
 * A named statement for SQL written with `?` placeholders (the stores' form): `pg` prepares each
 * name once per session and afterwards sends only the values. One name per distinct text, shared
 * by every connection of the process. The SQL must not use `?` for anything else (jsonb's `?`
 * operators are written as functions: `jsonb_exists`).
 */
export function preparedStatement(sql: string): { name: string; text: string } {
  let statement = statements.get(sql);
  if (!statement) {
    let n = 0;
    statement = { name: `topocat_${statements.size}`, text: sql.replace(/\?/g, () => `$${++n}`) };
    statements.set(sql, statement);
  }
  return statement;
}
