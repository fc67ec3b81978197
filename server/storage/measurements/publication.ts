import type { ChangeEvent } from '../contract/events.js';
import { chunks } from '../contract/rows.js';
import { classified } from '../errors.js';
import type { MeasurementDatabase } from './statements.js';
import { POINTS } from './tables.js';

/** Events per statement: each is a range of the key, ORed (see published()). */
const EVENTS_PER_READ = 50;

/**
 * What the change feed publishes of appends: the points each event of an append stored and
 * that are still there, as JSON texts in `ts` order (an event whose points the cap or ttl
 * removed since has none). Each event's points are a range of the key: its series, from its
 * `ts` on (see tables.ts).
 */
export class PointPublication {
  constructor(private readonly db: MeasurementDatabase) {}

  async published(events: readonly ChangeEvent[]): Promise<Map<number, string[]>> {
    const found = new Map<number, string[]>();
    return classified(this.db.dialect.driver.errors, async () => {
      const knex = this.db.reader;
      for (const part of chunks(events, EVENTS_PER_READ)) {
        const rows = (await knex(POINTS)
          .select('event', this.db.dialect.sql.columns.documentText(knex, 'doc'))
          .where((where) => {
            for (const event of part) where.orWhere((one) => one.where('mid', event.id).where('ts', '>=', event.ts).where('event', event.event));
          })
          .orderBy(['event', 'ts'])) as { event: number | string; doc: string }[];
        for (const row of rows) {
          const event = Number(row.event);
          (found.get(event) ?? found.set(event, []).get(event)!).push(row.doc);
        }
      }
      return found;
    });
  }
}
