import type { Knex } from 'knex';
import { foldAscii } from '../query/match.js';
import type { Condition, Descent, Pattern, Predicate, Test } from '../query/tree.js';
import type { SortKey } from '../query/syntax.js';
import type { DialectUses } from './contract/database.js';
import type { JsonSource } from './contract/sql.js';
import { QueryTooLarge } from './errors.js';

interface Compiled {
  readonly sql: string;
  readonly bindings: readonly unknown[];
}

/** The order of (`ts`, `id`) after the sort keys: of lists and versions, or of the changes between two instants. */
export type DefaultOrder = 'newest first' | 'oldest first';

/** What the query compiler uses of the Dialect. */
export type QueryDialect = DialectUses<{ sql: 'json' | 'columns'; driver: 'limits' }>;

/**
 * The OR of `parts` (at least one), as a balanced tree of parentheses: SQLite parses `a OR b OR
 * c …` into a chain as deep as it is long and refuses one deeper than 1,000 ("Expression tree is
 * too large"), so a query of 1,500 OR terms was a 500; balanced, 1,500 terms are 11 deep.
 * Bindings stay in the order of their placeholders.
 */
function anyOf(parts: readonly Compiled[]): Compiled {
  if (parts.length === 1) return parts[0]!;
  const half = Math.ceil(parts.length / 2);
  const left = anyOf(parts.slice(0, half));
  const right = anyOf(parts.slice(half));
  return { sql: `(${left.sql} OR ${right.sql})`, bindings: [...left.bindings, ...right.bindings] };
}

/**
 * Equalities of one target and type ORed together (`a=x|a=y|…`), as one IN: the same rows, but
 * SQLite's planner takes time quadratic in the terms of an OR to analyse it (preparing 1,500
 * equalities took 94 ms, 20,000 took 6 s; as an IN list, 1 and 2 ms). The other predicates stay
 * as they are, in their order; a merged one takes the place of its first term.
 */
function mergeEqualities(tests: readonly Test[]): Test[] {
  const merged: Test[] = [];
  const equalities = new Map<string, { index: number; values: Predicate['values'][number][] }>();
  for (const predicate of tests) {
    if ((predicate.comparison !== '=' && predicate.comparison !== 'IN') || predicate.fold) {
      merged.push(predicate);
      continue;
    }
    const key = JSON.stringify([predicate.target, predicate.type]);
    const seen = equalities.get(key);
    if (seen) {
      seen.values.push(...predicate.values);
      continue;
    }
    equalities.set(key, { index: merged.length, values: [...predicate.values] });
    merged.push(predicate);
  }
  for (const { index, values } of equalities.values()) {
    const first = merged[index] as Predicate;
    if (values.length > first.values.length) merged[index] = { ...first, comparison: 'IN', values };
  }
  return merged;
}

/**
 * Compiles typed conditions (server/query/tree.ts) into WHERE and ORDER BY clauses for one
 * dialect. The matcher of events (server/query/match.ts) evaluates the same tree in memory, with
 * the same answers.
 */
export class QueryCompiler {
  constructor(private readonly dialect: QueryDialect) {}

  /** Add the conditions to `builder`, whose table holds `id`, `ts` and `doc`. */
  where(builder: Knex.QueryBuilder, conditions: readonly Condition[]): Knex.QueryBuilder {
    let alias = 0;
    const nextAlias = (): string => `e${alias++}`;
    const clauses: Compiled[] = [];
    let bindings = 0;
    for (const condition of conditions) {
      if (condition.anyOf.length === 0) {
        clauses.push({ sql: '1 = 0', bindings: [] });
        continue;
      }
      const compiled = anyOf(mergeEqualities(condition.anyOf).map((test) => this.predicate(test, nextAlias)));
      clauses.push(compiled);
      bindings += compiled.bindings.length;
    }
    // Refused before the engine sees it: past its limit SQLite says "too many SQL variables" and
    // PostgreSQL a protocol violation; the few the rest of the statement binds are left room.
    const limit = this.dialect.driver.limits.bindings - 16;
    if (bindings > limit) throw new QueryTooLarge(`${bindings} values to bind, at most ${limit}`);
    for (const clause of clauses) builder.whereRaw(clause.sql, clause.bindings as Knex.RawBinding[]);
    return builder;
  }

  /**
   * Order by the sort keys, then by `order` on (`ts`, `id`): the whole order without `sort`, the
   * tie-breaker with it. Lists and versions are newest first (rest-contract §5, revised
   * 2026-11-29: UNIS HEAD lists so, `limit=1` is the newest resource), ties by `id` descending
   * too, so the one `(kind, ts)` index read backward serves it exactly as it served oldest first
   * read forward: SQLite walks it backward and sorts only the rows of one `ts` by `id` ("USE TEMP
   * B-TREE FOR RIGHT PART OF ORDER BY"), PostgreSQL an "Index Scan Backward" under an
   * "Incremental Sort" presorted by `ts`; an `x-index` index, which ends in (`ts`, `id`), is read
   * backward with nothing sorted (test/storage/sqlite-plans.test.ts, test/postgres/indexes.test.ts).
   * Only the changes between two instants are oldest first (storage/resources/lists.ts).
   */
  orderBy(builder: Knex.QueryBuilder, sort: readonly SortKey[], order: DefaultOrder): Knex.QueryBuilder {
    for (const key of sort) {
      const path = key.field.join('.');
      const direction = key.descending ? 'DESC' : 'ASC';
      // Missing values sort first ascending and last descending, the same in every dialect.
      const nulls = key.descending ? 'NULLS LAST' : 'NULLS FIRST';
      const expressions = path === 'id' || path === 'ts' ? [path] : this.dialect.sql.json.sortKeys('doc', key.field);
      for (const expression of expressions) builder.orderByRaw(`${expression} ${direction} ${nulls}`);
    }
    const direction = order === 'newest first' ? 'desc' : 'asc';
    return builder.orderBy([{ column: 'ts', order: direction }, { column: 'id', order: direction }]);
  }

  private predicate(test: Test, nextAlias: () => string): { sql: string; bindings: unknown[] } {
    switch (test.comparison) {
      case 'NOT': {
        if (!test.of) return { sql: '1 = 1', bindings: [] };
        // A missing value makes the inner test NULL: then the negation holds.
        const inner = this.predicate(test.of, nextAlias);
        return { sql: `NOT COALESCE(${inner.sql}, 1 = 0)`, bindings: inner.bindings };
      }
      case 'NULL':
        return { sql: test.target.kind === 'column' ? '1 = 0' : this.dialect.sql.json.absent(DOC, test.target.segments), bindings: [] };
      case 'EXISTS': {
        const { target } = test;
        // `id` and `ts` are always there.
        if (target.kind === 'column') return { sql: test.present ? '1 = 1' : '1 = 0', bindings: [] };
        const present = this.path(DOC, target.segments, target.kind === 'field' ? target.arrays : [], (source, segments) => this.dialect.sql.json.present(source, segments), nextAlias);
        return { sql: test.present ? present : `NOT ${present}`, bindings: [] };
      }
      case 'RECFIND':
        return this.descent(test);
      case 'MATCHES':
      case '=':
      case 'IN':
      case '<':
      case '<=':
      case '>':
      case '>=':
        return this.comparison(test, nextAlias);
      default: {
        // A test of the condition tree (server/query/tree.ts) that the compiler does not write yet.
        const unknown: never = test;
        throw new Error(`no SQL for the test ${JSON.stringify(unknown)}`);
      }
    }
  }

  /** A comparison or a pattern, at its target (searching lists on the way). */
  private comparison(predicate: Predicate | Pattern, nextAlias: () => string): { sql: string; bindings: unknown[] } {
    const { target } = predicate;
    const leaf = this.leaf(predicate);
    if (target.kind === 'column') {
      // `ts` is a number: no pattern matches it. `id` is text.
      if (predicate.comparison === 'MATCHES') return target.column === 'ts' ? { sql: '1 = 0', bindings: [] } : { sql: this.dialect.sql.json.matchesText(target.column), bindings: leaf.bindings };
      if (predicate.fold) return { sql: `${this.dialect.sql.json.foldText(target.column)} = ?`, bindings: leaf.bindings };
      const right = predicate.comparison === 'IN' ? `IN (${leaf.bindings.map(() => '?').join(', ')})` : `${predicate.comparison} ?`;
      return { sql: `${target.column} ${right}`, bindings: leaf.bindings };
    }
    if (target.kind === 'open') {
      // The value itself, or any element when it is a list, as UNIS's Mongo queries matched.
      const direct = leaf.sql(DOC, target.segments);
      const elements = this.path(DOC, target.segments, [target.segments.length - 1], leaf.sql, nextAlias);
      return { sql: `(${direct} OR ${elements})`, bindings: [...leaf.bindings, ...leaf.bindings] };
    }
    return { sql: this.path(DOC, target.segments, target.arrays, leaf.sql, nextAlias), bindings: leaf.bindings };
  }

  /** The SQL of a test on one value, and its bindings. */
  private leaf(predicate: Predicate | Pattern): { sql: Leaf; bindings: unknown[] } {
    const json = this.dialect.sql.json;
    if (predicate.comparison === 'MATCHES') {
      if (predicate.posix === undefined) throw new Error('a subscription pattern is matched in memory only');
      return { sql: (source, segments) => json.matches(source, segments), bindings: [json.bindPattern({ source: predicate.source, posix: predicate.posix })] };
    }
    if (predicate.fold) return { sql: (source, segments) => json.foldedEquals(source, segments), bindings: [foldAscii(String(predicate.values[0]))] };
    const { comparison, type, values } = predicate;
    return { sql: (source, segments) => json.compare(source, segments, comparison, type, values.length), bindings: values.map((value) => json.bindValue(value, type)) };
  }

  /**
   * `parent=recfind=<id>` (rest-contract §5): the parent reference ends in the id of the
   * directory or of a directory beneath it, found by a recursive query over the live exnodes
   * (uncorrelated, so each engine runs it once per query).
   */
  private descent(test: Descent): { sql: string; bindings: unknown[] } {
    const json = this.dialect.sql.json;
    const { target } = test;
    if (target.kind === 'column') throw new Error('recfind= is asked of a reference');
    // Ids compare bytewise, as everywhere (PostgreSQL's "C").
    const bytewise = (expression: string): string => this.dialect.sql.columns.byteOrder(expression);
    const parent = (source: JsonSource): string => bytewise(json.lastSegment(json.text(source, target.segments)));
    const member: JsonSource = { kind: 'column', column: 'c.doc' };
    const tree =
      `WITH RECURSIVE tree(id) AS (SELECT ${bytewise('CAST(? AS TEXT)')} UNION SELECT ${bytewise('CAST(c.id AS TEXT)')} FROM ${CURRENT_TABLE} c JOIN tree ON ${parent(member)} = tree.id ` +
      `WHERE c.kind = ? AND ${json.compare(member, ['mode'], '=', 'string', 1)}) SELECT id FROM tree`;
    return { sql: `(${parent(DOC)} IN (${tree}))`, bindings: [test.root, test.collection, json.bindValue('directory', 'string')] };
  }

  /** Test at `segments`, searching through each array on the way (UNIS's Mongo semantics). */
  private path(source: JsonSource, segments: readonly string[], arrays: readonly number[], leaf: Leaf, nextAlias: () => string): string {
    const [first, ...later] = arrays;
    if (first === undefined) return leaf(source, segments);
    const alias = nextAlias();
    const inner = this.path(
      { kind: 'element', alias },
      segments.slice(first + 1),
      later.map((position) => position - first - 1),
      leaf,
      nextAlias,
    );
    return `EXISTS (SELECT 1 FROM ${this.dialect.sql.json.arrayElements(source, segments.slice(0, first + 1), alias)} WHERE ${inner})`;
  }
}

type Leaf = (source: JsonSource, segments: readonly string[]) => string;

const DOC: JsonSource = { kind: 'column', column: 'doc' };
/** The live resources, where `recfind=` looks for directories. */
const CURRENT_TABLE = 'resource_current';
