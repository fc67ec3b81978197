import type { Knex } from 'knex';
import type { Uses } from '../contract/database.js';
import type { StatementResult, WriteJob } from '../contract/driver.js';
import { POINTS, SERIES } from './tables.js';

/** What the measurement store's parts use of the database. */
export type MeasurementDatabase = Uses<'reader' | 'keys' | 'stream', { sql: 'json' | 'columns'; driver: 'errors' | 'statements' | 'limits'; adapter: 'locking'; features: 'history' | 'points' }>;

/**
 * Where the measurement store's writes go: the resource store's writer, whose commit listeners
 * (the change feed) hear of every committed append, so subscribers of `data/<mid>` do. Only its
 * `write` is used.
 */
export interface CommittedWrites {
  write<T>(job: WriteJob<T>): Promise<T>;
}

/** The statements the parts run by key, written once per store for its dialect. */
export interface MeasurementSql {
  readonly series: string;
  readonly insertSeries: string;
  readonly updateSeries: string;
  readonly count: string;
  readonly expired: string;
  readonly oldestBeyond: string;
  readonly newest: string;
  readonly newestOldestFirst: string;
}

export function measurementSql(db: MeasurementDatabase): MeasurementSql {
  const { documentArray } = db.dialect.sql.columns;
  return {
    series: `SELECT mid, metadata_url, collection_size, ttl, datum_schema, points, ts FROM ${SERIES} WHERE mid = ?`,
    insertSeries: `INSERT INTO ${SERIES} (metadata_url, collection_size, ttl, datum_schema, points, ts, mid) VALUES (?, ?, ?, ?, 0, ?, ?)`,
    updateSeries: `UPDATE ${SERIES} SET metadata_url = ?, collection_size = ?, ttl = ?, datum_schema = ?, points = ? WHERE mid = ?`,
    count: `UPDATE ${SERIES} SET points = ? WHERE mid = ?`,
    expired: `DELETE FROM ${POINTS} WHERE mid = ? AND ts < ?`,
    newest: `SELECT ${documentArray('doc', 'ts DESC')} AS body FROM (SELECT ts, doc FROM ${POINTS} WHERE mid = ? AND ts >= ? ORDER BY ts DESC LIMIT ?) AS page`,
    newestOldestFirst: `SELECT ${documentArray('doc', 'ts')} AS body FROM (SELECT ts, doc FROM ${POINTS} WHERE mid = ? AND ts >= ? ORDER BY ts DESC LIMIT ?) AS page`,
    // The `ts` of the n-th oldest point (0-based): everything up to it goes.
    oldestBeyond: `DELETE FROM ${POINTS} WHERE mid = ? AND ts <= (SELECT ts FROM ${POINTS} WHERE mid = ? ORDER BY ts LIMIT 1 OFFSET ?)`,
  };
}

/** Run one statement of the store in a write transaction. */
export function run(db: MeasurementDatabase, trx: Knex.Transaction, sql: string, bindings: readonly unknown[]): Promise<StatementResult> {
  return db.dialect.driver.statements.run(trx, sql, bindings);
}
