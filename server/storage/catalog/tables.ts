import type { Knex } from 'knex';
import type { Dialect } from '../contract/dialect.js';
import { TEXT_KEY_LENGTH } from './values.js';

/** The catalog's tables (docs/catalog-interface.md; docs/internals.md, `server/storage/catalog/`). */
export const USERS = 'catalog_users';
export const OBJECTS = 'catalog_objects';
export const CLOSURE = 'catalog_closure';
export const PROPERTIES = 'catalog_properties';
export const ELEMENTS = 'catalog_elements';
/** How many users and objects there are, kept by triggers (migration 0003). */
export const COUNTS = 'catalog_counts';

/** Contact columns of a user, in userType order; the catalog maps them to and from XML. */
export const CONTACT_COLUMNS = [
  'user_name',
  'organization',
  'position',
  'addr_type',
  'addr_street',
  'addr_city',
  'addr_state',
  'addr_postcode',
  'addr_country',
  'phone',
  'ttdtty_phone',
  'email',
  'fax',
  'url',
  'hours',
  'contact_instructions',
] as const;

export type ContactColumn = (typeof CONTACT_COLUMNS)[number];

/**
 * Migration step 0002: users, the object tree with its ancestor closure, properties and typed
 * elements. Portable DDL only (the knex schema builder), so the same step runs on PostgreSQL.
 */
export const catalogMigration: Knex.Migration = {
  async up(knex) {
    await knex.schema.createTable(USERS, (t) => {
      t.string('dn', 1024).primary();
      for (const column of CONTACT_COLUMNS) t.text(column).nullable();
      t.bigInteger('created_ms').notNullable();
    });

    // `id` is internal (small keys for the closure and the joins); `guid` is the client's objectId.
    await knex.schema.createTable(OBJECTS, (t) => {
      t.increments('id').primary();
      t.string('guid', 1024).notNullable();
      t.string('class', 32).notNullable();
      t.integer('parent_id').nullable().references('id').inTable(OBJECTS).onDelete('CASCADE');
      // A rename of the user (updateUser) re-owns the objects in the same statement.
      t.string('owner_dn', 1024).notNullable().references('dn').inTable(USERS).onUpdate('CASCADE');
      t.bigInteger('created_ms').notNullable();
      t.bigInteger('modified_ms').notNullable();
      t.unique(['guid'], { indexName: 'catalog_objects_guid' });
      t.index(['parent_id'], 'catalog_objects_parent');
      t.index(['owner_dn', 'parent_id'], 'catalog_objects_owner_parent');
      // Query targets are read in (creationDate, objectId) order, usually of one class.
      t.index(['class', 'created_ms'], 'catalog_objects_class_created');
      t.index(['created_ms'], 'catalog_objects_created');
    });

    // One row per (ancestor, descendant) pair, self included at depth 0: context conditions and
    // subtree reads are indexed joins instead of recursive queries.
    await knex.schema.createTable(CLOSURE, (t) => {
      t.integer('ancestor_id').notNullable().references('id').inTable(OBJECTS).onDelete('CASCADE');
      t.integer('descendant_id').notNullable().references('id').inTable(OBJECTS).onDelete('CASCADE');
      t.integer('depth').notNullable();
      t.primary(['ancestor_id', 'descendant_id'], 'catalog_closure_pk');
      t.index(['descendant_id', 'depth'], 'catalog_closure_descendant');
      t.index(['ancestor_id', 'depth'], 'catalog_closure_ancestor_depth');
    });

    // A property instance; sub-properties point at their enclosing instance. `position` is the
    // 1-based instance number among the object's top-level instances of (name, source).
    await knex.schema.createTable(PROPERTIES, (t) => {
      t.increments('id').primary();
      t.integer('object_id').notNullable().references('id').inTable(OBJECTS).onDelete('CASCADE');
      t.integer('parent_property_id').nullable().references('id').inTable(PROPERTIES).onDelete('CASCADE');
      t.string('name', 512).notNullable();
      t.string('source', 512).notNullable();
      t.integer('position').notNullable();
      t.index(['object_id', 'name', 'source'], 'catalog_properties_object_name');
      t.index(['parent_property_id'], 'catalog_properties_parent');
    });

    // Leaf values. The text is always kept; the number and time columns are filled when the
    // text parses as one, so value comparisons are SQL comparisons on typed columns.
    // `text_folded` is the lower-cased text for case-insensitive STARTSWITH/CONTAINS, folded
    // once in JavaScript so both dialects fold Unicode alike. `text_key` is the text's first
    // TEXT_KEY_LENGTH characters: exact matches seek it in an index (a PostgreSQL B-tree
    // cannot hold arbitrarily long text) and then compare the whole text.
    await knex.schema.createTable(ELEMENTS, (t) => {
      t.increments('id').primary();
      t.integer('property_id').notNullable().references('id').inTable(PROPERTIES).onDelete('CASCADE');
      t.integer('ordinal').notNullable();
      t.string('name', 512).notNullable();
      t.string('source', 512).notNullable();
      // The property's `value` shorthand: an element named like its property.
      t.boolean('shorthand').notNullable();
      t.text('text_value').notNullable();
      t.text('text_folded').notNullable();
      t.string('text_key', TEXT_KEY_LENGTH).notNullable();
      t.double('num_value').nullable();
      t.bigInteger('time_value').nullable();
      t.index(['property_id', 'name'], 'catalog_elements_property_name');
      // Conditions find the matching elements first, then their instances and objects.
      t.index(['name', 'source', 'text_key'], 'catalog_elements_text');
      t.index(['name', 'source', 'num_value'], 'catalog_elements_number');
      t.index(['name', 'source', 'time_value'], 'catalog_elements_time');
    });
  },
  async down(knex) {
    await knex.schema.dropTable(ELEMENTS);
    await knex.schema.dropTable(PROPERTIES);
    await knex.schema.dropTable(CLOSURE);
    await knex.schema.dropTable(OBJECTS);
    await knex.schema.dropTable(USERS);
  },
};

/**
 * Migration step 0003: the numbers of users and objects, kept by triggers in the writing
 * transactions, so checkStatus reads a few rows instead of counting every object.
 */
export function catalogCountsMigration(dialect: Dialect): Knex.Migration {
  const triggers = [dialect.sql.ddl.rowCountTriggers(USERS, COUNTS, 'users'), dialect.sql.ddl.rowCountTriggers(OBJECTS, COUNTS, 'objects')];
  return {
    async up(knex) {
      await knex.schema.createTable(COUNTS, (t) => {
        t.integer('shard').primary();
        t.bigInteger('users').notNullable().defaultTo(0);
        t.bigInteger('objects').notNullable().defaultTo(0);
      });
      for (const sql of triggers.flatMap((t) => t.create)) await knex.raw(sql);
      // Counted after the triggers exist: their locks hold writers back until this commits.
      const users = Number(((await knex(USERS).count({ n: '*' }).first()) as { n: number | string }).n);
      const objects = Number(((await knex(OBJECTS).count({ n: '*' }).first()) as { n: number | string }).n);
      await knex(COUNTS).insert(Array.from({ length: triggers[0]!.shards }, (_, shard) => ({ shard, users: shard === 0 ? users : 0, objects: shard === 0 ? objects : 0 })));
    },
    async down(knex) {
      for (const sql of triggers.flatMap((t) => t.drop)) await knex.raw(sql);
      await knex.schema.dropTable(COUNTS);
    },
  };
}

/** Saved query definitions (saveQueryDefinition and its three companions). */
export const QUERY_DEFINITIONS = 'catalog_query_definitions';

/**
 * Migration step 0007: objects form a graph without cycles (assignObject gives an object more
 * parents), and saved query definitions.
 *
 * The closure becomes one row per (ancestor, descendant, length of a path) with the number of
 * such paths, so that removing one link subtracts exactly the paths through it and keeps every
 * other (docs/catalog-interface.md "Storage"). In a tree every count is 1 and the rows are those
 * of step 0002: the same joins answer the same queries. The direct links are the rows of length 1.
 * `catalog_objects.parent_id` stays as the object's first parent (null for a root), which results
 * report as parentId; SQLite cannot change a primary key in place, so the table is rebuilt.
 */
export const catalogGraphMigration: Knex.Migration = {
  async up(knex) {
    const next = `${CLOSURE}_next`;
    await knex.schema.createTable(next, (t) => {
      t.integer('ancestor_id').notNullable().references('id').inTable(OBJECTS).onDelete('CASCADE');
      t.integer('descendant_id').notNullable().references('id').inTable(OBJECTS).onDelete('CASCADE');
      t.integer('depth').notNullable();
      t.bigInteger('paths').notNullable();
      t.primary(['ancestor_id', 'descendant_id', 'depth'], 'catalog_paths_pk');
      t.index(['descendant_id', 'depth'], 'catalog_paths_descendant');
      t.index(['ancestor_id', 'depth'], 'catalog_paths_ancestor');
    });
    await knex.raw(`INSERT INTO ${next} (ancestor_id, descendant_id, depth, paths) SELECT ancestor_id, descendant_id, depth, 1 FROM ${CLOSURE}`);
    await knex.schema.dropTable(CLOSURE);
    await knex.schema.renameTable(next, CLOSURE);

    await knex.schema.createTable(QUERY_DEFINITIONS, (t) => {
      t.increments('id').primary();
      t.string('query_id', 1024).notNullable();
      // A user's definitions go with the user, and follow a rename.
      t.string('owner_dn', 1024).notNullable().references('dn').inTable(USERS).onUpdate('CASCADE').onDelete('CASCADE');
      t.text('title').notNullable();
      t.text('description').notNullable();
      t.boolean('public').notNullable();
      // The queryDefinition element as XML text, as the codecs write it and read it back.
      t.text('definition').notNullable();
      t.bigInteger('created_ms').notNullable();
      t.bigInteger('modified_ms').notNullable();
      t.unique(['query_id'], { indexName: 'catalog_query_definitions_query_id' });
      t.index(['owner_dn', 'id'], 'catalog_query_definitions_owner');
      t.index(['public', 'id'], 'catalog_query_definitions_public');
    });
  },
  async down(knex) {
    await knex.schema.dropTable(QUERY_DEFINITIONS);
    // Down to a tree: only possible while every object has one parent at most.
    const previous = `${CLOSURE}_previous`;
    await knex.schema.createTable(previous, (t) => {
      t.integer('ancestor_id').notNullable().references('id').inTable(OBJECTS).onDelete('CASCADE');
      t.integer('descendant_id').notNullable().references('id').inTable(OBJECTS).onDelete('CASCADE');
      t.integer('depth').notNullable();
      t.primary(['ancestor_id', 'descendant_id'], 'catalog_closure_pk');
      t.index(['descendant_id', 'depth'], 'catalog_closure_descendant');
      t.index(['ancestor_id', 'depth'], 'catalog_closure_ancestor_depth');
    });
    await knex.raw(`INSERT INTO ${previous} (ancestor_id, descendant_id, depth) SELECT ancestor_id, descendant_id, depth FROM ${CLOSURE}`);
    await knex.schema.dropTable(CLOSURE);
    await knex.schema.renameTable(previous, CLOSURE);
  },
};

/**
 * Migration step 0017: each object's content version (ObjectRecord.contentVersion), which every
 * change of its properties moves, so a process may keep what it rendered of an object and know
 * from the version read with the object whether it is still current (catalog/property-trees.ts).
 * A column with a constant default: neither engine rewrites the table to add it.
 */
export const catalogContentVersionMigration: Knex.Migration = {
  async up(knex) {
    await knex.schema.alterTable(OBJECTS, (t) => {
      t.bigInteger('content_version').notNullable().defaultTo(0);
    });
  },
  async down(knex) {
    await knex.raw(`ALTER TABLE ${OBJECTS} DROP COLUMN content_version`);
  },
};
