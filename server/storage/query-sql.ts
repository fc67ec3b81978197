import type { Knex } from 'knex';
import type { Condition, Predicate } from '../query/tree.js';
import type { SortKey } from '../query/syntax.js';
import type { Dialect, JsonSource } from './dialect.js';
import { QueryTooLarge } from './errors.js';

interface Compiled {
  readonly sql: string;
  readonly bindings: readonly unknown[];
}

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
function mergeEqualities(predicates: readonly Predicate[]): Predicate[] {
  const merged: Predicate[] = [];
  const equalities = new Map<string, { index: number; values: Predicate['values'][number][] }>();
  for (const predicate of predicates) {
    if (predicate.comparison !== '=' && predicate.comparison !== 'IN') {
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
    if (values.length > merged[index]!.values.length) merged[index] = { ...merged[index]!, comparison: 'IN', values };
  }
  return merged;
}

/**
 * Compiles typed conditions (server/query/tree.ts) into WHERE and ORDER BY clauses for one
 * dialect. The matcher of events (server/query/match.ts) evaluates the same tree in memory, with
 * the same answers.
 */
export class QueryCompiler {
  constructor(private readonly dialect: Dialect) {}

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
      const compiled = anyOf(mergeEqualities(condition.anyOf).map((predicate) => this.predicate(predicate, nextAlias)));
      clauses.push(compiled);
      bindings += compiled.bindings.length;
    }
    // Refused before the engine sees it: past its limit SQLite says "too many SQL variables" and
    // PostgreSQL a protocol violation; the few the rest of the statement binds are left room.
    const limit = this.dialect.limits.bindings - 16;
    if (bindings > limit) throw new QueryTooLarge(`${bindings} values to bind, at most ${limit}`);
    for (const clause of clauses) builder.whereRaw(clause.sql, clause.bindings as Knex.RawBinding[]);
    return builder;
  }

  /** Order by the sort keys, then by the default order. */
  orderBy(builder: Knex.QueryBuilder, sort: readonly SortKey[], newestFirst: boolean): Knex.QueryBuilder {
    for (const key of sort) {
      const path = key.field.join('.');
      const direction = key.descending ? 'DESC' : 'ASC';
      // Missing values sort first ascending and last descending, the same in every dialect.
      const nulls = key.descending ? 'NULLS LAST' : 'NULLS FIRST';
      const expressions = path === 'id' || path === 'ts' ? [path] : this.dialect.json.sortKeys('doc', key.field);
      for (const expression of expressions) builder.orderByRaw(`${expression} ${direction} ${nulls}`);
    }
    const direction = newestFirst ? 'desc' : 'asc';
    return builder.orderBy([{ column: 'ts', order: direction }, { column: 'id', order: direction }]);
  }

  private predicate(predicate: Predicate, nextAlias: () => string): Compiled {
    const { target, comparison, type, values } = predicate;
    const bindings = values.map((value) => this.dialect.json.bindValue(value, type));
    if (target.kind === 'column') {
      const right = comparison === 'IN' ? `IN (${bindings.map(() => '?').join(', ')})` : `${comparison} ?`;
      return { sql: `${target.column} ${right}`, bindings };
    }
    const doc: JsonSource = { kind: 'column', column: 'doc' };
    if (target.kind === 'open') {
      // The value itself, or any element when it is a list, as UNIS's Mongo queries matched.
      const direct = this.dialect.json.compare(doc, target.segments, comparison, type, bindings.length);
      const elements = this.path(doc, target.segments, [target.segments.length - 1], predicate, nextAlias);
      return { sql: `(${direct} OR ${elements})`, bindings: [...bindings, ...bindings] };
    }
    return { sql: this.path(doc, target.segments, target.arrays, predicate, nextAlias), bindings };
  }

  /** Compare at `segments`, searching through each array on the way (UNIS's Mongo semantics). */
  private path(source: JsonSource, segments: readonly string[], arrays: readonly number[], predicate: Predicate, nextAlias: () => string): string {
    const [first, ...later] = arrays;
    if (first === undefined) return this.dialect.json.compare(source, segments, predicate.comparison, predicate.type, predicate.values.length);
    const alias = nextAlias();
    const inner = this.path(
      { kind: 'element', alias },
      segments.slice(first + 1),
      later.map((position) => position - first - 1),
      predicate,
      nextAlias,
    );
    return `EXISTS (SELECT 1 FROM ${this.dialect.json.arrayElements(source, segments.slice(0, first + 1), alias)} WHERE ${inner})`;
  }
}
