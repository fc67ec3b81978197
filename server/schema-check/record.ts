import type { Logger } from '../log.js';
import type { ServiceFacts } from '../storage/service-facts.js';
import type { ScanSummary } from './scan.js';

/** The row of topocat_service (storage/service-facts.ts) that holds the last check. */
const FACT = 'schema_check';

/** The last complete check of the stored data: against which schemas, when, and what it found. */
export interface CheckRecord extends ScanSummary {
  readonly fingerprint: string;
  /** When it finished (ISO 8601). */
  readonly at: string;
}

export async function lastCheck(facts: ServiceFacts): Promise<CheckRecord | undefined> {
  const text = await facts.fact(FACT);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as CheckRecord;
  } catch {
    return undefined;
  }
}

export async function recordCheck(facts: ServiceFacts, fingerprint: string, summary: ScanSummary): Promise<CheckRecord> {
  const record: CheckRecord = { fingerprint, ...summary, at: new Date().toISOString() };
  await facts.setFact(FACT, JSON.stringify(record));
  return record;
}

/** How many resources a check found that the schemas no longer accept. */
export function misfits(record: ScanSummary): number {
  return record.invalid + record.removed;
}

/** The start's one line about the stored data: a warning while anything does not fit. */
export function reportCheck(record: CheckRecord, scanned: boolean, logger: Logger): void {
  const count = misfits(record);
  const fields = { invalid: record.invalid, removedKind: record.removed, removedKinds: record.removedKinds, checked: record.checked, checkedAt: record.at };
  if (count === 0) {
    if (scanned) logger.info(fields, `stored data checked against the generated schemas: all ${record.checked} resources fit`);
    return;
  }
  const parts = [
    ...(record.invalid > 0 ? [`${record.invalid} fail${record.invalid === 1 ? 's' : ''} validation`] : []),
    ...(record.removed > 0 ? [`${record.removed} belong${record.removed === 1 ? 's' : ''} to a removed kind (${record.removedKinds.join(', ')})`] : []),
  ];
  logger.warn(fields, `${count} stored resource${count === 1 ? '' : 's'} no longer fit${count === 1 ? 's' : ''} the generated schemas: ${parts.join(', ')}; nothing was deleted. npm run check-data lists them`);
}
