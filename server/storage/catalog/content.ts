import type { Knex } from 'knex';
import type { ColumnSql } from '../contract/sql.js';
import type { Uses } from '../contract/database.js';
import { chunks, rowsOf } from '../contract/rows.js';
import {
  addElements,
  addProperties,
  CHUNK,
  ELEMENT_ROW_COLUMNS,
  type ElementRow,
  inStoredOrder,
  insertedId,
  OBJECT_COLUMNS,
  objectFromTuple,
  type ObjectTuple,
  PROPERTY_COLUMNS,
  type PropertyRow,
} from './records.js';
import type { ElementRecord, InstanceRecord, ObjectContent, ObjectRecord, PropertyInput, PropertyRecord } from './rows.js';
import { ELEMENTS, OBJECTS, PROPERTIES } from './tables.js';
import { type CatalogDialect, TransactionPart } from './transaction-part.js';
import { folded, numberValue, textKey, timeValue } from './values.js';

const INSERT_PROPERTY = `INSERT INTO ${PROPERTIES} (object_id, parent_property_id, name, source, position) VALUES (?, ?, ?, ?, ?) RETURNING id`;
const ELEMENT_COLUMNS = '(property_id, ordinal, name, source, shorthand, text_value, text_folded, text_key, num_value, time_value)';
/** One element's values; `shorthand` is bound as 1 or 0, which both engines cast to their boolean. */
const ELEMENT_VALUES = '(?, ?, ?, ?, CAST(? AS BOOLEAN), ?, ?, ?, ?, ?)';

/** What objects hold: their property instances (top-level and nested) and the elements of each. */
export class ContentReads extends TransactionPart {
  /** All property instances (top-level and nested) and elements of these objects, in stored order. */
  async properties(objectIds: readonly number[]): Promise<ObjectContent> {
    const properties: PropertyRecord[] = [];
    const elements: ElementRecord[] = [];
    for (const part of chunks(objectIds, CHUNK)) {
      // Two rows of JSON text rather than a row object per property and per element.
      addProperties(properties, await this.jsonRows<PropertyRow>(this.knex(PROPERTIES).whereIn('object_id', part), PROPERTY_COLUMNS));
      addElements(elements, await this.jsonRows<ElementRow>(this.knex({ e: ELEMENTS }).join({ p: PROPERTIES }, 'p.id', 'e.property_id').whereIn('p.object_id', part), ELEMENT_ROW_COLUMNS));
    }
    return inStoredOrder({ properties, elements });
  }

  /** The object's top-level instances of (name, source), by position. */
  async instances(objectId: number, name: string, source: string): Promise<InstanceRecord[]> {
    const rows = (await this.knex(PROPERTIES)
      .select('id', 'position')
      .where({ object_id: objectId, name, source })
      .whereNull('parent_property_id')
      .orderBy(['position', 'id'])) as { id: number | string; position: number | string }[];
    return rows.map((r) => ({ id: Number(r.id), position: Number(r.position) }));
  }

  /** True when (name, source) occurs on the object only as a sub-property somewhere. */
  async hasSubProperty(objectId: number, name: string, source: string): Promise<boolean> {
    return (await this.knex(PROPERTIES).first('id').where({ object_id: objectId, name, source }).whereNotNull('parent_property_id')) !== undefined;
  }

  /** The rows of `from` as arrays of `columns`, in no particular order, read as one JSON text. */
  private async jsonRows<T extends unknown[]>(from: Knex.QueryBuilder, columns: readonly string[]): Promise<T[]> {
    const row = (await from.first(this.knex.raw(`${this.dialect.sql.columns.jsonRows(columns)} AS rows`))) as { rows: string };
    return JSON.parse(row.rows) as T[];
  }
}

/** Changes of what objects hold, inside a write transaction. */
export class ContentWrites extends TransactionPart {
  constructor(
    knex: Knex.Transaction,
    dialect: CatalogDialect,
    private readonly reads: ContentReads,
  ) {
    super(knex, dialect);
  }

  /** Store a property instance with its elements and sub-properties. */
  async insertProperty(objectId: number, parentPropertyId: number | null, position: number, property: PropertyInput): Promise<number> {
    const { rows } = await this.run(INSERT_PROPERTY, [objectId, parentPropertyId, property.name, property.source, position]);
    const id = insertedId(rows[0]);
    await this.insertContent(objectId, id, property);
    return id;
  }

  /** Replace what an instance holds, keeping the instance (its id, position and place in order). */
  async replacePropertyContent(objectId: number, propertyId: number, property: PropertyInput): Promise<void> {
    await this.knex(ELEMENTS).where({ property_id: propertyId }).delete();
    await this.knex(PROPERTIES).where({ parent_property_id: propertyId }).delete();
    await this.insertContent(objectId, propertyId, property);
  }

  async deleteProperties(ids: readonly number[]): Promise<void> {
    for (const part of chunks(ids, CHUNK)) await this.knex(PROPERTIES).whereIn('id', part).delete();
  }

  /** Number the remaining top-level instances of (name, source) 1, 2, … in their order. */
  async renumber(objectId: number, name: string, source: string): Promise<void> {
    const instances = await this.reads.instances(objectId, name, source);
    for (const [index, instance] of instances.entries()) {
      if (instance.position !== index + 1) await this.knex(PROPERTIES).where({ id: instance.id }).update({ position: index + 1 });
    }
  }

  private async insertContent(objectId: number, propertyId: number, property: PropertyInput): Promise<void> {
    const rows = property.elements.map((element, index) => [
      propertyId,
      index + 1,
      element.name,
      element.source,
      element.shorthand ? 1 : 0,
      element.value,
      folded(element.value),
      textKey(element.value),
      numberValue(element.value) ?? null,
      timeValue(element.value) ?? null,
    ]);
    for (const part of chunks(rows, 100)) {
      await this.run(`INSERT INTO ${ELEMENTS} ${ELEMENT_COLUMNS} VALUES ${rowsOf(ELEMENT_VALUES, part.length)}`, part.flat());
    }
    for (const [index, sub] of property.properties.entries()) await this.insertProperty(objectId, propertyId, index + 1, sub);
  }
}

/** The targets of objectsWithContent: these objectIds, of these owners. */
function targetsOf(reader: Knex, guids: readonly string[], owners: readonly string[]): Knex.Raw {
  const list = (values: readonly string[]) => values.map(() => '?').join(', ');
  return reader.raw(`SELECT id FROM ${OBJECTS} WHERE guid IN (${list(guids)}) AND owner_dn IN (${list(owners)})`, [...guids, ...owners]);
}

/** Objects with their first parents, as one JSON text of OBJECT_COLUMNS rows (ObjectTuple), where `condition` holds. */
function objectRows(columns: ColumnSql, condition: string): string {
  return `SELECT ${columns.jsonRows(OBJECT_COLUMNS.map((c) => c.replace(/ as \w+$/, '')))} AS rows FROM ${OBJECTS} o LEFT JOIN ${OBJECTS} parent ON parent.id = o.parent_id WHERE ${condition}`;
}

/**
 * The objects with these objectIds that `owners` own, in no particular order, without what they
 * hold: one statement of the key reader (on SQLite, on the calling thread: a hand-over to a
 * reader thread and back cost more than the statement), for a caller that keeps the content of
 * most of them by their content versions (catalog/property-trees.ts).
 */
export async function visibleObjects(db: Uses<'keys', { sql: 'columns' }>, guids: readonly string[], owners: readonly string[]): Promise<ObjectRecord[]> {
  const { columns } = db.dialect.sql;
  const sql = objectRows(columns, `${columns.inTexts('o.guid')} AND ${columns.inTexts('o.owner_dn')}`);
  const row = (await db.keys.one(sql, [JSON.stringify(guids), JSON.stringify(owners)])) as { rows: string } | undefined;
  return (JSON.parse(row!.rows) as ObjectTuple[]).map(objectFromTuple);
}

/**
 * The objects with these objectIds that `owners` own, in no particular order, with everything
 * they hold: one statement on the reader, so one snapshot without a transaction and one round
 * trip (SQLite: one message to a reader thread instead of five; see objectIdQuery). The targets
 * are found once, in a materialised CTE the three parts read: looking them up in each part cost
 * SQLite about 90 of 630 µs for 100 objects (scratch, in process).
 */
export async function objectsWithContent(db: Uses<'reader', { sql: 'columns' }>, guids: readonly string[], owners: readonly string[]): Promise<{ objects: ObjectRecord[]; content: ObjectContent }> {
  const { columns } = db.dialect.sql;
  const targets = 'SELECT id FROM targets';
  const selected =
    `(${objectRows(columns, 'o.id IN (SELECT id FROM targets)')}) AS objects, ` +
    `(SELECT ${columns.jsonRows(PROPERTY_COLUMNS)} FROM ${PROPERTIES} WHERE object_id IN (${targets})) AS properties, ` +
    `(SELECT ${columns.jsonRows(ELEMENT_ROW_COLUMNS)} FROM ${ELEMENTS} e JOIN ${PROPERTIES} p ON p.id = e.property_id WHERE p.object_id IN (${targets})) AS elements`;
  const row = (await db.reader.withMaterialized('targets', targetsOf(db.reader, guids, owners)).first(db.reader.raw(selected))) as { objects: string; properties: string; elements: string } | undefined;
  const objects = (JSON.parse(row!.objects) as ObjectTuple[]).map(objectFromTuple);
  const content: ObjectContent = { properties: [], elements: [] };
  addProperties(content.properties, JSON.parse(row!.properties) as PropertyRow[]);
  addElements(content.elements, JSON.parse(row!.elements) as ElementRow[]);
  return { objects, content: inStoredOrder(content) };
}
