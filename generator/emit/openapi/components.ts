import { pointerJoin } from '../../errors.js';
import type { Field, Kind, Model, SchemaDocument } from '../../model/model.js';
import type { References } from '../../model/refs.js';

export type Json = Record<string, unknown>;

export const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

/** The schema components: every schema document, the error body, and each kind's patch and projection. */
export function schemaComponents(model: Model): Json {
  const schemas: Json = {};
  for (const document of model.documents) {
    const { $defs, ...root } = documentSchema(document, model.refs);
    // A document of shared definitions only has no root type: its definitions stand alone.
    if ('type' in root || 'properties' in root || 'allOf' in root) schemas[document.typeName] = root;
    for (const [name, schema] of Object.entries(($defs ?? {}) as Record<string, Json>)) schemas[definitionName(document, name)] = schema;
  }
  const { $defs, ...body } = model.errors.body as { $defs: Record<string, Json> } & Json;
  schemas[String(body.title)] = rewriteLocalRefs(body);
  for (const [name, schema] of Object.entries($defs)) schemas[name] = rewriteLocalRefs(schema);
  for (const kind of model.kinds) {
    schemas[`${kind.typeName}Patch`] = patchSchema(kind);
    schemas[`${kind.typeName}Projection`] = projectionSchema(kind);
  }
  return schemas;
}

/** A document as a component: no `$id`, every `$ref` pointing into `components.schemas`. */
function documentSchema(document: SchemaDocument, refs: References): Json {
  const rewrite = (value: unknown, at: string): unknown => {
    if (Array.isArray(value)) return value.map((item, i) => rewrite(item, pointerJoin(at, i)));
    if (value === null || typeof value !== 'object') return value;
    const copy: Json = {};
    for (const [key, child] of Object.entries(value)) {
      // The document's own identity goes (a component has none); a property named `$schema` stays.
      if ((at === '' && (key === '$id' || key === '$schema')) || (key === 'tsType' && !at.endsWith('/properties'))) continue;
      if (key === '$ref' && typeof child === 'string') {
        const target = refs.at(document, at);
        const definition = /^\/\$defs\/([^/]+)(.*)$/.exec(target.pointer);
        copy.$ref = definition
          ? `#/components/schemas/${definitionName(target.document, definition[1]!.replace(/~1/g, '/').replace(/~0/g, '~'))}${definition[2]}`
          : `#/components/schemas/${target.document.typeName}${target.pointer}`;
      } else {
        copy[key] = rewrite(child, pointerJoin(at, key));
      }
    }
    return copy;
  };
  return rewrite(document.json, '') as Json;
}

/** A `$defs` entry as a component of its own: named by its title (as its TypeScript type is), else `<Document>_<name>`. */
function definitionName(document: SchemaDocument, name: string): string {
  const title = ((document.json.$defs as Record<string, Json> | undefined)?.[name] as Json | undefined)?.title;
  return typeof title === 'string' ? title.replace(/ /g, '') : `${document.typeName}_${name}`;
}

/** `#/$defs/X` inside the error table's schema becomes `#/components/schemas/X`. */
function rewriteLocalRefs(value: unknown): Json {
  return JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/')) as Json;
}

/** The members of a kind's top level, with the JSON type of each (arrays as arrays). */
function topLevel(kind: Kind): { name: string; type: string | undefined }[] {
  return kind.fields
    .filter((f: Field) => !f.path.includes('.'))
    .map((f) => ({ name: f.path, type: f.arrays.includes(0) ? 'array' : f.type === 'unknown' ? undefined : f.type }));
}

/** A JSON Merge Patch of the kind: members to set, `null` to remove one. */
function patchSchema(kind: Kind): Json {
  const properties = Object.fromEntries(topLevel(kind).map(({ name, type }) => [name, type === undefined ? {} : { type: [type, 'null'] }]));
  return {
    type: 'object',
    description: `A JSON Merge Patch of a ${kind.name}: each member replaces the stored one, \`null\` removes it, objects merge member by member. The result must be a valid ${kind.name}.`,
    properties,
    ...(kind.closed ? { additionalProperties: false } : {}),
  };
}

/** What `fields=` returns: only the named members (dot notation reaches nested ones). */
function projectionSchema(kind: Kind): Json {
  const properties = Object.fromEntries(topLevel(kind).map(({ name, type }) => [name, type === undefined ? {} : { type }]));
  return { type: 'object', description: `A ${kind.name} projected by \`fields=\`: only the named members.`, properties };
}
