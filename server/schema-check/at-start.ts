import type { KindDescriptor } from '../../generated/rest/handler.js';
import type { Logger } from '../log.js';
import { openDatabase } from '../storage/database.js';
import type { Database } from '../storage/contract/database.js';
import { ServiceFacts } from '../storage/service-facts.js';
import { schemaFingerprint } from './fingerprint.js';
import { lastCheck, recordCheck, reportCheck } from './record.js';
import { scanStoredData } from './scan.js';

/**
 * The start's check of the stored data against the generated schemas, run once the server
 * answers (it never delays a request). A start whose schemas are those of the last check reads
 * one row and repeats that check's warning, if it had one. After a generate that changed them,
 * one process scans every live resource (processes starting together on one PostgreSQL database
 * take turns, and those after the first find the check done), records the result, and says it.
 * `signal` ends a scan early (the server stops); nothing is recorded then.
 */
export async function checkStoredData(db: Database, kinds: readonly KindDescriptor[], logger: Logger, signal: AbortSignal): Promise<void> {
  const facts = new ServiceFacts(db);
  const fingerprint = schemaFingerprint(kinds);
  const outcome = await db.dialect.adapter.locking.exclusive('schema-check', async () => {
    const last = await lastCheck(facts);
    if (last?.fingerprint === fingerprint) return { record: last, scanned: false };
    const why = last ? 'the generated schemas changed since the stored data was last checked: checking it' : 'no check of the stored data is on record: checking it against the generated schemas';
    logger.info({ previous: last?.fingerprint ?? null, fingerprint }, why);
    const summary = await scanStoredData(db, kinds, () => undefined, signal);
    if (!summary) return undefined;
    return { record: await recordCheck(facts, fingerprint, summary), scanned: true };
  });
  if (outcome && !signal.aborted) reportCheck(outcome.record, outcome.scanned, logger);
}

/** Start the check without waiting for it; the returned function ends it (on stop). */
export function startStoredDataCheck(db: Database, kinds: readonly KindDescriptor[], logger: Logger): () => void {
  return inBackground(logger, (signal) => checkStoredData(db, kinds, logger, signal));
}

/**
 * The same for a cluster primary, which keeps no database open: a connection of the check's own,
 * closed when it is done. Its workers have migrated and serve meanwhile.
 */
export function startOwnStoredDataCheck(url: string, kinds: readonly KindDescriptor[], logger: Logger): () => void {
  return inBackground(logger, async (signal) => {
    const db = await openDatabase({ url, poolMax: 2, logger, migrations: 'verify' });
    try {
      await checkStoredData(db, kinds, logger, signal);
    } finally {
      await db.close();
    }
  });
}

function inBackground(logger: Logger, check: (signal: AbortSignal) => Promise<void>): () => void {
  const controller = new AbortController();
  check(controller.signal).catch((error: unknown) => {
    if (controller.signal.aborted) logger.debug({ err: error }, 'the check of the stored data ended with the server');
    else logger.error({ err: error }, 'the check of the stored data against the generated schemas failed; npm run check-data runs it by hand');
  });
  return () => controller.abort();
}
