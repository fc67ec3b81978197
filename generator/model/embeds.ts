import { GeneratorError, pointerJoin } from '../errors.js';
import type { Embed, JsonSchema, SchemaDocument } from './model.js';
import type { References } from './refs.js';

/**
 * The reference arrays of a kind that a POST may fill with whole resources (composite insert):
 * top-level array properties marked `"x-embed": "<slug of the embedded kind>"`, found in the
 * kind's own schema and in the schemas it extends with `allOf`.
 */
export function collectEmbeds(document: SchemaDocument, refs: References, collectionSlugs: ReadonlySet<string>): Embed[] {
  const found = new Map<string, string>();
  const visit = (schema: JsonSchema, from: SchemaDocument, at: string, stack: readonly string[]): void => {
    if (typeof schema.$ref === 'string') {
      const target = refs.at(from, at);
      const key = `${target.document.id}#${target.pointer}`;
      if (!stack.includes(key)) visit(target.schema, target.document, target.pointer, [...stack, key]);
    }
    if (Array.isArray(schema.allOf)) schema.allOf.forEach((sub, i) => visit(sub as JsonSchema, from, pointerJoin(at, 'allOf', i), stack));
    const properties = schema.properties;
    if (properties === null || typeof properties !== 'object') return;
    for (const [name, property] of Object.entries(properties as Record<string, JsonSchema>)) {
      const embed = property['x-embed'];
      if (embed === undefined) continue;
      const where = pointerJoin(at, 'properties', name, 'x-embed');
      if (typeof embed !== 'string' || !collectionSlugs.has(embed)) {
        throw new GeneratorError(from.file, where, `must name the schema file (without .json) of a kind with x-collection; got ${JSON.stringify(embed)}`);
      }
      if (!isArray(property, from, pointerJoin(at, 'properties', name), refs)) throw new GeneratorError(from.file, where, 'only an array of references can embed resources');
      found.set(name, embed);
    }
  };
  visit(document.json, document, '', [document.id + '#']);
  return [...found.entries()].map(([property, kind]) => ({ property, kind })).sort((a, b) => (a.property < b.property ? -1 : 1));
}

function isArray(schema: JsonSchema, from: SchemaDocument, at: string, refs: References): boolean {
  if (schema.type === 'array') return true;
  if (typeof schema.$ref !== 'string') return false;
  const target = refs.at(from, at);
  return isArray(target.schema, target.document, target.pointer, refs);
}
