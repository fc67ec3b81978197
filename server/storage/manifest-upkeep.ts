import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from '../log.js';
import { currentDocuments } from './current-documents.js';
import type { Uses } from './contract/database.js';
import { classified } from './errors.js';
import { MANIFEST_STATE, MANIFEST_TABLE, MANIFEST_UNSUMMARISED, stateOf, type State } from './manifest-sql.js';
import { Pacer } from './pace.js';
import { SERVICE } from './service-facts.js';

/** What the manifests' upkeep uses of the database (and currentDocuments). */
export type ManifestUpkeepDatabase = Uses<'reader' | 'write', { sql: 'columns'; driver: 'errors'; adapter: 'locking'; features: 'manifests' }>;

/**
 * Each reporting process's row of `topocat_service` (`manifests_reporter <uuid>`): until when
 * (ms since the epoch) it keeps reporting, renewed with each report for the registration's ttl
 * and deleted when it stops. A database keeps manifests while any of these is unexpired.
 */
const REPORTER = 'manifests_reporter ';
/** Documents read from `resource_current` at a time by the scan (see currentDocuments). */
const READ_BATCH = 500;
/**
 * Documents a write of the scan adds at a time. A document's values cost 30–150 µs on SQLite
 * (the triggers' statement, run by the main thread): 16 keep a write near the Pacer's 2 ms slice.
 */
const ADD_BATCH = 16;
/** Times `keep` starts over when the manifests are turned off and on again under it. */
const ATTEMPTS = 3;

/** True when `value` of the state row says the manifests are complete and kept. */
export function keptState(value: string | undefined): boolean {
  return stateOf(value).phase === 'kept';
}

/**
 * Whether this database keeps manifests (rest-contract §13, revised 2026-11-28): only while some
 * process of it reports upstream. A database is shared by every process on it (a cluster's
 * workers, servers on one PostgreSQL), and they may be configured differently, so the decision
 * is stored with the data: each reporting process says until when it reports, and a process
 * that does not report turns the upkeep off at its start only when no reporting process is
 * alive. A reporting process that finds it off (never on, or turned off while it was away)
 * turns it on and builds the manifests by one paced scan before its report, so no report can
 * carry a manifest that misses a stored value.
 */
export class ManifestUpkeep {
  /** This process's reporter row. */
  private readonly reporter = `${REPORTER}${randomUUID()}`;

  constructor(
    private readonly db: ManifestUpkeepDatabase,
    private readonly logger: Logger,
  ) {}

  /**
   * At the start of a process that does not report: drop the triggers and the sets unless a
   * reporting process of this database is alive. Writes nothing when they are off already.
   */
  async settleUnreported(): Promise<void> {
    const state = stateOf(await this.guard(() => this.stateValue(this.db.reader)));
    if (state.phase === 'off') return;
    const reporters = await this.guard(() => this.liveReporters(this.db.reader));
    if (reporters > 0) {
      this.logger.info({ reporters }, 'manifests kept: another process of this database reports upstream');
      return;
    }
    const dropped = await this.exclusive(async (trx) => {
      // Looked at again under the lock: a reporting process may have turned them on meanwhile.
      if (stateOf(await this.stateValue(trx)).phase === 'off' || (await this.liveReporters(trx)) > 0) return false;
      // In this order: the state row first, which waits for a slice of a scan in flight (it
      // holds that row, see scan); dropping the triggers waits for the writes in flight
      // (PostgreSQL); the rows those added are then seen, and deleted.
      await this.setState(trx, 'off');
      for (const statement of this.db.dialect.features.manifests.drop) await trx.raw(statement);
      await trx(MANIFEST_TABLE).delete();
      await trx(SERVICE).where('name', 'like', `${REPORTER}%`).delete();
      return true;
    });
    if (dropped) this.logger.info('manifests dropped: no process of this database reports upstream');
  }

  /** Say that this process reports until `untilMs` (ms since the epoch). */
  async renew(untilMs: number): Promise<void> {
    await this.guard(() => this.db.write((trx) => trx(SERVICE).insert({ name: this.reporter, value: String(untilMs) }).onConflict('name').merge()));
  }

  /** This process stops reporting. */
  async retire(): Promise<void> {
    await this.guard(() => this.db.write((trx) => trx(SERVICE).where({ name: this.reporter }).delete()));
  }

  /**
   * Make sure the manifests are kept and complete: when they are not, turn the triggers on and
   * add the documents stored before them by one paced scan. Resolves once they are complete;
   * false when `signal` ended the scan first.
   */
  async keep(signal?: AbortSignal): Promise<boolean> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      let state = stateOf(await this.guard(() => this.stateValue(this.db.reader)));
      if (state.phase === 'kept') return true;
      if (state.phase !== 'building') state = await this.turnOn();
      if (state.phase === 'kept') return true;
      if (state.phase !== 'building') continue;
      const built = await this.scan(state.generation, signal);
      if (built === undefined) return false;
      // Complete unless the upkeep was turned off (and maybe on again) under the scan.
      const finished = await this.guard(() => this.db.write((trx) => trx(SERVICE).where({ name: MANIFEST_STATE, value: `building ${state.generation}` }).update({ value: `kept ${state.generation}` })));
      if (finished > 0) this.logger.info({ documents: built.documents, ms: Math.round(built.ms) }, 'manifests built by a scan of the stored resources');
    }
    return stateOf(await this.guard(() => this.stateValue(this.db.reader))).phase === 'kept';
  }

  /** Create the triggers (dropping any left by migration 0014 or a crash) and start a generation. */
  private async turnOn(): Promise<State> {
    return this.exclusive(async (trx) => {
      const state = stateOf(await this.stateValue(trx));
      if (state.phase === 'building' || state.phase === 'kept') return state;
      const generation = randomUUID();
      for (const statement of [...this.db.dialect.features.manifests.drop, ...this.db.dialect.features.manifests.create(generation)]) await trx.raw(statement);
      await trx(MANIFEST_TABLE).delete();
      await this.setState(trx, `building ${generation}`);
      this.logger.info('manifests turned on: this process reports upstream; building them by a scan of the stored resources');
      return { phase: 'building', generation } as const;
    });
  }

  /**
   * Add the values of every stored document, in writes of ADD_BATCH documents with the event
   * loop's turns between them (Pacer). The triggers are on: what is written meanwhile adds its
   * own values, and what the scan reads again adds nothing. Undefined when `signal` ended it.
   */
  private async scan(generation: string, signal?: AbortSignal): Promise<{ documents: number; ms: number } | undefined> {
    const started = performance.now();
    const pacer = new Pacer();
    let documents = 0;
    for await (const batch of currentDocuments(this.db, READ_BATCH, signal)) {
      const summarised = batch.filter((row) => !(MANIFEST_UNSUMMARISED as readonly string[]).includes(row.kind));
      for (let i = 0; i < summarised.length; i += ADD_BATCH) {
        if (signal?.aborted) return undefined;
        const slice = summarised.slice(i, i + ADD_BATCH).map(({ kind, doc }) => ({ kind, doc }));
        const current = await this.guard(() =>
          this.db.write(async (trx) => {
            // Turned off (or on again) meanwhile: this scan's generation is over. An update, not
            // a read: it holds the state row until this slice commits, so a process turning the
            // upkeep off waits for it, then deletes what it added (settleUnreported).
            const value = `building ${generation}`;
            if ((await trx(SERVICE).where({ name: MANIFEST_STATE, value }).update({ value })) === 0) return false;
            await this.db.dialect.features.manifests.add(trx, slice);
            return true;
          }),
        );
        if (!current) return { documents, ms: performance.now() - started };
        documents += slice.length;
        await pacer.breathe();
      }
    }
    return signal?.aborted ? undefined : { documents, ms: performance.now() - started };
  }

  private exclusive<T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    return this.guard(() => this.db.dialect.adapter.locking.exclusive(MANIFEST_STATE, () => this.db.write(work)));
  }

  private async stateValue(knex: Knex): Promise<string | undefined> {
    return ((await knex(SERVICE).where({ name: MANIFEST_STATE }).first('value')) as { value: string } | undefined)?.value;
  }

  private async setState(trx: Knex.Transaction, value: string): Promise<void> {
    await trx(SERVICE).insert({ name: MANIFEST_STATE, value }).onConflict('name').merge();
  }

  /** Reporting processes whose rows have not expired. */
  private async liveReporters(knex: Knex): Promise<number> {
    const rows = (await knex(SERVICE).where('name', 'like', `${REPORTER}%`).select('value')) as { value: string }[];
    const now = Date.now();
    return rows.filter((row) => Number(row.value) > now).length;
  }

  private guard<T>(work: () => Promise<T>): Promise<T> {
    return classified(this.db.dialect.driver.errors, work);
  }
}
