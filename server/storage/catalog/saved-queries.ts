import type { QueryDefinitionRecord } from './rows.js';
import { QUERY_DEFINITIONS } from './tables.js';
import { TransactionPart } from './transaction-part.js';

const DEFINITION_COLUMNS = ['query_id', 'owner_dn', 'title', 'description', 'public', 'definition'];

interface DefinitionRow {
  query_id: string;
  owner_dn: string;
  title: string;
  description: string;
  public: boolean | number;
  definition: string;
}

function definitionRecord(row: DefinitionRow): QueryDefinitionRecord {
  return { queryId: row.query_id, ownerDn: row.owner_dn, title: row.title, description: row.description, public: Boolean(row.public), definition: row.definition };
}

/** Saved query definitions: each user's own, and the public ones. */
export class QueryDefinitionReads extends TransactionPart {
  async queryDefinition(queryId: string): Promise<QueryDefinitionRecord | undefined> {
    const row = (await this.knex(QUERY_DEFINITIONS).first(...DEFINITION_COLUMNS).where({ query_id: queryId })) as DefinitionRow | undefined;
    return row ? definitionRecord(row) : undefined;
  }

  /** The public definitions and `dn`'s own, in the order they were first saved. */
  async queryDefinitionsFor(dn: string): Promise<QueryDefinitionRecord[]> {
    const rows = (await this.knex(QUERY_DEFINITIONS)
      .select(...DEFINITION_COLUMNS)
      .where({ owner_dn: dn })
      .orWhere({ public: true })
      .orderBy('id')) as DefinitionRow[];
    return rows.map(definitionRecord);
  }
}

/** Changes of the saved query definitions inside a write transaction. */
export class QueryDefinitionWrites extends TransactionPart {
  /** Store a definition under its queryId: a new one, or a replacement of the one with that id. */
  async saveQueryDefinition(record: QueryDefinitionRecord, now: number): Promise<void> {
    const values = { owner_dn: record.ownerDn, title: record.title, description: record.description, public: record.public, definition: record.definition, modified_ms: now };
    const updated = await this.knex(QUERY_DEFINITIONS).where({ query_id: record.queryId }).update(values);
    if (updated === 0) await this.unique(() => this.knex(QUERY_DEFINITIONS).insert({ query_id: record.queryId, ...values, created_ms: now }), `query definition ${record.queryId} exists already`);
  }

  async deleteQueryDefinition(queryId: string): Promise<void> {
    await this.knex(QUERY_DEFINITIONS).where({ query_id: queryId }).delete();
  }
}
