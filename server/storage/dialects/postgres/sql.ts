import type { ColumnSql, Comparison, JsonSource, JsonSql, ScalarType } from '../../contract/sql.js';

/** `'{"a","b"}'`: a text[] literal for #> and #>>. Quoted, so a segment named `null` stays a name. */
export function jsonPath(segments: readonly string[]): string {
  return `'{${segments.map((s) => `"${s}"`).join(',')}}'`;
}

/**
 * The JSON value at `segments` of `from` (`text`: as text). `#>` reads a segment of digits as an
 * index into a list; a segment is a member name in the query language (as SQLite reads it), so
 * such a path steps with `->` and a text key, which finds nothing in a list.
 */
function valueAt(from: string, segments: readonly string[], text = false): string {
  if (!segments.some((segment) => /^\d+$/.test(segment))) return `(${from} ${text ? '#>>' : '#>'} ${jsonPath(segments)})`;
  const value = segments.reduce((expression, segment) => `(${expression} -> '${segment}')`, from);
  return text ? `(${value} #>> '{}')` : value;
}

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The JSON (jsonb) value at `segments` of `source`. */
function value(source: JsonSource, segments: readonly string[]): string {
  const from = source.kind === 'column' ? source.column : `${source.alias}.value`;
  return segments.length === 0 ? from : valueAt(from, segments);
}

/** The same value as text: a string's own characters; the expression the indexes are built on. */
function text(source: JsonSource, segments: readonly string[]): string {
  return valueAt(source.kind === 'column' ? source.column : `${source.alias}.value`, segments, true);
}

/**
 * Documents are jsonb. String conditions are written as `(doc #>> '{a,b}') COLLATE "C"`, exactly
 * the expression of the `x-index` indexes, so the planner uses them; "C" makes comparisons and
 * ordering bytewise, as in SQLite, whatever the database's default collation.
 */
export const postgresJson: JsonSql = {
  compare(source: JsonSource, segments: readonly string[], comparison: Comparison, type: ScalarType, count: number): string {
    const v = value(source, segments);
    const right = comparison === 'IN' ? `IN (${Array(count).fill('?').join(', ')})` : `${comparison} ?`;
    switch (type) {
      case 'string':
        return `(jsonb_typeof(${v}) = 'string' AND ${text(source, segments)} COLLATE "C" ${right})`;
      // AND does not fix the order of evaluation in PostgreSQL; CASE does, so odd data (a string
      // where a number was expected) is never cast.
      case 'number':
        return `(CASE WHEN jsonb_typeof(${v}) = 'number' THEN (${v})::numeric END ${right})`;
      case 'boolean':
        return `(CASE WHEN jsonb_typeof(${v}) = 'boolean' THEN (${v})::boolean END ${right})`;
    }
  },

  foldedEquals(source: JsonSource, segments: readonly string[]): string {
    // ASCII letters only, as foldAscii (query/match.ts) and SQLite's lower(); lower() here
    // would follow the locale.
    return `(jsonb_typeof(${value(source, segments)}) = 'string' AND translate(${text(source, segments)}, '${UPPER}', '${UPPER.toLowerCase()}') COLLATE "C" = ?)`;
  },

  matches(source: JsonSource, segments: readonly string[]): string {
    // The pattern is RE2's, written as an ARE of the same meaning (query/regex.ts).
    return `(jsonb_typeof(${value(source, segments)}) = 'string' AND ${text(source, segments)} ~* ?)`;
  },

  matchesText(expression: string): string {
    return `(${expression} ~* ?)`;
  },

  foldText(expression: string): string {
    return `translate(${expression}, '${UPPER}', '${UPPER.toLowerCase()}') COLLATE "C"`;
  },

  bindPattern(pattern): string {
    return pattern.posix;
  },

  present(source: JsonSource, segments: readonly string[]): string {
    // JSON null is the jsonb 'null', not SQL NULL; a path that leaves the objects is SQL NULL.
    return `(${value(source, segments)} IS NOT NULL)`;
  },

  absent(source: JsonSource, segments: readonly string[]): string {
    return `(COALESCE(jsonb_typeof(${value(source, segments)}), 'null') = 'null')`;
  },

  text(source: JsonSource, segments: readonly string[]): string {
    return `(CASE WHEN jsonb_typeof(${value(source, segments)}) = 'string' THEN ${text(source, segments)} END)`;
  },

  lastSegment(expression: string): string {
    return `regexp_replace(${expression}, '^.*/', '')`;
  },

  bindValue(v: string | number | boolean): unknown {
    return v;
  },

  arrayElements(source: JsonSource, segments: readonly string[], alias: string): string {
    const v = value(source, segments);
    // jsonb_array_elements raises on a non-array; NULL gives no rows.
    return `jsonb_array_elements(CASE WHEN jsonb_typeof(${v}) = 'array' THEN ${v} END) AS ${alias}(value)`;
  },

  sortKeys(column: string, segments: readonly string[]): string[] {
    const v = valueAt(column, segments);
    const type = `jsonb_typeof(${v})`;
    // SQLite's order of json_extract values: NULL (missing or JSON null), then numbers with
    // booleans as 0 and 1, then text (strings; objects and arrays as their JSON), bytewise.
    return [
      `CASE ${type} WHEN 'number' THEN 0 WHEN 'boolean' THEN 0 WHEN 'string' THEN 1 WHEN 'object' THEN 1 WHEN 'array' THEN 1 END`,
      `CASE ${type} WHEN 'number' THEN (${v})::numeric WHEN 'boolean' THEN CASE WHEN (${v})::boolean THEN 1 ELSE 0 END END`,
      `CASE WHEN ${type} IN ('string', 'object', 'array') THEN ${valueAt(column, segments, true)} END COLLATE "C"`,
    ];
  },
};

export const postgresColumns: ColumnSql = {
  keepsText: false,
  documentValue(knex, json: string) {
    return knex.raw('?::jsonb', [json]);
  },

  documentText(knex, column: string, alias = column) {
    // The stored JSON as text: no parse and re-serialise on the way to the client. jsonb keeps
    // its keys sorted, so a client's `$schema` that the document keeps (wire/representation.ts)
    // is moved to the front, where documentText (storage/document-text.ts) looks for it.
    return knex.raw(`CASE WHEN ??->'$schema' IS NULL THEN ??::text ELSE '{"$schema":' || (??->'$schema')::text || ',' || substr((?? - '$schema')::text, 2) END AS ??`, [column, column, column, column, alias]);
  },

  jsonRows(columns: readonly string[]): string {
    // json_agg of no rows is NULL; as text, so pg hands over the string rather than parsing it.
    return `COALESCE(json_agg(json_build_array(${columns.join(', ')})), '[]'::json)::text`;
  },

  documentArray(column: string, orderBy: string): string {
    return `'[' || COALESCE(string_agg(${column}::text, ',' ORDER BY ${orderBy}), '') || ']'`;
  },

  byteOrder(expression: string): string {
    // Code-point order, as SQLite compares, whatever the database's collation.
    return `${expression} COLLATE "C"`;
  },

  inTexts(expression: string): string {
    return `${expression} IN (SELECT json_array_elements_text(?::json))`;
  },

  withoutMembers(column: string, members: readonly string[]): string {
    return [column, ...members.map((m) => `'${m}'`)].join(' - ');
  },
};
