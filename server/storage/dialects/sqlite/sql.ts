import type { ColumnSql, Comparison, JsonSource, JsonSql, ScalarType } from '../../contract/sql.js';
import { REGEXP_FUNCTION } from './functions.js';

/** `$."a"."b"`: a JSON path literal for json_extract; segments never contain quotes. */
export function jsonPath(segments: readonly string[]): string {
  return `'$${segments.map((s) => `."${s}"`).join('')}'`;
}

/**
 * JSON text to apply a path to: the document column, or an element of an array being searched
 * when it is an object. json_each gives a scalar element as an SQL value (a string unquoted),
 * which is no JSON text: a path applied to it would fail the statement ("malformed JSON").
 */
function jsonOf(source: JsonSource): string {
  return source.kind === 'column' ? source.column : `(CASE ${source.alias}.type WHEN 'object' THEN ${source.alias}.value END)`;
}

/** The SQL value and the JSON type at `segments` of `source`. */
function at(source: JsonSource, segments: readonly string[]): { value: string; jsonType: string } {
  if (source.kind === 'element' && segments.length === 0) {
    // json_each gives a scalar element's SQL value in `atom` and its JSON type in `type`.
    return { value: `${source.alias}.atom`, jsonType: `${source.alias}.type` };
  }
  const from = jsonOf(source);
  return { value: `json_extract(${from}, ${jsonPath(segments)})`, jsonType: `json_type(${from}, ${jsonPath(segments)})` };
}

const JSON_TYPES: Record<ScalarType, string> = {
  string: "('text')",
  number: "('integer','real')",
  boolean: "('true','false')",
};

/** JSON documents are text; json_extract reads them, and its results order as the interface promises. */
export const sqliteJson: JsonSql = {
  compare(source: JsonSource, segments: readonly string[], comparison: Comparison, type: ScalarType, count: number): string {
    const { value, jsonType } = at(source, segments);
    const right = comparison === 'IN' ? `IN (${Array(count).fill('?').join(', ')})` : `${comparison} ?`;
    // The type guard is needed even for strings: SQLite orders every number before every text,
    // so `< 'b'` alone would match numbers. The bare value expression stays a conjunct of its
    // own, the one the expression indexes are built on.
    return `(${jsonType} IN ${JSON_TYPES[type]} AND ${value} ${right})`;
  },

  foldedEquals(source: JsonSource, segments: readonly string[]): string {
    // lower() of SQLite (without ICU) folds ASCII letters only, as foldAscii (query/match.ts).
    const { value, jsonType } = at(source, segments);
    return `(${jsonType} = 'text' AND lower(${value}) = ?)`;
  },

  matches(source: JsonSource, segments: readonly string[]): string {
    // RE2 itself, registered on every connection (functions.ts).
    const { value, jsonType } = at(source, segments);
    return `(${jsonType} = 'text' AND ${REGEXP_FUNCTION}(?, ${value}))`;
  },

  matchesText(expression: string): string {
    return `${REGEXP_FUNCTION}(?, ${expression})`;
  },

  foldText(expression: string): string {
    return `lower(${expression})`;
  },

  bindPattern(pattern): string {
    return pattern.source;
  },

  present(source: JsonSource, segments: readonly string[]): string {
    // json_type is 'null' for JSON null, SQL NULL where nothing is (or the source is no object).
    return `(${at(source, segments).jsonType} IS NOT NULL)`;
  },

  absent(source: JsonSource, segments: readonly string[]): string {
    return `(COALESCE(${at(source, segments).jsonType}, 'null') = 'null')`;
  },

  text(source: JsonSource, segments: readonly string[]): string {
    const { value, jsonType } = at(source, segments);
    return `(CASE WHEN ${jsonType} = 'text' THEN ${value} END)`;
  },

  lastSegment(expression: string): string {
    // rtrim by every character but '/' leaves the text up to its last '/'.
    return `substr(${expression}, length(rtrim(${expression}, replace(${expression}, '/', ''))) + 1)`;
  },

  bindValue(value: string | number | boolean, type: ScalarType): unknown {
    return type === 'boolean' ? (value ? 1 : 0) : value;
  },

  arrayElements(source: JsonSource, segments: readonly string[], alias: string): string {
    const from = jsonOf(source);
    // json_each on a non-array would walk an object's members; only arrays are searched.
    return `json_each(CASE json_type(${from}, ${jsonPath(segments)}) WHEN 'array' THEN json_extract(${from}, ${jsonPath(segments)}) ELSE '[]' END) AS ${alias}`;
  },

  sortKeys(column: string, segments: readonly string[]): string[] {
    // json_extract yields NULL, numbers (true and false as 1 and 0) or text: SQLite's own order
    // of those storage classes is the order the interface promises.
    return [`json_extract(${column}, ${jsonPath(segments)})`];
  },
};

export const sqliteColumns: ColumnSql = {
  keepsText: true,
  documentValue(_knex, json: string): string {
    return json;
  },

  documentText(_knex, column: string, alias = column): string {
    return alias === column ? column : `${column} as ${alias}`;
  },

  jsonRows(columns: readonly string[]): string {
    return `json_group_array(json_array(${columns.join(', ')}))`;
  },

  documentArray(column: string, orderBy: string): string {
    return `'[' || COALESCE(group_concat(${column}, ',' ORDER BY ${orderBy}), '') || ']'`;
  },

  byteOrder(expression: string): string {
    // Text compares with the BINARY collation unless told otherwise.
    return expression;
  },

  inTexts(expression: string): string {
    return `${expression} IN (SELECT value FROM json_each(?))`;
  },

  withoutMembers(column: string, members: readonly string[]): string {
    return `json_remove(${column}, ${members.map((m) => jsonPath([m])).join(', ')})`;
  },
};
