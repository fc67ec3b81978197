import type { Knex } from 'knex';
import type { Uses } from './contract/database.js';
import type { Dialect } from './contract/dialect.js';
import { MANIFEST_LIMIT_SETTING, MANIFEST_STAR, MANIFEST_STATE, MANIFEST_TABLE, MAX_FIELD, MAX_VALUE } from './manifest-sql.js';
import { classified } from './errors.js';
import { keptState } from './manifest-upkeep.js';
import { SERVICE } from './service-facts.js';

/** What the manifests' reader uses of the database. */
export type ManifestsDatabase = Uses<'reader' | 'writer', { driver: 'errors'; features: 'manifests' }>;

/** UNIS's size past which a value set is reported as `*` (REGISTER_MANIFEST_LIMIT's default). */
export const DEFAULT_MANIFEST_LIMIT = 10;

/** One collection's summary, as UNIS reports it upstream (rest-contract §13). */
export interface Manifest {
  readonly $collection: string;
  readonly properties: Record<string, unknown[] | '*'>;
}

/**
 * Migration step 0014: the value sets of each collection's fields, kept by triggers on
 * `resource_current` (dialects/<engine>/manifests.ts) in the statement that writes each
 * version, whatever the write path. The resources stored before the migration are summarised
 * once here, by rewriting their current rows in place (the triggers fire on them). Since
 * 2026-11-28 the first start settles whether they stay (manifest-upkeep.ts): only where a
 * process reports upstream.
 */
export function manifestsMigration(dialect: Dialect): Knex.Migration {
  return {
    async up(knex) {
      await knex.schema.createTable(MANIFEST_TABLE, (t) => {
        t.specificType('kind', dialect.sql.ddl.keyType(64)).notNullable();
        t.specificType('field', dialect.sql.ddl.keyType(MAX_FIELD)).notNullable();
        // JSON text of the value (`"a"`, `3`, `true`), or `*`: any value.
        t.specificType('value', dialect.sql.ddl.keyType(MAX_VALUE + 2)).notNullable();
        t.primary(['kind', 'field', 'value']);
      });
      await knex(SERVICE).insert({ name: MANIFEST_LIMIT_SETTING, value: String(DEFAULT_MANIFEST_LIMIT) });
      for (const statement of dialect.features.manifests.create(undefined)) await knex.raw(statement);
      await knex('resource_current').update({ doc: knex.ref('doc') });
    },
    async down(knex) {
      for (const statement of dialect.features.manifests.drop) await knex.raw(statement);
      await knex(SERVICE).where({ name: MANIFEST_LIMIT_SETTING }).delete();
      await knex.schema.dropTable(MANIFEST_TABLE);
    },
  };
}

/** The manifests of this instance's collections, read from the kept value sets (never from the collections). */
export class Manifests {
  constructor(private readonly db: ManifestsDatabase) {}

  /**
   * Set the size past which a set is `*` (sets already `*` stay so). Written only when it
   * changes, so an ordinary start writes nothing (no write lock to wait for while a previous
   * process on the same SQLite file still stops).
   */
  async setLimit(limit: number): Promise<void> {
    const row = (await this.guard(() => this.db.reader(SERVICE).where({ name: MANIFEST_LIMIT_SETTING }).first('value'))) as { value: string } | undefined;
    if (row?.value === String(limit)) return;
    await this.guard(() => this.db.writer(SERVICE).where({ name: MANIFEST_LIMIT_SETTING }).update({ value: String(limit) }));
  }

  /**
   * Every collection's manifest, a set past `limit` values as `*`; undefined unless the
   * manifests are complete and kept (manifest-upkeep.ts) from before the sets are read until
   * after: a generation that ended meanwhile (turned off, and on again) is seen in the state row.
   */
  async read(limit: number): Promise<Manifest[] | undefined> {
    const state = async (): Promise<string | undefined> => ((await this.guard(() => this.db.reader(SERVICE).where({ name: MANIFEST_STATE }).first('value'))) as { value: string } | undefined)?.value;
    const before = await state();
    if (!keptState(before)) return undefined;
    const rows = (await this.guard(() => this.db.reader(MANIFEST_TABLE).select('kind', 'field', 'value').orderBy(['kind', 'field', 'value']))) as { kind: string; field: string; value: string }[];
    if ((await state()) !== before) return undefined;
    const byKind = new Map<string, Map<string, string[]>>();
    for (const { kind, field, value } of rows) {
      const fields = byKind.get(kind) ?? byKind.set(kind, new Map()).get(kind)!;
      (fields.get(field) ?? fields.set(field, []).get(field)!).push(value);
    }
    return [...byKind].map(([kind, fields]) => ({
      $collection: kind,
      properties: Object.fromEntries(
        [...fields].map(([field, values]) => [field, values.includes(MANIFEST_STAR) || values.length > limit ? MANIFEST_STAR : values.map((v) => JSON.parse(v) as unknown)]),
      ),
    }));
  }

  private guard<T>(work: () => Promise<T>): Promise<T> {
    return classified(this.db.dialect.driver.errors, work);
  }
}
