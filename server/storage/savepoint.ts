import type { Knex } from 'knex';
import type { WriteStatements } from './contract/driver.js';

/**
 * `work` inside a savepoint of the transaction `trx`, with plain prepared statements (a knex
 * nested transaction costs more than a small job): released when `work` returns, rolled back and
 * released when it throws, and the error passed on; the transaction goes on either way. Each
 * job of a group commit is one, and each item of a catalog request.
 */
export async function inSavepoint<T>(statements: WriteStatements, trx: Knex.Transaction, name: string, work: () => Promise<T>): Promise<T> {
  await statements.run(trx, `SAVEPOINT ${name}`, []);
  try {
    const value = await work();
    await statements.run(trx, `RELEASE SAVEPOINT ${name}`, []);
    return value;
  } catch (error) {
    await statements.run(trx, `ROLLBACK TO SAVEPOINT ${name}`, []);
    await statements.run(trx, `RELEASE SAVEPOINT ${name}`, []);
    throw error;
  }
}
