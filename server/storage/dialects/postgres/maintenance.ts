import type { Knex } from 'knex';
import type { Maintenance } from '../../contract/adapter.js';

export class PostgresMaintenance implements Maintenance {
  constructor(private readonly schema: string | undefined) {}

  async prepare(knex: Knex): Promise<void> {
    if (this.schema === undefined) return;
    // Looked up first: CREATE SCHEMA IF NOT EXISTS needs the CREATE privilege even when it exists.
    const found = await knex('pg_namespace').first('nspname').where('nspname', this.schema);
    if (!found) await knex.raw('CREATE SCHEMA IF NOT EXISTS ??', [this.schema]);
  }

  async listExpressionIndexes(knex: Knex): Promise<string[]> {
    const rows: { indexname: string }[] = await knex('pg_indexes')
      .select('indexname')
      .whereRaw("schemaname = current_schema() AND indexname LIKE 'xidx\\_%'");
    return rows.map((r) => r.indexname);
  }

  async describeLookupIndexes(): Promise<void> {
    // Autovacuum's ANALYZE measures expression indexes on real data: the planner knows.
  }

  async refreshStatistics(): Promise<boolean> {
    // Autovacuum analyses tables as they change.
    return false;
  }
}
