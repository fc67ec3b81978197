import type { Knex } from 'knex';
import type { Uses } from './contract/database.js';
import type { WriteStatements } from './contract/driver.js';
import { SERVICE } from './service-facts.js';

/** What watchOutsideWrites uses of the database: its key reader alone. */
export type OutsideWritesDatabase = Uses<'keys', never>;

/** The fact (a row of topocat_service) that counts the write jobs of processes that serve nothing. */
const NAME = 'outside_writes';
/** How often a server looks at it. */
const WATCH_MS = 1_000;

/**
 * Writes by a process that is not a server of the database (`npm run import`), counted in the
 * database, so that a server whose read cache assumes it is the file's only writer (SQLite, one
 * process: CurrentCache) learns of them: it looks once a second and, when the count moved, drops
 * what it keeps. The change feed's own poll delivers the events of those writes to subscribers
 * in the same second. Such a process marks each of its write jobs, in the job's transaction.
 */
export async function markOutsideWrite(statements: WriteStatements, trx: Knex.Transaction): Promise<void> {
  await statements.run(
    trx,
    `INSERT INTO ${SERVICE} (name, value) VALUES (?, '1') ON CONFLICT (name) DO UPDATE SET value = CAST(CAST(${SERVICE}.value AS BIGINT) + 1 AS TEXT)`,
    [NAME],
  );
}

/** Call `moved` whenever the count of outside writes moves, until the returned function is called. */
export function watchOutsideWrites(db: OutsideWritesDatabase, moved: () => void): () => void {
  let seen: string | undefined;
  let started = false;
  const look = async (): Promise<void> => {
    try {
      const row = (await db.keys.one(`SELECT value FROM ${SERVICE} WHERE name = ?`, [NAME])) as { value: string } | undefined;
      const value = row?.value ?? '0';
      if (started && value !== seen) moved();
      seen = value;
      started = true;
    } catch {
      // An unreachable database: the requests meet it and report it.
    }
  };
  void look();
  const timer = setInterval(() => void look(), WATCH_MS);
  timer.unref();
  return () => clearInterval(timer);
}
