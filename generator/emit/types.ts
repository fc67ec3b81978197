import { compile, type Options } from 'json-schema-to-typescript';
import { pointerJoin } from '../errors.js';
import type { JsonSchema, Model, SchemaDocument } from '../model/model.js';
import type { References } from '../model/refs.js';
import { tsHeader, type GeneratedFile } from './output.js';

export const JSTT_OPTIONS: Partial<Options> = {
  bannerComment: '',
  unknownAny: true,
  additionalProperties: true,
  declareExternallyReferenced: true,
  format: true,
  strictIndexSignatures: false,
};

/**
 * TypeScript types, one file per schema document, compiled by json-schema-to-typescript.
 *
 * Every `$ref` to a titled schema is replaced by a `tsType` naming it, and the name is imported
 * from the file that declares it. So `Reference` or `NetworkResource` is declared once, in its
 * own file, instead of being copied into every kind that uses it.
 */
export async function emitTypes(model: Model): Promise<GeneratedFile[]> {
  const files: GeneratedFile[] = [];
  for (const document of model.documents) {
    const imports = new Map<string, Set<string>>();
    const bodies: string[] = [];
    for (const { unit, at } of unitsOf(document)) {
      const schema = replaceRefs(unit, at, document, model.refs, imports);
      bodies.push((await compile(schema, String(unit.title), JSTT_OPTIONS)).trim());
    }
    const importLines = [...imports.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([slug, names]) => `import type { ${[...names].sort().join(', ')} } from './${slug}.js';`);
    const content = [tsHeader([document.file]), importLines.join('\n'), bodies.join('\n\n')].filter(Boolean).join('\n') + '\n';
    files.push({ path: `types/${document.slug}.ts`, content });
  }
  const index = model.documents.map((d) => `export type * from './${d.slug}.js';`).join('\n');
  files.push({ path: 'types/index.ts', content: `${tsHeader(model.documents.map((d) => d.file))}\n${index}\n` });
  return files;
}

/**
 * The named types a document declares: its root (unless it only holds `$defs`) and each
 * titled `$defs` entry.
 */
function unitsOf(document: SchemaDocument): { unit: JsonSchema; at: string }[] {
  const { $defs, $id: _id, $schema: _schema, ...root } = document.json;
  const units: { unit: JsonSchema; at: string }[] = [];
  if ('type' in root || 'properties' in root || 'allOf' in root) units.push({ unit: { ...root, title: document.typeName }, at: '' });
  for (const [name, def] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
    if (typeof def.title === 'string') units.push({ unit: def, at: pointerJoin('/$defs', name) });
  }
  return units;
}

function replaceRefs(schema: unknown, schemaAt: string, from: SchemaDocument, refs: References, imports: Map<string, Set<string>>): JsonSchema {
  const visit = (value: unknown, document: SchemaDocument, at: string, stack: readonly string[]): unknown => {
    if (Array.isArray(value)) return value.map((v, i) => visit(v, document, pointerJoin(at, i), stack));
    if (value === null || typeof value !== 'object') return value;
    const object = value as JsonSchema;
    const copy: JsonSchema = {};
    for (const [key, child] of Object.entries(object)) {
      if (key === '$ref' || key === '$defs') continue;
      copy[key] = visit(child, document, pointerJoin(at, key), stack);
    }
    if (typeof object.$ref !== 'string') return copy;

    const target = refs.at(document, at);
    const name = target.pointer === '' ? target.document.typeName : target.schema.title;
    if (typeof name === 'string') {
      if (target.document.slug !== from.slug) {
        const names = imports.get(target.document.slug) ?? new Set<string>();
        names.add(name.replace(/ /g, ''));
        imports.set(target.document.slug, names);
      }
      return { ...copy, tsType: name.replace(/ /g, '') };
    }
    // An untitled target (such as another kind's `id` property) has no name to import: inline it.
    const key = `${target.document.id}#${target.pointer}`;
    if (stack.includes(key)) return { ...copy, tsType: 'unknown' };
    return { ...(visit(target.schema, target.document, target.pointer, [...stack, key]) as JsonSchema), ...copy };
  };
  return visit(schema, from, schemaAt, []) as JsonSchema;
}
