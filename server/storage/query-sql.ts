import type { Knex } from 'knex';
import type { Comparison, Dialect, JsonSource, ScalarType } from './dialect.js';
import { QueryError, type ParsedQuery, type QueryValue, type Term } from './query-language.js';

/** What the schema says about a field (from the generated kind descriptor). */
export interface FieldInfo {
  readonly type: string;
  readonly arrays: readonly number[];
}

export type FieldTable = Readonly<Record<string, FieldInfo>>;

/** Fields that live in their own columns as well as in the document. */
const COLUMN_FIELDS: ReadonlyMap<string, ScalarType> = new Map([['id', 'string'], ['ts', 'number']]);
/** UNIS compares these as numbers even when untyped (rest-contract §5). */
const NUMERIC_BY_CONVENTION = new Set(['ts', 'ttl']);

const OPERATORS: Record<Exclude<Term['operator'], 'eq'>, Comparison> = { lt: '<', lte: '<=', gt: '>', gte: '>=' };

interface Typed {
  readonly type: ScalarType;
  readonly value: string | number | boolean;
}

/**
 * The type a value compares as: its explicit prefix; else the number convention of `ts`/`ttl`;
 * else the schema's type for the field when the text fits it; else a string.
 */
function typeValue(term: Term, value: QueryValue, field: FieldInfo | undefined): Typed {
  const path = term.field.join('.');
  if (value.type !== undefined) {
    return { type: value.type === 'integer' ? 'number' : value.type, value: value.value };
  }
  const text = String(value.value);
  const declared = field?.type;
  if (NUMERIC_BY_CONVENTION.has(path) || declared === 'integer' || declared === 'number') {
    if (/^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) return { type: 'number', value: Number(text) };
    if (NUMERIC_BY_CONVENTION.has(path)) throw new QueryError(term.parameter, `"${term.parameter}": ${path} compares as a number; "${text}" is not one`);
  }
  if (declared === 'boolean' && (text === 'true' || text === 'false')) return { type: 'boolean', value: text === 'true' };
  return { type: 'string', value: text };
}

/** Compiles parsed queries into WHERE and ORDER BY clauses for one dialect. */
export class QueryCompiler {
  constructor(private readonly dialect: Dialect) {}

  /** Add the query's conditions to `builder`, whose table holds `id`, `ts` and `doc`. */
  where(builder: Knex.QueryBuilder, query: ParsedQuery, fields: FieldTable): Knex.QueryBuilder {
    let alias = 0;
    const nextAlias = (): string => `e${alias++}`;
    for (const condition of query.conditions) {
      const parts: string[] = [];
      const bindings: unknown[] = [];
      for (const term of condition.terms) {
        const compiled = this.term(term, fields, nextAlias);
        parts.push(compiled.sql);
        bindings.push(...compiled.bindings);
      }
      builder.whereRaw(parts.length === 1 ? parts[0]! : `(${parts.join(' OR ')})`, bindings as Knex.RawBinding[]);
    }
    return builder;
  }

  /** Order by the query's sort keys, then by the default order. */
  orderBy(builder: Knex.QueryBuilder, query: ParsedQuery, newestFirst: boolean): Knex.QueryBuilder {
    for (const key of query.sort) {
      const path = key.field.join('.');
      const direction = key.descending ? 'DESC' : 'ASC';
      // Missing values sort first ascending and last descending, the same in every dialect.
      const nulls = key.descending ? 'NULLS LAST' : 'NULLS FIRST';
      const expressions = COLUMN_FIELDS.has(path) ? [path] : this.dialect.sortKeys('doc', key.field);
      for (const expression of expressions) builder.orderByRaw(`${expression} ${direction} ${nulls}`);
    }
    const direction = newestFirst ? 'desc' : 'asc';
    return builder.orderBy([{ column: 'ts', order: direction }, { column: 'id', order: direction }]);
  }

  private term(term: Term, fields: FieldTable, nextAlias: () => string): { sql: string; bindings: unknown[] } {
    const path = term.field.join('.');
    // Own members only: `__proto__` or `constructor` are field names like any other.
    const info = Object.hasOwn(fields, path) ? fields[path] : undefined;
    if (term.values.length === 0) return { sql: '1 = 0', bindings: [] };
    const typed = term.values.map((v) => typeValue(term, v, info));
    const type = typed[0]!.type;
    if (typed.some((t) => t.type !== type)) {
      throw new QueryError(term.parameter, `"${term.parameter}": the values of one list must have one type`);
    }
    if (type === 'boolean' && term.operator !== 'eq') {
      throw new QueryError(term.parameter, `"${term.parameter}": booleans can only be compared for equality`);
    }
    const comparison: Comparison = term.operator === 'eq' ? (typed.length > 1 ? 'IN' : '=') : OPERATORS[term.operator];
    const bindings = typed.map((t) => this.dialect.bindValue(t.value, t.type));

    const column = COLUMN_FIELDS.get(path);
    if (column !== undefined) {
      if (type !== column) return { sql: '1 = 0', bindings: [] };
      const right = comparison === 'IN' ? `IN (${bindings.map(() => '?').join(', ')})` : `${comparison} ?`;
      return { sql: `${path} ${right}`, bindings };
    }
    const doc: JsonSource = { kind: 'column', column: 'doc' };
    if (info === undefined) {
      // A field the schema does not name (kinds are open) may hold a list: match the value
      // itself or any of its elements, as UNIS's Mongo queries did.
      const direct = this.dialect.compare(doc, term.field, comparison, type, bindings.length);
      const elements = this.path(doc, term.field, [term.field.length - 1], comparison, type, bindings.length, nextAlias);
      return { sql: `(${direct} OR ${elements})`, bindings: [...bindings, ...bindings] };
    }
    const sql = this.path(doc, term.field, info.arrays, comparison, type, bindings.length, nextAlias);
    return { sql, bindings };
  }

  /** Compare at `segments`, searching through each array on the way (UNIS's Mongo semantics). */
  private path(
    source: JsonSource,
    segments: readonly string[],
    arrays: readonly number[],
    comparison: Comparison,
    type: ScalarType,
    count: number,
    nextAlias: () => string,
  ): string {
    const [first, ...later] = arrays;
    if (first === undefined) return this.dialect.compare(source, segments, comparison, type, count);
    const alias = nextAlias();
    const inner = this.path(
      { kind: 'element', alias },
      segments.slice(first + 1),
      later.map((position) => position - first - 1),
      comparison,
      type,
      count,
      nextAlias,
    );
    return `EXISTS (SELECT 1 FROM ${this.dialect.arrayElements(source, segments.slice(0, first + 1), alias)} WHERE ${inner})`;
  }
}
