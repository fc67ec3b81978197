import type { Knex } from 'knex';
import type { DialectUses } from '../contract/database.js';
import type { StatementResult } from '../contract/driver.js';
import { classified } from '../errors.js';

/** What the catalog's reads and writes use of the Dialect. */
export type CatalogDialect = DialectUses<{ sql: 'columns'; driver: 'errors' | 'statements' }>;

/** A part of the catalog's reads or writes, working inside one transaction (see CatalogStore). */
export abstract class TransactionPart {
  constructor(
    protected readonly knex: Knex.Transaction,
    protected readonly dialect: CatalogDialect,
  ) {}

  /** A prepared statement on the transaction's connection (Driver.statements), no query builder. */
  protected run(sql: string, bindings: readonly unknown[]): Promise<StatementResult> {
    return this.dialect.driver.statements.run(this.knex, sql, bindings);
  }

  /** `statement`, with a unique violation as ResourceConflict(`conflict`) (see classified). */
  protected unique<T>(statement: () => Promise<T>, conflict: string): Promise<T> {
    return classified(this.dialect.driver.errors, statement, conflict);
  }
}
