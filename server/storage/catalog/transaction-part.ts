import type { Knex } from 'knex';
import type { Dialect } from '../contract/dialect.js';
import type { StatementResult } from '../contract/driver.js';
import { classified } from '../errors.js';

/** A part of the catalog's reads or writes, working inside one transaction (see CatalogStore). */
export abstract class TransactionPart {
  constructor(
    protected readonly knex: Knex.Transaction,
    protected readonly dialect: Dialect,
  ) {}

  /** A prepared statement on the transaction's connection (Dialect.statements), no query builder. */
  protected run(sql: string, bindings: readonly unknown[]): Promise<StatementResult> {
    return this.dialect.statements.run(this.knex, sql, bindings);
  }

  /** `statement`, with a unique violation as ResourceConflict(`conflict`) (see classified). */
  protected unique<T>(statement: () => Promise<T>, conflict: string): Promise<T> {
    return classified(this.dialect.errors, statement, conflict);
  }
}
