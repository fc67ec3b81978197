import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Uses } from './contract/database.js';
import type { Dialect } from './contract/dialect.js';
import { classified } from './errors.js';

/** What the service's facts use of the database. */
export type ServiceFactsDatabase = Uses<'reader' | 'writer' | 'keys', { sql: 'json' | 'columns'; driver: 'errors' }>;

/** Facts about the service itself, kept with its data (migration 0004). */
export const SERVICE = 'topocat_service';
/** Every base address a server process of this database has written under (migration 0004). */
export const ADDRESSES = 'topocat_addresses';

/**
 * The facts (rows of SERVICE) that name the bases the service writes under now: those of the last
 * process that started on the database (a server, or an import, which rebases references onto
 * its PUBLIC_URL). `href`s are stored as written, so these are the bases of what was written
 * last, which an export writes `selfRef`s under (server/unis/export-base.ts).
 */
export const WRITING_BASES = { resource: 'resource_base', schema: 'schema_base' } as const;

/** What an address is the base of: resource URLs (`selfRef`) or schema addresses (`$schema`). */
export type AddressRole = 'resource' | 'schema';

export interface BaseAddress {
  readonly role: AddressRole;
  readonly base: string;
}

/**
 * Migration step 0004: the service's uid (UNIS's `/about`), the addresses it has written, and
 * documents without the members derived from those addresses. `$schema` and `selfRef` depend on
 * PUBLIC_URL and SCHEMA_BASE, which may change (a move, a proxy, a second process configured
 * otherwise); stored, they froze the first configuration into the data. They are added to each
 * representation on the way out instead, and the bases found in the stored documents are kept
 * as the service's own, so that a client holding an older address is still understood.
 */
export function serviceFactsMigration(dialect: Dialect): Knex.Migration {
  return {
    async up(knex) {
      await knex.schema.createTable(SERVICE, (t) => {
        t.string('name', 64).primary();
        t.text('value').notNullable();
      });
      await knex(SERVICE).insert({ name: 'uid', value: randomUUID() });
      await knex.schema.createTable(ADDRESSES, (t) => {
        t.string('role', 16).notNullable();
        t.specificType('base', dialect.sql.ddl.keyType(1024)).notNullable();
        t.primary(['role', 'base']);
      });

      const found = new Set<string>();
      for (const table of ['resource_history', 'resource_current']) {
        const [schema, self] = ['$schema', 'selfRef'].map((member) => dialect.sql.json.text({ kind: 'column', column: 'doc' }, [member]));
        const rows = (await knex(table).distinct(knex.raw(`${schema} AS schema, ${self} AS self`)).whereNotNull('doc')) as { schema: unknown; self: unknown }[];
        for (const { schema, self } of rows) {
          if (typeof schema === 'string') found.add(JSON.stringify(['schema', schema.replace(/#$/, '').replace(/\/[^/]*$/, '')]));
          if (typeof self === 'string') found.add(JSON.stringify(['resource', self.replace(/\/[^/]*\/[^/]*$/, '')]));
        }
        await knex(table)
          .whereNotNull('doc')
          .update({ doc: knex.raw(dialect.sql.columns.withoutMembers('doc', ['$schema', 'selfRef'])) });
      }
      const rows = [...found].map((text) => JSON.parse(text) as [AddressRole, string]).filter(([, base]) => /^https?:\/\/[^/]/.test(base) && base.length <= 1024);
      if (rows.length > 0) await knex(ADDRESSES).insert(rows.map(([role, base]) => ({ role, base })));
    },
    async down(knex) {
      await knex.schema.dropTable(ADDRESSES);
      await knex.schema.dropTable(SERVICE);
    },
  };
}

/** The service's facts as the REST interface needs them. */
export class ServiceFacts {
  constructor(private readonly db: ServiceFactsDatabase) {}

  /** The stable id of this service (made once, by the migration). */
  async uid(): Promise<string> {
    return this.guard(async () => {
      const row = (await this.db.keys.one(`SELECT value FROM ${SERVICE} WHERE name = ?`, ['uid'])) as { value: string } | undefined;
      if (!row) throw new Error(`${SERVICE} has no uid row`);
      return row.value;
    });
  }

  /** Remember that this process writes under these bases (kept for ever). */
  async record(addresses: readonly BaseAddress[]): Promise<void> {
    await this.guard(() => this.db.writer(ADDRESSES).insert(addresses.map((a) => ({ role: a.role, base: a.base }))).onConflict(['role', 'base']).ignore());
  }

  /** A fact recorded under `name` (a row of topocat_service), or undefined. */
  async fact(name: string): Promise<string | undefined> {
    return this.guard(async () => ((await this.db.reader(SERVICE).where({ name }).first('value')) as { value: string } | undefined)?.value);
  }

  /** Record `value` under `name`, replacing what was there. */
  async setFact(name: string, value: string): Promise<void> {
    await this.guard(() => this.db.writer(SERVICE).insert({ name, value }).onConflict('name').merge());
  }

  /** The bases the last process that started on the database wrote under (WRITING_BASES), or undefined when none has said (a database of an older release). */
  async writingBases(): Promise<Record<AddressRole, string> | undefined> {
    const [resource, schema] = await Promise.all([this.fact(WRITING_BASES.resource), this.fact(WRITING_BASES.schema)]);
    return resource !== undefined && schema !== undefined ? { resource, schema } : undefined;
  }

  /** Every base any process of this database has written under. */
  async addresses(): Promise<BaseAddress[]> {
    return this.guard(async () => ((await this.db.reader(ADDRESSES).select('role', 'base')) as BaseAddress[]).map((row) => ({ role: row.role, base: row.base })));
  }

  private guard<T>(work: () => Promise<T>): Promise<T> {
    return classified(this.db.dialect.driver.errors, work);
  }
}
