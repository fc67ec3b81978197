import type { Knex } from 'knex';
import type { Condition, Predicate } from '../query/tree.js';
import type { SortKey } from '../query/syntax.js';
import type { Dialect, JsonSource } from './dialect.js';

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
    for (const condition of conditions) {
      if (condition.anyOf.length === 0) {
        builder.whereRaw('1 = 0');
        continue;
      }
      const parts: string[] = [];
      const bindings: unknown[] = [];
      for (const predicate of condition.anyOf) {
        const compiled = this.predicate(predicate, nextAlias);
        parts.push(compiled.sql);
        bindings.push(...compiled.bindings);
      }
      builder.whereRaw(parts.length === 1 ? parts[0]! : `(${parts.join(' OR ')})`, bindings as Knex.RawBinding[]);
    }
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

  private predicate(predicate: Predicate, nextAlias: () => string): { sql: string; bindings: unknown[] } {
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
