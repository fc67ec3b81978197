import type { Knex } from 'knex';
import type { Uses } from '../contract/database.js';
import type { Row } from '../contract/rows.js';

export const HISTORY = 'resource_history';
export const CURRENT = 'resource_current';

/** A current row (or a version) as a key read or a write job reads it. */
export interface CurrentRow {
  ts: number | string;
  doc: string;
}

/** The key reads every GET makes, and the writes' own lookups, as plain SQL with `?` placeholders. */
export interface KeySql {
  readonly current: string;
  readonly version: string;
  readonly known: string;
  readonly liveVersion: string;
  readonly anyVersion: string;
  readonly at: string;
  readonly knownAt: string;
}

/** The document as text, in the database's own form of it (ColumnSql.documentText). */
export function docColumn(db: Uses<never, { sql: 'columns' }>, knex: Knex): Knex.Raw | string {
  return db.dialect.sql.columns.documentText(knex, 'doc');
}

/** The key statements, for the key reader (the dialects' key-reader.ts) and for write jobs. */
export function keySql(db: Uses<'reader', { sql: 'columns' }>): KeySql {
  const doc = docColumn(db, db.reader).toString();
  return {
    current: `SELECT ts, ${doc} FROM ${CURRENT} WHERE kind = ? AND id = ?`,
    version: `SELECT ts, ${doc} FROM ${HISTORY} WHERE kind = ? AND id = ? AND ts = ? AND NOT deleted`,
    known: `SELECT 1 FROM ${HISTORY} WHERE kind = ? AND id = ? LIMIT 1`,
    liveVersion: `SELECT ts FROM ${HISTORY} WHERE kind = ? AND id = ? AND ts = ? AND NOT deleted LIMIT 1`,
    anyVersion: `SELECT ts FROM ${HISTORY} WHERE kind = ? AND id = ? AND ts = ? LIMIT 1`,
    // One lookup in the primary key (kind, id, ts): the newest version up to the instant.
    at: `SELECT ts, ${doc} FROM (SELECT ts, doc, deleted FROM ${HISTORY} WHERE kind = ? AND id = ? AND ts <= ? ORDER BY ts DESC LIMIT 1) n WHERE NOT deleted`,
    knownAt: `SELECT 1 FROM ${HISTORY} WHERE kind = ? AND id = ? AND ts <= ? LIMIT 1`,
  };
}

/** The statements of a write job, with `?` placeholders (see WriteStatements). */
export interface JobSql {
  rows(sql: string, bindings: readonly unknown[]): Promise<readonly Row[]>;
  run(sql: string, bindings: readonly unknown[]): Promise<void>;
}

/** A job's plain SQL: the dialect's prepared write statements (SQLite: no query builder). */
export function jobSql(db: Uses<never, { driver: 'statements' }>, trx: Knex.Transaction): JobSql {
  const statements = db.dialect.driver.statements;
  return {
    rows: async (sql, bindings) => (await statements.run(trx, sql, bindings)).rows,
    run: async (sql, bindings) => {
      await statements.run(trx, sql, bindings);
    },
  };
}
