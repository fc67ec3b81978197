import type { Knex } from 'knex';
import type { DialectUses } from '../contract/database.js';
import type { ConditionSet, ContextCondition, ElementCondition, ElementTest, ObjectCondition, Operand, PropertyCondition, PropertyTest, TargetQuery } from './conditions.js';
import { CLOSURE, ELEMENTS, OBJECTS, PROPERTIES } from './tables.js';
import { folded, textKey } from './values.js';

/** What the catalog's condition compiler uses of the Dialect. */
export type ConditionDialect = DialectUses<{ sql: 'columns' }>;

/** A WHERE condition with its bound values, in placeholder order. */
export interface SqlCondition {
  readonly text: string;
  readonly bindings: readonly Knex.Value[];
}

/** `!` escapes LIKE wildcards; a character with no special meaning in either dialect's strings. */
const LIKE_ESCAPE = '!';

function likeLiteral(text: string): string {
  return folded(text).replace(/[!%_]/g, (c) => LIKE_ESCAPE + c);
}

/**
 * Compiles catalog query conditions into one SQL condition on the target alias `o`.
 *
 * Every property, element and context condition is a semi-join written as `key IN (SELECT …)`
 * with an uncorrelated sub-query: "some instance / element / related object exists" exactly as
 * an EXISTS would say, but with no outer reference for a planner to flatten. (SQLite 3.52's
 * rewrite of correlated EXISTS into joins returns wrong rows for a nested EXISTS when the outer
 * query has a LEFT JOIN and an ORDER BY; test/catalog/queries.test.ts has the case. SQLite
 * 3.53 no longer does, but drives such a query from every object of the target's class: 78 ms
 * for the bench's context query.) Both sides of every IN are NOT NULL, so NOT keeps two-valued
 * logic. Context relations use the closure table (paths of length 1 for the direct ones).
 *
 * Two shapes let the planner start from whichever side is narrower, inside one sub-query:
 * - A property's plain element conditions (not negated, not in a set) are joins of the
 *   property's semi-join, each with its whole test in one condition (a typed comparison's two
 *   halves each with the element's name and source, so SQLite seeks each in its own index).
 * - A context that is not negated goes inside the semi-join of the target's first plain
 *   property condition (`p.object_id IN (the context's set)`), not beside it: "some instance
 *   whose object is in the context" is the same set of targets.
 * On the bench's file (101,100 objects; COLLECTIONs with grid dx < 5 under one PROJECT) the
 * semi-joins side by side made SQLite build the set of all 10,000 matching elements before it
 * met the project's 1,010 descendants: 12.8–16.7 ms; with both shapes it walks the descendants
 * and seeks their properties and elements: 1.1–2.2 ms. Without a context the plan is the same
 * as before (the elements by their (name, source, value) index).
 *
 * Values are always bound; only aliases and table names are written into the text.
 * Placeholders are emitted strictly left to right, and every value is bound at the moment its
 * placeholder is written, so the bindings always line up with the text.
 */
export class ConditionCompiler {
  private readonly bindings: Knex.Value[] = [];
  private aliases = 0;

  private constructor(private readonly dialect: ConditionDialect) {}

  /** The condition that makes `o` a target of `query`. */
  static target(dialect: ConditionDialect, query: TargetQuery, alias: string): SqlCondition {
    const compiler = new ConditionCompiler(dialect);
    const { context, target, visibleTo } = query;
    const inContext = context ? (key: string) => compiler.set(context, (c) => compiler.context(key, c, visibleTo)) : undefined;
    // Inside a property's semi-join only when that semi-join must hold (see the class comment).
    const within = inContext && !context!.negate && !target.negate && target.properties.some(isPlain) ? inContext : undefined;
    const parts = [compiler.visible(alias, visibleTo), compiler.object(alias, target, within)];
    if (inContext && !within) parts.push(inContext(`${alias}.id`));
    return { text: parts.join(' AND '), bindings: compiler.bindings };
  }

  private bind(value: Knex.Value): string {
    this.bindings.push(value);
    return '?';
  }

  private alias(prefix: string): string {
    return `${prefix}${++this.aliases}`;
  }

  private visible(alias: string, owners: readonly string[]): string {
    return `${alias}.owner_dn IN (${owners.map((dn) => this.bind(dn)).join(', ')})`;
  }

  private set<T>(set: ConditionSet<T>, item: (condition: T) => string): string {
    const joined = set.items.map(item).join(set.kind === 'any' ? ' OR ' : ' AND ');
    return set.negate ? `NOT (${joined})` : `(${joined})`;
  }

  /** @param within a condition on an object id, put inside the semi-join of the first plain property. */
  private object(alias: string, condition: ObjectCondition, within?: (key: string) => string): string {
    const parts = [`${alias}.class = ${this.bind(condition.objectClass)}`];
    if (condition.guid !== undefined) parts.push(`${alias}.guid = ${this.bind(condition.guid)}`);
    if (condition.createdFrom !== undefined) parts.push(`${alias}.created_ms >= ${this.bind(condition.createdFrom)}`);
    if (condition.createdTo !== undefined) parts.push(`${alias}.created_ms <= ${this.bind(condition.createdTo)}`);
    const host = within ? condition.properties.find(isPlain) : undefined;
    for (const property of condition.properties) parts.push(this.property({ object: alias }, property, property === host ? within : undefined));
    const joined = parts.join(' AND ');
    return condition.negate ? `NOT (${joined})` : `(${joined})`;
  }

  /**
   * Top-level properties belong to an object; nested ones to an enclosing property instance.
   * @param within a condition on the instance's object id, inside the semi-join.
   */
  private property(owner: { object: string } | { property: string }, condition: PropertyCondition, within?: (key: string) => string): string {
    if (condition.kind !== 'property') return this.set(condition, (c) => this.property(owner, c));
    const p = this.alias('p');
    const [key, selected, scope] =
      'object' in owner ? [`${owner.object}.id`, `${p}.object_id`, `${p}.parent_property_id IS NULL`] : [`${owner.property}.id`, `${p}.parent_property_id`, `${p}.parent_property_id IS NOT NULL`];
    const parts = [scope, `${p}.name = ${this.bind(condition.name)}`, `${p}.source = ${this.bind(condition.source)}`];
    const joins: string[] = [];
    for (const element of condition.elements) {
      if (isPlain(element)) {
        // Some element of this instance passes: a join, so the planner may start from either table.
        const e = this.alias('e');
        joins.push(` JOIN ${ELEMENTS} ${e} ON ${e}.property_id = ${p}.id`);
        const passing = this.elementTests(element).map((test) => test(e));
        parts.push(passing.length === 1 ? passing[0]! : `(${passing.join(' OR ')})`);
      } else parts.push(this.element(p, element));
    }
    for (const sub of condition.properties) parts.push(this.property({ property: p }, sub));
    if (within) parts.push(within(`${p}.object_id`));
    const semiJoin = `${key} IN (SELECT ${selected} FROM ${PROPERTIES} ${p}${joins.join('')} WHERE ${parts.join(' AND ')})`;
    return condition.negate ? `NOT (${semiJoin})` : semiJoin;
  }

  private element(property: string, condition: ElementCondition): string {
    if (condition.kind !== 'element') return this.set(condition, (c) => this.element(property, c));
    const selects = this.elementTests(condition).map((test) => {
      const e = this.alias('e');
      return `SELECT ${e}.property_id FROM ${ELEMENTS} ${e} WHERE ${test(e)}`;
    });
    const semiJoin = `${property}.id IN (${selects.join(' UNION ALL ')})`;
    return condition.negate ? `NOT (${semiJoin})` : semiJoin;
  }

  /**
   * The tests an element passes by passing any one of: one, or for typed comparisons two, so that
   * each can seek its own (name, source, column) index: the elements of that type, and the
   * elements without a value of that type, which compare as text (docs/catalog-operations.md).
   * Each names the element, and binds its values when it is applied to an alias.
   */
  private elementTests(condition: ElementTest): ((e: string) => string)[] {
    const select =
      (test: (e: string) => string | undefined) =>
      (e: string): string => {
        const parts = [`${e}.name = ${this.bind(condition.name)}`, `${e}.source = ${this.bind(condition.source)}`];
        const passes = test(e);
        if (passes) parts.push(passes);
        return `(${parts.join(' AND ')})`;
      };
    const test = condition.test;
    if (test === undefined) return [select(() => undefined)];
    const text = (e: string) => this.dialect.sql.columns.byteOrder(`${e}.text_value`);
    switch (test.kind) {
      case 'exact':
        return [select((e) => `${e}.text_key = ${this.bind(textKey(test.text))} AND ${e}.text_value = ${this.bind(test.text)}`)];
      case 'prefix':
        return [select((e) => `${e}.text_folded LIKE ${this.bind(`${likeLiteral(test.text)}%`)} ESCAPE '${LIKE_ESCAPE}'`)];
      case 'substring':
        return [select((e) => `${e}.text_folded LIKE ${this.bind(`%${likeLiteral(test.text)}%`)} ESCAPE '${LIKE_ESCAPE}'`)];
      case 'compare': {
        const typed = this.typedColumn([test.operand]);
        const textTest = (e: string) => `${text(e)} ${test.comparator} ${this.bind(test.operand.text)}`;
        if (!typed) return [select(textTest)];
        return [
          select((e) => `${e}.${typed.column} ${test.comparator} ${this.bind(typed.valueOf(test.operand))}`),
          select((e) => `${e}.${typed.column} IS NULL AND ${textTest(e)}`),
        ];
      }
      case 'range': {
        const typed = this.typedColumn([test.start, test.end]);
        const textTest = (e: string) => `${text(e)} BETWEEN ${this.bind(test.start.text)} AND ${this.bind(test.end.text)}`;
        if (!typed) return [select(textTest)];
        return [
          select((e) => `${e}.${typed.column} BETWEEN ${this.bind(typed.valueOf(test.start))} AND ${this.bind(typed.valueOf(test.end))}`),
          select((e) => `${e}.${typed.column} IS NULL AND ${textTest(e)}`),
        ];
      }
    }
  }

  /** The typed column every operand has a value for (numbers first), and how to read that value. */
  private typedColumn(operands: readonly Operand[]): { column: 'num_value' | 'time_value'; valueOf: (o: Operand) => number } | undefined {
    if (operands.every((o) => o.number !== undefined)) return { column: 'num_value', valueOf: (o) => o.number! };
    if (operands.every((o) => o.time !== undefined)) return { column: 'time_value', valueOf: (o) => o.time! };
    return undefined;
  }

  /** @param key the anchor's object id (a column or an alias's id). */
  private context(key: string, condition: ContextCondition, owners: readonly string[]): string {
    if (condition.kind !== 'related') return this.set(condition, (c) => this.context(key, c, owners));
    const y = this.alias('y');
    // Up: the anchor is a descendant of y; down: an ancestor. Direct relations are the links
    // (paths of length 1); an object may have several parents (assignObject).
    const c = this.alias('c');
    const up = condition.relation === 'parent' || condition.relation === 'ancestor';
    const direct = condition.relation === 'parent' || condition.relation === 'child';
    const select = up
      ? `${c}.descendant_id FROM ${CLOSURE} ${c} JOIN ${OBJECTS} ${y} ON ${y}.id = ${c}.ancestor_id`
      : `${c}.ancestor_id FROM ${CLOSURE} ${c} JOIN ${OBJECTS} ${y} ON ${y}.id = ${c}.descendant_id`;
    const parts = [direct ? `${c}.depth = 1` : `${c}.depth > 0`, this.visible(y, owners), this.object(y, condition.object)];
    for (const nested of condition.context) parts.push(this.context(`${y}.id`, nested, owners));
    return `(${key} IN (SELECT ${select} WHERE ${parts.join(' AND ')}))`;
  }
}

/** A condition that must hold as it stands: one property or element test, not negated, not a set. */
function isPlain<T extends PropertyCondition | ElementCondition>(condition: T): condition is Extract<T, PropertyTest | ElementTest> {
  return (condition.kind === 'property' || condition.kind === 'element') && !condition.negate;
}
