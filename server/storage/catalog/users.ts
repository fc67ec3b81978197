import type { UserRecord } from './rows.js';
import { CONTACT_COLUMNS, OBJECTS, USERS, type ContactColumn } from './tables.js';
import { TransactionPart } from './transaction-part.js';

/** The catalog's users: a DN and the contact fields that are set. */
export class UserReads extends TransactionPart {
  async user(dn: string): Promise<UserRecord | undefined> {
    const row = (await this.knex(USERS).first('dn', ...CONTACT_COLUMNS).where({ dn })) as Record<string, string | null> | undefined;
    if (!row) return undefined;
    const contact: Partial<Record<ContactColumn, string>> = {};
    for (const column of CONTACT_COLUMNS) if (row[column] !== null && row[column] !== undefined) contact[column] = row[column]!;
    return { dn: row.dn!, contact };
  }

  async userExists(dn: string): Promise<boolean> {
    return (await this.knex(USERS).first('dn').where({ dn })) !== undefined;
  }
}

/** Changes of the users inside a write transaction; a DN taken already is a ResourceConflict. */
export class UserWrites extends TransactionPart {
  async insertUser(dn: string, contact: UserRecord['contact'], now: number): Promise<void> {
    await this.unique(() => this.knex(USERS).insert({ dn, ...this.contactRow(contact), created_ms: now }), `user ${dn} exists already`);
  }

  /** Replace the contact fields; a new DN renames the user and, by cascade, re-owns the objects. */
  async replaceUser(dn: string, newDn: string, contact: UserRecord['contact']): Promise<void> {
    await this.unique(() => this.knex(USERS).where({ dn }).update({ dn: newDn, ...this.contactRow(contact) }), `user ${newDn} exists already`);
  }

  /** Delete the user and every object they own, subtrees included. */
  async deleteUser(dn: string): Promise<void> {
    await this.knex(OBJECTS).where({ owner_dn: dn }).delete();
    await this.knex(USERS).where({ dn }).delete();
  }

  private contactRow(contact: UserRecord['contact']): Record<ContactColumn, string | null> {
    return Object.fromEntries(CONTACT_COLUMNS.map((column) => [column, contact[column] ?? null])) as Record<ContactColumn, string | null>;
  }
}
