import { GeneratorError, pointerJoin } from '../errors.js';
import type { References } from './refs.js';
import type { Field, FieldType, JsonSchema, SchemaDocument } from './model.js';

/** Deep enough for every real resource; stops runaway recursion through self-referencing schemas. */
const MAX_DEPTH = 8;

interface Accumulated {
  types: Set<FieldType>;
  arrays: Set<number>;
  indexed: boolean;
}

/**
 * Flattens a kind's schema into the dotted field paths the query language and the typed query
 * builder use. Follows `$ref`, `allOf`/`anyOf`/`oneOf` and `then`/`else`, so that fields of the
 * shared base and of both Link endpoint forms are all known.
 */
export function collectFields(document: SchemaDocument, refs: References): Field[] {
  const found = new Map<string, Accumulated>();

  const record = (segments: string[], arrays: number[], types: FieldType[], indexed: boolean): void => {
    const key = segments.join('.');
    const entry = found.get(key) ?? { types: new Set(), arrays: new Set(), indexed: false };
    types.forEach((t) => entry.types.add(t));
    arrays.forEach((a) => entry.arrays.add(a));
    entry.indexed ||= indexed;
    found.set(key, entry);
  };

  const walk = (
    schema: JsonSchema,
    from: SchemaDocument,
    at: string,
    segments: string[],
    arrays: number[],
    stack: readonly string[],
  ): void => {
    if (segments.length > MAX_DEPTH) return;
    if (typeof schema.$ref === 'string') {
      const target = refs.at(from, at);
      const key = `${target.document.id}#${target.pointer}`;
      if (!stack.includes(key)) walk(target.schema, target.document, target.pointer, segments, arrays, [...stack, key]);
    }
    for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
      const list = schema[keyword];
      if (Array.isArray(list)) list.forEach((sub, i) => walk(sub as JsonSchema, from, `${at}/${keyword}/${i}`, segments, arrays, stack));
    }
    for (const keyword of ['then', 'else'] as const) {
      const sub = schema[keyword];
      if (sub && typeof sub === 'object') walk(sub as JsonSchema, from, `${at}/${keyword}`, segments, arrays, stack);
    }

    const types = typesOf(schema);
    const items = schema.items;
    const isArray = types.includes('array') && items !== null && typeof items === 'object';
    if (segments.length > 0 && types.length > 0 && !isArray) {
      record(segments, arrays, types, schema['x-index'] === true);
    }
    if (isArray) {
      // The path's value is a list: its elements are what a condition compares.
      walk(items as JsonSchema, from, `${at}/items`, segments, [...arrays, segments.length - 1], stack);
      const others = types.filter((t) => t !== 'array');
      if (segments.length > 0 && others.length > 0) record(segments, arrays, others, false);
    }
    const properties = schema.properties;
    if (properties && typeof properties === 'object') {
      for (const [name, sub] of Object.entries(properties as Record<string, JsonSchema>)) {
        walk(sub, from, pointerJoin(at, 'properties', name), [...segments, name], arrays, stack);
      }
    }
  };

  walk(document.json, document, '', [], [], [document.id + '#']);

  const fields = [...found.entries()]
    .map(([path, acc]): Field => ({
      path,
      type: mergeTypes(acc.types),
      arrays: [...acc.arrays].sort((a, b) => a - b),
      indexed: acc.indexed,
    }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

  for (const f of fields) {
    if (f.indexed && (f.arrays.length > 0 || !isScalar(f.type))) {
      throw new GeneratorError(document.file, '', `x-index on "${f.path}": only scalar fields outside arrays can be indexed`);
    }
  }
  return fields;
}

function typesOf(schema: JsonSchema): FieldType[] {
  const declared = schema.type;
  const list = Array.isArray(declared) ? declared : typeof declared === 'string' ? [declared] : [];
  const known = list.filter((t): t is FieldType => ['string', 'integer', 'number', 'boolean', 'object', 'array'].includes(t as string));
  if (known.length > 0) return known;
  if ('const' in schema) return [jsonType(schema.const)];
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return [...new Set(schema.enum.map(jsonType))];
  if (schema.properties) return ['object'];
  if (schema.items) return ['array'];
  return [];
}

function jsonType(value: unknown): FieldType {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (Array.isArray(value)) return 'array';
  if (value !== null && typeof value === 'object') return 'object';
  return 'unknown';
}

function mergeTypes(types: Set<FieldType>): FieldType {
  if (types.size === 1) return [...types][0]!;
  if (types.size === 2 && types.has('integer') && types.has('number')) return 'number';
  return 'unknown';
}

function isScalar(type: FieldType): boolean {
  return type === 'string' || type === 'integer' || type === 'number' || type === 'boolean';
}
